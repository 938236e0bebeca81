package dev.sieve.app;

import dev.sieve.app.report.CrawlReport;
import dev.sieve.crawl.CrawlListener;
import dev.sieve.crawl.CrawlProgress;
import dev.sieve.crawl.PageRecord;
import dev.sieve.frontier.CapacityWarning;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One crawl's report: fed by the crawler's records and capacity warnings, its counters sampled
 * every second, written to its file at each checkpoint and once more when the crawl ends. A write
 * that fails is a one-line WARN and the crawl goes on: the report is a view of the output, not
 * part of it.
 */
final class ReportRun implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger("dev.sieve.crawl");

  private final CrawlReport report;
  private final Path file;
  private final Clock clock;
  private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(runnable -> {
    Thread thread = new Thread(runnable, "report");
    thread.setDaemon(true);
    return thread;
  });
  private volatile Supplier<CrawlProgress> progress;

  ReportRun(CrawlReport report, Path file, Clock clock) {
    this.report = report;
    this.file = file;
    this.clock = clock;
  }

  Path file() {
    return file;
  }

  /** From now on, samples {@code progress} every {@code interval} (and at each checkpoint). */
  void watch(Supplier<CrawlProgress> progress, Duration interval) {
    this.progress = progress;
    timer.scheduleAtFixedRate(() -> report.sample(progress.get()), 0, interval.toMillis(),
        TimeUnit.MILLISECONDS);
  }

  /** {@code listener} with each record, warning and checkpoint also given to the report. */
  CrawlListener tee(CrawlListener listener) {
    return new ForwardingListener(listener) {
      @Override
      public void onPage(PageRecord record) {
        super.onPage(record);
        report.onPage(record);
      }

      @Override
      public void onCapacityWarning(CapacityWarning warning) {
        super.onCapacityWarning(warning);
        report.onCapacityWarning(warning);
      }

      @Override
      public void onCheckpoint() {
        super.onCheckpoint();
        Supplier<CrawlProgress> source = progress;
        if (source != null) {
          write(source.get(), false);
        }
      }
    };
  }

  /** Writes the final report, its figures {@code summary}'s; whether it was written. */
  boolean finish(CrawlProgress summary) {
    timer.shutdownNow();
    return write(summary, true);
  }

  private boolean write(CrawlProgress at, boolean finished) {
    try {
      report.write(file, at, finished, clock.instant());
      return true;
    } catch (IOException e) {
      log.warn("Cannot write the crawl report {}: {}", file, IoMessages.cause(e));
      return false;
    }
  }

  @Override
  public void close() {
    timer.shutdownNow();
  }
}
