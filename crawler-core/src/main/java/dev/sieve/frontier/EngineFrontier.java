package dev.sieve.frontier;

import dev.sieve.frontier.queue.CrawlStore;
import dev.sieve.frontier.queue.PutResult;
import dev.sieve.frontier.queue.QueueStats;
import dev.sieve.frontier.queue.QueuedUrl;
import dev.sieve.frontier.queue.TakeLimits;
import dev.sieve.frontier.queue.UrlPut;
import dev.sieve.frontier.urlfrontier.LeaseMetadata;
import dev.sieve.url.Url;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One crawl ID of the frontier engine ({@link CrawlStore}) as a crawl's {@link Frontier}: the
 * same queues, Sieve, leases and keys that {@code serve} hands out through the URL Frontier API,
 * so a crawl process and a serve node given the same store and crawl ID share one crawl.
 *
 * <p>The translation, all of it: a URL's queue is its politeness key ({@link QueueKey}); a push
 * is a discovered put with the host budget ({@link Politeness#maxUrlsPerHost()}) as the queue
 * budget, and what the lease keeps besides its URL (depth, attempt, via, lastmod, redirects) as
 * the URL's metadata ({@link LeaseMetadata}); a take is a lease of one URL over every queue, at
 * most {@link Politeness#maxInFlightPerHost()} of a queue at once, the politeness delay between
 * two productions of a queue and after a lease of it was given back, unless the host set a longer
 * one ({@link #setHostDelay}); a completion is
 * a known put without a refetch date, a retry one due after the backoff, a put-back one due at
 * once and first in its queue; Retry-After blocks the queue; skipping a host skips its queue.
 *
 * <p>A lease not given back within the lease duration (its process died) is handed out again by
 * the engine. The crawl is finished when nothing is pending or leased in the store: {@link #take}
 * then returns null, in every process sharing it. A take with nothing ready waits for a change
 * this process made, or a poll interval at most (another process's change). The store answers
 * the counters a crawl passes with a completion ({@code counts}) nothing: they stay with the
 * crawl's own records.
 *
 * <p>Thread-safe, as the store is.
 */
class EngineFrontier implements Frontier, FrontierLifecycle {
  private static final Logger log = LoggerFactory.getLogger(EngineFrontier.class);

  private final CrawlStore crawl;
  private final QueueKey queueKey;
  private final long budget;
  private final TakeLimits limits;
  private final Clock clock;
  private final long pollNanos;
  private final LongSupplier outages;
  private final Runnable disconnect;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();
  /** Changes this process made, guarded by {@link #lock}: a waiting take wakes on one. */
  private long version;
  private volatile boolean closed;

  /**
   * A frontier over {@code crawl} at {@code politeness}, leases lasting {@code lease}; times from
   * {@code clock} (epoch milliseconds, the engine's); {@code outages} counts the store's outages
   * ridden out; {@code disconnect} releases the store.
   */
  EngineFrontier(CrawlStore crawl, Politeness politeness, Duration lease, Clock clock,
      Duration pollInterval, LongSupplier outages, Runnable disconnect) {
    this.crawl = crawl;
    this.queueKey = politeness.queueKey();
    this.budget = politeness.maxUrlsPerHost() == Long.MAX_VALUE ? CrawlStore.NO_BUDGET
        : politeness.maxUrlsPerHost();
    this.limits = new TakeLimits(politeness.maxInFlightPerHost(), Integer.MAX_VALUE, 1, lease,
        politeness.delay(), true);
    this.clock = clock;
    this.pollNanos = pollInterval.toNanos();
    this.outages = outages;
    this.disconnect = disconnect;
  }

  // ---------------------------------------------------------------- push

  @Override
  public boolean push(Url url, int depth, String via, Instant lastmod) {
    return offer(List.of(url), depth, List.of(), via, lastmod) == 1;
  }

  @Override
  public int pushAll(List<Url> urls, int depth, String via) {
    return urls.isEmpty() ? 0 : offer(urls, depth, List.of(), via, null);
  }

  @Override
  public boolean pushRedirect(Url target, Lease from) {
    List<String> chain = new ArrayList<>(from.redirectChain());
    chain.add(from.url().toString());
    return offer(List.of(target), from.depth(), chain, from.url().toString(), null) == 1;
  }

  /** Puts {@code urls} as discovered, in one batch; returns how many were new and queued. */
  private int offer(List<Url> urls, int depth, List<String> chain, String via, Instant lastmod) {
    byte[] metadata = LeaseMetadata.toBytes(depth, 0, chain, via, lastmod);
    List<Put> items = new ArrayList<>(urls.size());
    for (Url url : urls) {
      items.add(new Put(queueKey.of(url), url.toString(), true, 0, metadata));
    }
    PutResult[] results = crawl.putAll(items, budget, now());
    int created = 0;
    for (PutResult result : results) {
      if (result == PutResult.CREATED) {
        created++;
      }
    }
    if (created > 0) {
      signal();
    }
    return created;
  }

  // ---------------------------------------------------------------- take and give back

  @Override
  public Lease take() throws InterruptedException {
    while (!closed) {
      long seen = version();
      Lease lease = poll();
      if (lease != null) {
        return lease;
      }
      if (isFinished()) {
        signal(); // the other workers' waits end too
        return null;
      }
      awaitChange(seen);
    }
    return null;
  }

  @Override
  public Lease poll() {
    while (!closed) {
      List<QueuedUrl> out = new ArrayList<>(1);
      crawl.take(null, limits, now(), out);
      if (out.isEmpty()) {
        return null;
      }
      QueuedUrl taken = out.get(0);
      Optional<Lease> lease = LeaseMetadata.fromBytes(taken.url(), taken.key(), taken.metadata());
      if (lease.isPresent()) {
        return lease.get();
      }
      // Put by another face as a string this crawl cannot fetch: done with, said once.
      log.warn("Frontier: dropping {} of queue {}: not an http(s) URL this crawl can fetch",
          taken.url(), taken.key());
      crawl.put(taken.key(), taken.url(), false, 0, null, now());
    }
    return null;
  }

  @Override
  public void complete(Lease lease, Map<String, Long> counts) {
    give(lease, 0, null);
  }

  @Override
  public void retry(Lease lease, Duration backoff, Map<String, Long> counts) {
    give(lease, FrontierTime.plus(now(), FrontierTime.millis(backoff)),
        LeaseMetadata.toBytes(lease.nextAttempt()));
  }

  /** Due at the engine's first millisecond: before every URL waiting in its queue. */
  @Override
  public void putBack(Lease lease) {
    give(lease, 1, LeaseMetadata.toBytes(lease));
  }

  /** A known put of the lease's URL, ending its lease: completed ({@code due} 0) or due then. */
  private void give(Lease lease, long due, byte[] metadata) {
    crawl.put(lease.hostKey(), lease.url().toString(), false, due, metadata, now());
    signal();
  }

  // ---------------------------------------------------------------- hosts

  @Override
  public void delayHost(String hostKey, Duration wait) {
    crawl.control(hostKey, CrawlStore.BLOCK, FrontierTime.plus(now(), FrontierTime.millis(wait)));
  }

  /** The longer of {@code delay} and the crawl's politeness delay, as the queue's own. */
  @Override
  public void setHostDelay(String hostKey, Duration delay) {
    crawl.control(hostKey, CrawlStore.DELAY,
        FrontierTime.millis(delay.compareTo(limits.defaultDelay()) > 0 ? delay
            : limits.defaultDelay()));
  }

  /** Skips the host's queue; returns the URLs it had waiting (those leased are given back). */
  @Override
  public int skipHost(String hostKey) {
    QueueStats before = crawl.stats(hostKey, now());
    crawl.control(hostKey, CrawlStore.SKIP, 0);
    signal();
    return (int) Math.max(0, before.size() - before.inFlight());
  }

  // ---------------------------------------------------------------- state

  @Override
  public boolean isFinished() {
    return crawl.stats(null, now()).size() == 0;
  }

  /** The store's totals, counters and Sieve, read now (three reads: not one instant). */
  @Override
  public FrontierStats stats() {
    QueueStats totals = crawl.stats(null, now());
    Map<String, Long> counters = crawl.counters();
    Map<String, Long> filter = crawl.filterStats();
    return new FrontierStats(totals.size() - totals.inFlight(), totals.inFlight(),
        (int) Math.min(Integer.MAX_VALUE, totals.queues()),
        counters.getOrDefault(PutResult.OVER_BUDGET.counter(), 0L),
        counters.getOrDefault(PutResult.SKIPPED.counter(), 0L)
            + counters.getOrDefault(CrawlStore.SKIPPED_DROPPED, 0L),
        0, (int) (long) filter.get("filter.layers"), filter.get("filter.estimated_urls"),
        filter.get("filter.estimated_fpp_ppb") / 1e9, 0, filter.get("filter.bits"), 0, 0,
        outages.getAsLong());
  }

  /** Stops handing out URLs in this process; leases may still be given back. */
  @Override
  public void close() {
    closed = true;
    signal();
  }

  /** Releases the store, once nothing uses the frontier any more. */
  @Override
  public void disconnect() {
    closed = true;
    disconnect.run();
  }

  private long now() {
    return clock.millis();
  }

  private long version() {
    lock.lock();
    try {
      return version;
    } finally {
      lock.unlock();
    }
  }

  private void signal() {
    lock.lock();
    try {
      version++;
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /** Waits for a change since {@code seen}, or one poll interval at most. */
  private void awaitChange(long seen) throws InterruptedException {
    lock.lockInterruptibly();
    try {
      long left = pollNanos;
      while (version == seen && !closed && left > 0) {
        left = changed.awaitNanos(left);
      }
    } finally {
      lock.unlock();
    }
  }

  /** One put of a batch. */
  private record Put(String key, String url, boolean discovered, long refetchFrom,
      byte[] metadata) implements UrlPut {}
}
