package dev.sieve.app.report;

import dev.sieve.crawl.CrawlProgress;
import dev.sieve.crawl.PageRecord;
import dev.sieve.frontier.CapacityWarning;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What the crawl report shows, gathered while a crawl runs: its counters sampled over time (fed
 * by {@link #sample}), per-host tallies of its records ({@link #onPage}), and the Sieve's capacity
 * warnings. Rendered as one self-contained HTML page whose figures are the last sample's, the
 * counters the summary prints. Its memory and page size are bounded whatever the crawl's length:
 * {@value #SERIES_POINTS} points per series, {@value #HOST_CAP} hosts tallied (later ones as one
 * row), the top {@value #TOP_HOSTS} hosts shown, {@value #MAX_MARKERS} warnings marked.
 * Thread-safe.
 */
public final class CrawlReport {
  static final int SERIES_POINTS = 600;
  static final int HOST_CAP = 10_000;
  static final int TOP_HOSTS = 20;
  static final int MAX_MARKERS = 100;
  /** The sampled counters, in this order. */
  static final int PAGES = 0;
  static final int ERRORS = 1;
  static final int ESTIMATE = 2;
  static final int EXACT = 3;

  private final Map<String, String> settings;
  private final long seeds;
  private final long capacity;
  private final Samples samples = new Samples(SERIES_POINTS, 4);
  private final HostTallies hosts = new HostTallies(HOST_CAP);
  private final List<Warning> warnings = new ArrayList<>();
  private final List<CapacityWarning> unplaced = new ArrayList<>();
  private int warningsNotMarked;
  private volatile CrawlProgress latest;

  /** A capacity warning placed in time: at the first sample after it. */
  record Warning(double seconds, CapacityWarning warning) {}

  /**
   * A report on a crawl run with {@code settings} (shown as given: secrets already left out), from
   * {@code seeds} distinct seeds, its Sieve sized for {@code capacity} URLs.
   */
  public CrawlReport(Map<String, String> settings, long seeds, long capacity) {
    this.settings = Collections.unmodifiableMap(new LinkedHashMap<>(Objects.requireNonNull(settings, "settings")));
    this.seeds = seeds;
    this.capacity = capacity;
  }

  /** Samples the crawl's counters now; the report's figures are the latest sample's. */
  public void sample(CrawlProgress progress) {
    double seconds = progress.elapsed().toNanos() / 1e9;
    samples.add(seconds, progress.pages(), progress.errorTotal(), progress.sieveEstimate(),
        exactUrls(progress));
    latest = progress;
    synchronized (warnings) {
      for (CapacityWarning warning : unplaced) {
        place(seconds, warning);
      }
      unplaced.clear();
    }
  }

  /** Counts a record in its host's tallies. */
  public void onPage(PageRecord record) {
    hosts.add(record.url(), record.error() != null, record.bytes());
  }

  /** Notes a capacity warning, marked at the next sample's time. */
  public void onCapacityWarning(CapacityWarning warning) {
    synchronized (warnings) {
      unplaced.add(warning);
    }
  }

  private void place(double seconds, CapacityWarning warning) {
    if (warnings.size() < MAX_MARKERS) {
      warnings.add(new Warning(seconds, warning));
    } else {
      warningsNotMarked++;
    }
  }

  /** The distinct URLs the Sieve let through exactly: the seeds, every new link and redirect target. */
  long exactUrls(CrawlProgress progress) {
    return seeds + progress.newLinks();
  }

  /**
   * The page after sampling {@code progress}: {@code finished} says whether the crawl has ended,
   * {@code at} when the page is written.
   */
  public String html(CrawlProgress progress, boolean finished, Instant at) {
    sample(progress);
    List<Warning> marked;
    int notMarked;
    synchronized (warnings) {
      marked = List.copyOf(warnings);
      notMarked = warningsNotMarked;
    }
    return new ReportPage(progress, exactUrls(progress), capacity, samples.points(), hosts,
        marked, notMarked, settings).render(finished, at);
  }

  /**
   * Writes {@link #html} to {@code file} atomically: into a temporary file beside it, then moved
   * over it, so a reader never sees half a page.
   *
   * @throws IOException if the file cannot be written
   */
  public synchronized void write(Path file, CrawlProgress progress, boolean finished, Instant at)
      throws IOException {
    Path absolute = file.toAbsolutePath();
    Path dir = absolute.getParent();
    Files.createDirectories(dir);
    Path temp = dir.resolve("." + absolute.getFileName() + "." + ProcessHandle.current().pid() + ".tmp");
    try {
      Files.writeString(temp, html(progress, finished, at), StandardCharsets.UTF_8);
      try {
        Files.move(temp, absolute, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } catch (java.nio.file.AtomicMoveNotSupportedException e) {
        Files.move(temp, absolute, StandardCopyOption.REPLACE_EXISTING);
      }
    } finally {
      Files.deleteIfExists(temp);
    }
  }

  /** The latest sample, or null before any. */
  CrawlProgress latest() {
    return latest;
  }
}
