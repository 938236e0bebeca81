package dev.sieve.crawl;

import dev.sieve.frontier.CapacityWarning;
import dev.sieve.frontier.Frontier;
import dev.sieve.frontier.FrontierLifecycle;
import dev.sieve.frontier.FrontierListener;
import dev.sieve.frontier.FrontierStats;
import dev.sieve.frontier.Frontiers;
import dev.sieve.frontier.Lease;
import dev.sieve.frontier.OpenFrontier;
import dev.sieve.frontier.state.CrawlStateException;
import dev.sieve.url.Url;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A crawl: each URL the {@link Frontier} hands out runs through fetch → parse → sieve → enqueue
 * ({@link UrlPipeline#crawl(Lease)}) on a thread of its own as soon as its host is ready, up to
 * {@code maxInFlight} at once ({@link LeaseRunner}); the work after each fetch runs on at most
 * {@code threads} at once ({@link WorkSlots}). Until nothing is pending or in flight, the page
 * limit is reached, or {@link #stop()} is called.
 *
 * <p>Every URL taken ends as exactly one {@link PageRecord} handed to the {@link CrawlListener},
 * after its last attempt. Failures of the web (HTTP errors, timeouts, traps) are data in those
 * records and in the counters of {@link #progress()}; they never stop the crawl.
 *
 * <p>{@link #run()} is called once; {@link #stop()} and {@link #progress()} from any thread.
 */
public final class Crawler {
  private static final Logger log = LoggerFactory.getLogger(Crawler.class);

  private final CrawlConfig config;
  private final Frontier frontier;
  /** The frontier's state or connections; does nothing for a frontier in memory. */
  private final FrontierLifecycle lifecycle;
  /** The seeds: the config's, or on resume the saved crawl's (and any added). */
  private final List<Url> seeds;
  private final CrawlStats stats = new CrawlStats();
  private final Recorder recorder;
  private final UrlPipeline pipeline;
  /** Permits for URLs still to be done under --max-pages; a retried URL gives its permit back. */
  private final Semaphore pageBudget;
  private final AtomicInteger runs = new AtomicInteger();
  /** How often the lease loop looks again at a spent page budget while URLs are in flight. */
  private static final long BUDGET_POLL_MS = 20;
  private final WorkSlots slots;
  private final LeaseRunner leases;
  private volatile boolean stopping;
  private volatile long startedAt;
  /** The I/O failure that stopped the crawl (output or state unwritable), or null. */
  private volatile String failure;
  /** Why the proxy was found dead, stopping the crawl, or null. */
  private volatile String deadProxy;

  /**
   * A crawl over {@code opened} (see {@link Frontiers#open}): on resume, from the seeds and
   * counters its lifecycle restored.
   */
  public Crawler(CrawlConfig config, OpenFrontier opened, CrawlListener listener) {
    this.config = config;
    this.frontier = opened.frontier();
    this.lifecycle = opened.lifecycle().orElseGet(() -> new FrontierLifecycle() {});
    this.seeds = lifecycle.savedSeeds().orElse(config.seeds());
    Map<String, Long> restored = lifecycle.restoredCounts();
    stats.add(restored);
    this.pageBudget = new Semaphore((int) Math.min(Integer.MAX_VALUE, config.maxPages));
    this.recorder = new Recorder(listener, frontier, lifecycle::flushLog, stats, config.clock);
    this.slots = new WorkSlots(config.threads);
    this.leases = new LeaseRunner(config.maxInFlight);
    this.pipeline = new UrlPipeline(config, seeds, frontier, listener, recorder, pageBudget,
        () -> stopping, slots, this::proxyDead,
        new UrlPipeline.Resume(!restored.isEmpty(), lifecycle::flushLog));
    lifecycle.beforeCheckpoint(() -> {
      pipeline.sync();
      listener.onCheckpoint();
    });
  }

  /**
   * A crawl over the frontier {@code config} describes ({@link CrawlConfig#frontierSettings()}),
   * resumed from its state directory if it has one.
   *
   * @throws CrawlStateException if the state directory cannot be used
   */
  public static Crawler open(CrawlConfig config, CrawlListener listener) {
    return new Crawler(config, Frontiers.open(config.frontierSettings(), frontierListener(listener)),
        listener);
  }

  /** What the frontier tells {@code listener}, and asks of it on resume (its records as counters). */
  public static FrontierListener frontierListener(CrawlListener listener) {
    return new FrontierListener() {
      @Override
      public void onCapacityWarning(CapacityWarning warning) {
        listener.onCapacityWarning(warning);
      }

      @Override
      public Map<String, Map<String, Long>> recordedBefore(Set<String> urls) {
        return Crawler.recordedBefore(listener, urls);
      }

      @Override
      public Map<String, Map<String, Long>> recordedSince(Map<String, Instant> urls) {
        Map<String, Map<String, Long>> counts = new HashMap<>();
        listener.recordedBefore(urls.keySet()).forEach((url, record) -> {
          if (record.fetchedAt().isAfter(urls.get(url))) {
            counts.put(url, Recorder.counts(record));
          }
        });
        return counts;
      }
    };
  }

  /** The counters each of {@code urls} the listener recorded before a crash stands for. */
  private static Map<String, Map<String, Long>> recordedBefore(CrawlListener listener, Set<String> urls) {
    Map<String, Map<String, Long>> counts = new HashMap<>();
    listener.recordedBefore(urls).forEach((url, record) -> counts.put(url, Recorder.counts(record)));
    if (!counts.isEmpty()) {
      log.info("{} URL(s) in flight at the crash were already recorded; not fetching them again",
          counts.size());
    }
    return counts;
  }

  /**
   * Crawls from the seeds until done, the page limit, or {@link #stop()}; then returns the final
   * counters. Blocks the calling thread.
   */
  public CrawlProgress run() throws InterruptedException {
    if (runs.getAndIncrement() > 0) {
      throw new IllegalStateException("a Crawler runs once");
    }
    startedAt = config.ticker().read();
    for (Url seed : seeds) {
      frontier.push(seed, 0, null, null);
    }
    lifecycle.start();
    try {
      leases.run(new LeaseRunner.Source() {
        @Override
        public Lease next() throws InterruptedException {
          return nextLease();
        }

        @Override
        public Lease poll() {
          return pollLease();
        }
      }, this::crawl, () -> stopping, config.stopTimeout);
    } finally {
      frontier.close();
      closePipeline();
      Optional<String> stateFailure = lifecycle.end();
      if (failure == null) {
        failure = stateFailure.orElse(null);
      }
    }
    return progress();
  }

  /** Closes the fetcher and the archive; an archive that cannot be closed fails the run. */
  private void closePipeline() {
    try {
      pipeline.close();
    } catch (UncheckedIOException e) {
      synchronized (this) {
        if (failure == null) {
          failure = e.getMessage();
          log.error("Stopping the crawl: {}", failure);
        }
      }
    }
  }

  /**
   * The I/O failure that stopped the crawl or its final checkpoint, in one line naming the file
   * and the cause; empty when there was none. Read after {@link #run} returns.
   */
  public Optional<String> failure() {
    return Optional.ofNullable(failure);
  }

  /**
   * Why the crawl stopped because its proxy is dead ({@code Proxy http://host:3128 is unreachable
   * (connection refused; …): stopping the crawl}, never with credentials); empty when it did not.
   */
  public Optional<String> deadProxy() {
    return Optional.ofNullable(deadProxy);
  }

  private void proxyDead(String message) {
    deadProxy = message;
    log.error(message);
    stop();
  }

  /**
   * Stops taking new URLs; fetches in flight finish (bounded by the stop timeout) and {@link #run}
   * returns. Safe to call from a shutdown hook or any thread, more than once.
   */
  public void stop() {
    stopping = true;
    frontier.close();
  }

  /** A snapshot of the crawl's counters. */
  public CrawlProgress progress() {
    long started = startedAt;
    FrontierStats queues = frontier.stats();
    return new CrawlProgress(
        Duration.ofNanos(started == 0 ? 0 : config.ticker().read() - started),
        stats.pages.sum(),
        stats.bytes.sum(),
        queues.pending(),
        queues.inFlight(),
        queues.hosts(),
        stats.errors(),
        skippedWithFrontier(queues),
        stats.retries.sum(),
        stats.linksFound.sum(),
        stats.linksNew.sum(),
        queues.approximateSeen(),
        queues.seenFpp(),
        queues.seenLayers(),
        queues.capacityWarnings(),
        stats.linkFates(),
        stats.sitemaps(),
        new CrawlProgress.Connections(slots.fetching(), slots.mostFetching(),
            pipeline.connectionsOpened(), pipeline.connectionsReused(),
            pipeline.connectionsStale()),
        pipeline.session(stats.session()),
        stats.refetches.sum(),
        stats.notModified.sum(),
        queues.storageOutages());
  }

  /** The crawl's refusals with the frontier's beside them. */
  private Map<String, Long> skippedWithFrontier(FrontierStats queues) {
    Map<String, Long> skipped = stats.skipped();
    skipped.merge("host-budget", queues.droppedByHostBudget(), Long::sum);
    skipped.merge("host-skipped", queues.droppedBySkippedHost(), Long::sum);
    skipped.merge("filter-full", queues.droppedByFullFilter(), Long::sum);
    skipped.values().removeIf(count -> count == 0);
    return skipped;
  }

  /**
   * The next lease under the page budget, waiting for one to be ready; null when the frontier is
   * finished or closed, the crawl stops, or the budget is spent with nothing in flight that could
   * give some back (a retried URL returns its permit).
   */
  private Lease nextLease() throws InterruptedException {
    try {
      while (!pageBudget.tryAcquire(BUDGET_POLL_MS, TimeUnit.MILLISECONDS)) {
        if (stopping || leases.running() == 0) {
          return null;
        }
      }
      awaitDiskSpace();
      return stopping ? null : frontier.take();
    } catch (UncheckedIOException e) {
      fail(e.getMessage());
      return null;
    }
  }

  /**
   * {@link #nextLease} without waiting: a lease ready now under the page budget, or null (also
   * while the state disk is nearly full, which {@link #nextLease} waits out).
   */
  private Lease pollLease() {
    if (stopping || !pageBudget.tryAcquire()) {
      return null;
    }
    Lease lease = null;
    try {
      lease = lifecycle.storageLow() ? null : frontier.poll();
    } catch (UncheckedIOException e) {
      fail(e.getMessage());
    }
    if (lease == null) {
      pageBudget.release();
    }
    return lease;
  }

  /** Runs one lease through the pipeline, on a thread of the {@link LeaseRunner}. */
  private void crawl(Lease lease) {
    try {
      pipeline.crawl(lease);
    } catch (Recorder.OutputFailure | UncheckedIOException e) {
      // The output or the frontier's own files failed (a full disk, a damaged spill segment): the
      // URL in hand stays in flight (fetched again on resume), and the crawl stops with the reason
      // rather than lose records.
      fail(e.getMessage());
    } catch (RuntimeException e) {
      // A bug, not the web: record the URL so nothing is lost silently, and keep crawling.
      log.error("Internal error while crawling {}", lease.url(), e);
      try {
        Recorder.Outcome outcome = recorder.of(lease);
        outcome.record(null, 0, 0, "internal-error");
        outcome.finish();
      } catch (Recorder.OutputFailure | UncheckedIOException failed) {
        fail(failed.getMessage());
      }
    } finally {
      slots.leaveCpu();
    }
  }

  private void fail(String message) {
    synchronized (this) {
      if (failure == null) {
        failure = message;
        log.error("Stopping the crawl: {}", message);
      }
    }
    stop();
  }

  /** While the state disk is nearly full, new URLs wait (the guard logs why). */
  private void awaitDiskSpace() throws InterruptedException {
    while (lifecycle.storageLow() && !stopping) {
      synchronized (this) {
        wait(1000);
      }
    }
  }
}
