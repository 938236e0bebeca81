package dev.sieve.app;

import dev.sieve.crawl.CrawlListener;
import dev.sieve.crawl.CrawlProgress;
import dev.sieve.crawl.Crawler;
import dev.sieve.crawl.PageRecord;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One crawl run to its end: progress lines while it runs, Ctrl-C letting fetches in flight
 * finish, the output closed and the summary printed however it ends.
 */
final class CrawlRun {
  private static final Logger log = LoggerFactory.getLogger("dev.sieve.crawl");
  /** How long Ctrl-C waits for fetches in flight and the summary: the stop timeout and some. */
  private static final long STOP_WAIT_SECONDS = 40;

  private final JsonlOutput jsonl;
  private final OutputSettings output;
  private final CrawlListener listener;
  private final ReportRun report;

  /**
   * A run writing its records to {@code jsonl}, opened at {@code output}'s file, and its report
   * with {@code report} (null: none).
   */
  CrawlRun(JsonlOutput jsonl, OutputSettings output, ReportRun report) {
    this.jsonl = jsonl;
    this.output = output;
    this.report = report;
    CrawlListener own = listener(jsonl);
    this.listener = report == null ? own : report.tee(own);
  }

  /**
   * What the crawler tells the run: each page into the output (and the report), skipped hosts
   * into the log.
   */
  CrawlListener listener() {
    return listener;
  }

  private static CrawlListener listener(JsonlOutput jsonl) {
    return new CrawlListener() {
      @Override
      public void onPage(PageRecord record) {
        jsonl.onPage(record);
      }

      @Override
      public Map<String, PageRecord> recordedBefore(Set<String> urls) {
        return jsonl.recordedBefore(urls);
      }

      @Override
      public void onHostSkipped(String host, String reason) {
        log.debug("Skipping host {}: {}", host, reason);
      }
    };
  }

  /**
   * Runs the crawl, writes the report and prints the summary, also when stopped by a signal (the
   * shutdown hook waits for it) or by an I/O failure (exit 74, after the one-line error the
   * crawler logged).
   *
   * @return the exit code and the final counters
   */
  Result run(Crawler crawler, SeedFile seedFile, dev.sieve.crawl.CrawlConfig config)
      throws InterruptedException {
    PrintStream out = System.out;
    CountDownLatch done = new CountDownLatch(1);
    Thread hook = new Thread(() -> {
      log.info("Stopping: letting fetches in flight finish, then writing the summary");
      crawler.stop();
      try {
        done.await(STOP_WAIT_SECONDS, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }, "crawl-stop");
    Runtime.getRuntime().addShutdownHook(hook);
    try {
      log.info("Crawling {} seed(s), up to {} fetches in flight and {} threads for the rest, into {}",
          seedFile.seeds().size(), config.maxInFlight(), config.threads(), output.file());
      if (!config.fetch().proxies().isDirect()) {
        log.info("Proxy: {}", config.fetch().proxies());
      }
      CrawlProgress summary;
      try (ProgressReporter progress = new ProgressReporter(
          crawler::progress, output.progressInterval(), System.console() != null)) {
        summary = crawler.run();
      }
      String failure = crawler.failure().orElse(null);
      try {
        jsonl.close();
      } catch (IOException e) {
        if (failure == null) {
          failure = jsonl.message(e);
          log.error("Stopping the crawl: {}", failure);
        }
      }
      boolean reported = report != null && report.finish(summary);
      CrawlSummary.print(out, summary, seedFile.skippedLines(), output.file(),
          reported ? report.file() : null);
      int code = failure != null ? CrawlCommand.EXIT_IO
          : crawler.deadProxy().isPresent() ? CrawlCommand.EXIT_PROXY : 0;
      return new Result(code, summary, reported ? report.file() : null);
    } finally {
      done.countDown();
      try {
        Runtime.getRuntime().removeShutdownHook(hook);
      } catch (IllegalStateException shuttingDown) {
        // The hook is running: it is waiting for done, which is counted down.
      }
    }
  }

  /** How a run ended: its exit code, final counters, and the report written (null: none). */
  record Result(int exitCode, CrawlProgress summary, Path report) {}
}
