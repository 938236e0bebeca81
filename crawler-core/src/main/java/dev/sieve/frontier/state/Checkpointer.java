package dev.sieve.frontier.state;

import dev.sieve.bloom.BloomFilter;
import dev.sieve.frontier.FrontierListener;
import dev.sieve.frontier.FrontierSettings;
import dev.sieve.frontier.Sieve;
import dev.sieve.frontier.local.LocalFrontier;
import dev.sieve.url.Url;
import java.io.IOException;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps a crawl resumable: builds (or restores) the Sieve and frontier from the state directory,
 * journals the frontier, writes a checkpoint every interval and when the crawl stops, and
 * watches the free disk space.
 */
final class Checkpointer implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(Checkpointer.class);

  private final FrontierSettings config;
  private final CrawlState state;
  private final Sieve sieve;
  private final LocalFrontier frontier;
  /** The counters restored with the frontier. */
  private final Map<String, Long> restoredCounts;
  private final ScheduledExecutorService timer =
      Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "checkpoint");
        thread.setDaemon(true);
        return thread;
      });
  private volatile boolean diskLow;
  /** Run before each checkpoint (see {@code FrontierLifecycle.beforeCheckpoint}). */
  private volatile Runnable beforeCheckpoint = () -> {};
  /** The final checkpoint's failure, or null. */
  private volatile String failure;

  private Checkpointer(FrontierSettings config, CrawlState state, Sieve sieve, LocalFrontier frontier,
      Map<String, Long> restoredCounts) {
    this.config = config;
    this.state = state;
    this.sieve = sieve;
    this.frontier = frontier;
    this.restoredCounts = restoredCounts;
  }

  /**
   * Opens the state directory: restores the crawl it holds, or starts a new one.
   *
   * @throws CrawlStateException if the state is in use, its settings differ, or it is unusable
   */
  static Checkpointer open(FrontierSettings config, List<Url> seeds, FrontierListener listener) {
    CrawlState state = CrawlState.open(config.stateDir, settings(config), config.freshState,
        seeds.stream().map(Url::toString).toList(), config.addSeeds);
    try {
      Sieve sieve;
      LocalFrontier frontier;
      Map<String, Long> restored = Map.of();
      if (state.resumed()) {
        CrawlState.Restored resumed = state.restore(config, listener);
        sieve = resumed.sieve();
        frontier = resumed.frontier();
        // The checkpoint's counters, plus those journaled with each URL done after it.
        frontier.state().addCounts(resumed.counters());
        restored = frontier.state().counts();
      } else {
        sieve = config.newSieve(listener);
        frontier = LocalFrontier.builder(sieve)
            .settings(config, state.dir().resolve(CrawlState.SPILL), listener).build();
      }
      state.startJournal(frontier);
      return new Checkpointer(config, state, sieve, frontier, restored);
    } catch (IOException | RuntimeException e) {
      try {
        state.close();
      } catch (IOException suppressed) {
        e.addSuppressed(suppressed);
      }
      if (e instanceof CrawlStateException stateError) {
        throw stateError;
      }
      throw new CrawlStateException("cannot start the crawl in " + config.stateDir + ": " + e.getMessage(), e);
    }
  }

  /** What must not change when the crawl resumes: the filter's shape and the queues' keys. */
  private static Map<String, String> settings(FrontierSettings config) {
    Map<String, String> settings = new TreeMap<>(config.fixedOnResume);
    settings.put("filter", config.seenFilter.label());
    settings.put("on-capacity", config.growOnCapacity ? "grow" : "warn");
    settings.put("hash-id", Integer.toString(BloomFilter.HASH_ID));
    settings.put("expected-urls", Long.toString(config.expectedUrls));
    settings.put("fpp", Double.toString(config.falsePositiveRate));
    settings.put("queue-key", config.politeness.queueKey().name().toLowerCase(Locale.ROOT));
    return settings;
  }

  /** The counters restored with the frontier (empty for a new crawl). */
  Map<String, Long> restoredCounts() {
    return restoredCounts;
  }

  /** Why the final checkpoint could not be written, or null. */
  String failure() {
    return failure;
  }

  /** The seeds the crawl goes on with (see {@link CrawlState#seeds()}). */
  List<Url> seeds() {
    return state.seeds().stream().map(seed -> Url.parse(seed).orElseThrow(
        () -> new CrawlStateException("saved seed is not a URL: " + seed))).toList();
  }

  boolean resumed() {
    return state.resumed();
  }

  LocalFrontier frontier() {
    return frontier;
  }

  /** Starts the periodic checkpoints and the disk watch. */
  void start() {
    watchDisk(); // before the first URL is taken
    long interval = config.checkpointInterval.toMillis();
    timer.scheduleWithFixedDelay(this::checkpointQuietly, interval, interval, TimeUnit.MILLISECONDS);
    timer.scheduleWithFixedDelay(this::watchDisk, 5, 5, TimeUnit.SECONDS);
  }

  void beforeCheckpoint(Runnable task) {
    this.beforeCheckpoint = task;
  }

  /** Whether new URLs should wait: the state disk is nearly full. */
  boolean diskLow() {
    return diskLow;
  }

  private void watchDisk() {
    try {
      long free = state.usableSpace();
      boolean low = free < config.diskReserveBytes;
      if (low && !diskLow) {
        log.warn("Disk nearly full: {} bytes free for {} (reserve {}); not taking new URLs until"
            + " space is freed", free, state.dir(), config.diskReserveBytes);
      } else if (!low && diskLow) {
        log.info("Disk space is back ({} bytes free); taking new URLs again", free);
      }
      diskLow = low;
    } catch (IOException e) {
      log.warn("Cannot read the free space of {}: {}", state.dir(), e.getMessage());
    }
  }

  private void checkpointQuietly() {
    try {
      checkpoint();
    } catch (IOException | RuntimeException e) {
      log.error("Checkpoint failed in {}: {}; the journal still holds every change", state.dir(), e.getMessage());
    }
  }

  private synchronized void checkpoint() throws IOException {
    long started = System.nanoTime();
    beforeCheckpoint.run();
    state.checkpoint(frontier, sieve);
    log.debug("Checkpoint written in {} ms", (System.nanoTime() - started) / 1_000_000);
  }

  /** Stops the timer, writes the final checkpoint and releases the state directory. */
  @Override
  public void close() {
    timer.shutdownNow();
    try {
      checkpoint();
      frontier.state().closeJournal();
    } catch (IOException | RuntimeException e) {
      failure = "cannot write the final checkpoint in " + state.dir() + ": " + e.getMessage();
      log.error("Final checkpoint failed in {}: {}; the journal still holds every change",
          state.dir(), e.getMessage());
    } finally {
      try {
        state.close();
      } catch (IOException e) {
        log.warn("Cannot release {}: {}", state.dir(), e.getMessage());
      }
    }
  }
}
