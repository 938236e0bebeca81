package dev.sieve.app;

import dev.sieve.crawl.CrawlProgress;
import dev.sieve.units.Units;
import java.io.PrintStream;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Logs one INFO line on {@value #LOGGER} every interval, and on a terminal keeps a live status
 * line on standard error, refreshed every second.
 */
final class ProgressReporter implements AutoCloseable {
  static final String LOGGER = "dev.sieve.progress";
  private static final Logger log = LoggerFactory.getLogger(LOGGER);

  private final Supplier<CrawlProgress> progress;
  private final ScheduledExecutorService timer =
      Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "progress");
        thread.setDaemon(true);
        return thread;
      });
  private final PrintStream terminal;
  private CrawlProgress last;

  ProgressReporter(Supplier<CrawlProgress> progress, Duration interval, boolean liveLine) {
    this.progress = progress;
    this.terminal = liveLine ? System.err : null;
    long millis = interval.toMillis();
    timer.scheduleAtFixedRate(this::logLine, millis, millis, TimeUnit.MILLISECONDS);
    if (terminal != null) {
      timer.scheduleAtFixedRate(this::liveLine, 1, 1, TimeUnit.SECONDS);
    }
  }

  private synchronized void logLine() {
    CrawlProgress now = progress.get();
    if (terminal != null) {
      terminal.print("\r\033[K");
    }
    log.info(line(last, now));
    last = now;
  }

  private synchronized void liveLine() {
    terminal.print("\r\033[K" + line(last, progress.get()));
    terminal.flush();
  }

  /** The progress line: rates over the interval since {@code before} (null: since the start). */
  static String line(CrawlProgress before, CrawlProgress now) {
    double intervalRate = now.pagesPerSecond();
    if (before != null) {
      double seconds = (now.elapsed().toNanos() - before.elapsed().toNanos()) / 1e9;
      intervalRate = seconds > 0 ? (now.pages() - before.pages()) / seconds : 0;
    }
    Runtime runtime = Runtime.getRuntime();
    long heapUsed = runtime.totalMemory() - runtime.freeMemory();
    return String.format(
        Locale.ROOT,
        "%,d pages (%.1f/s now, %.1f/s avg), %,d pending, %,d in flight (%,d fetching),"
            + " connections %,d opened %,d reused, %,d hosts, %,d errors%s,"
            + " links %s, skipped %s,%s sieve ~%,d URLs fpp %.2g in %d layer(s), heap %s of %s",
        now.pages(),
        intervalRate,
        now.pagesPerSecond(),
        now.pending(),
        now.inFlight(),
        now.connections().fetching(),
        now.connections().opened(),
        now.connections().reused(),
        now.hosts(),
        now.errorTotal(),
        now.errors().isEmpty() ? "" : " " + counts(now.errors()),
        counts(now.links()),
        counts(now.skipped()),
        now.sitemaps().isEmpty() ? "" : " sitemaps " + counts(now.sitemaps()) + ",",
        now.sieveEstimate(),
        now.sieveFpp(),
        now.sieveLayers(),
        Units.bytes(heapUsed),
        Units.bytes(runtime.maxMemory()));
  }

  /** {@code {a=1, b=2}} with thousands separators; {@code {}} when empty. */
  static String counts(Map<String, Long> counts) {
    StringBuilder out = new StringBuilder("{");
    counts.forEach((k, v) -> out.append(out.length() > 1 ? ", " : "").append(k).append('=')
        .append(String.format(Locale.ROOT, "%,d", v)));
    return out.append('}').toString();
  }

  @Override
  public void close() {
    timer.shutdownNow();
    if (terminal != null) {
      synchronized (this) {
        terminal.print("\r\033[K");
        terminal.flush();
      }
    }
  }
}
