package dev.sieve.frontier;

import com.google.common.base.Ticker;
import dev.sieve.url.Url;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * The in-process {@link Frontier}: the {@link Sieve} in front of per-host queues in memory, scheduled
 * politely.
 *
 * <p>A URL enters once, when the Sieve first sees it, into the queue of its politeness key (its
 * host, or registrable domain). A host is ready when no more than {@code maxInFlightPerHost - 1}
 * of its fetches are in flight and its politeness delay has passed: fetch starts of one host are
 * at least the delay apart, and with one fetch in flight per host (the default) the next starts
 * no sooner than the delay after the previous one completed. Workers take from whichever host is
 * ready soonest, so many hosts keep every worker busy while each host sees the promised spacing.
 *
 * <p>Every {@link Lease} taken must be given back once with {@link #complete} or {@link #retry}.
 * The frontier is finished when nothing is pending and nothing is leased; {@link #take} then
 * returns null to every worker.
 *
 * <p>Thread-safe. Time comes from the injected {@link Ticker}, so scheduling is tested without
 * sleeping ({@link #poll()} never blocks).
 */
public final class LocalFrontier implements Frontier {
  private final Sieve sieve;
  private final Ticker ticker;
  private final long delayNanos;
  private final int maxInFlightPerHost;
  private final long maxUrlsPerHost;
  private final QueueKey queueKey;

  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();
  private final Map<String, HostQueue> hosts = new HashMap<>();
  private final PendingStore store = new PendingStore();
  private final ReadyHeap ready = new ReadyHeap();
  private long inFlight;
  private boolean closed;

  private final AtomicLong droppedByHostBudget = new AtomicLong();
  private final AtomicLong droppedBySkippedHost = new AtomicLong();

  private LocalFrontier(Builder builder) {
    this.sieve = builder.sieve;
    this.ticker = builder.ticker;
    this.delayNanos = builder.politenessDelay.toNanos();
    this.maxInFlightPerHost = builder.maxInFlightPerHost;
    this.maxUrlsPerHost = builder.maxUrlsPerHost;
    this.queueKey = builder.queueKey;
  }

  public static Builder builder(Sieve sieve) {
    return new Builder(sieve);
  }

  /**
   * Offers a seed or link. Returns true if the Sieve had never seen it and it was queued; false if
   * it was (or might have been) seen, or its host is over its page budget or skipped (both
   * counted).
   */
  @Override
  public boolean push(Url url, int depth) {
    return offer(url, depth, List.of());
  }

  /**
   * Offers the target of a redirect from {@code from}: like a link, at the same depth, remembering
   * the chain so that loops and long chains can be told apart.
   */
  @Override
  public boolean pushRedirect(Url target, Lease from) {
    List<String> chain = new ArrayList<>(from.redirectChain());
    chain.add(from.url());
    return offer(target, from.depth(), chain);
  }

  private boolean offer(Url url, int depth, List<String> chain) {
    if (!sieve.admit(url.toString())) {
      return false;
    }
    String key = queueKey.of(url);
    lock.lock();
    try {
      HostQueue host = hosts.computeIfAbsent(key, k -> new HostQueue(k, delayNanos, store.queue(k)));
      if (host.skipped) {
        droppedBySkippedHost.incrementAndGet();
        return false;
      }
      if (host.admitted >= maxUrlsPerHost) {
        droppedByHostBudget.incrementAndGet();
        return false;
      }
      host.admitted++;
      host.pending.addLast(new Lease(url.toString(), depth, key, 0, chain));
      reschedule(host);
      return true;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Takes the next URL from the host that is ready soonest, waiting for one to become ready.
   *
   * @return the lease, or null when the frontier is finished or closed
   */
  @Override
  public Lease take() throws InterruptedException {
    lock.lockInterruptibly();
    try {
      while (true) {
        if (closed || (store.size() == 0 && inFlight == 0)) {
          changed.signalAll();
          return null;
        }
        Lease lease = pollLocked();
        if (lease != null) {
          return lease;
        }
        HostQueue next = ready.peek();
        if (next == null) {
          changed.await();
        } else {
          changed.awaitNanos(Math.max(1, next.readyAt - ticker.read()));
        }
      }
    } finally {
      lock.unlock();
    }
  }

  /** Takes the next URL whose host is ready now, or returns null without waiting. */
  @Override
  public Lease poll() {
    lock.lock();
    try {
      return closed ? null : pollLocked();
    } finally {
      lock.unlock();
    }
  }

  private Lease pollLocked() {
    HostQueue host = ready.peek();
    long now = ticker.read();
    if (host == null || host.readyAt - now > 0) {
      return null;
    }
    ready.poll();
    Lease lease = host.pending.pollFirst();
    inFlight++;
    host.inFlight++;
    host.readyAt = now + host.delayNanos;
    reschedule(host);
    return lease;
  }

  /** Gives back a lease whose URL is done (fetched, failed for good, or denied). */
  @Override
  public void complete(Lease lease) {
    lock.lock();
    try {
      HostQueue host = release(lease);
      if (maxInFlightPerHost == 1) {
        // Not in the heap: its only fetch was in flight.
        host.readyAt = Math.max(host.readyAt, ticker.read() + host.delayNanos);
      }
      reschedule(host);
    } finally {
      lock.unlock();
    }
  }

  /**
   * Gives back a lease to be tried again, first in its host's queue, no sooner than {@code
   * backoff} from now (the host waits too).
   */
  @Override
  public void retry(Lease lease, Duration backoff) {
    lock.lock();
    try {
      HostQueue host = release(lease);
      unschedule(host);
      host.pending.addFirst(lease.nextAttempt());
      host.readyAt = Math.max(host.readyAt, ticker.read() + Math.max(host.delayNanos, backoff.toNanos()));
      reschedule(host);
    } finally {
      lock.unlock();
    }
  }

  /**
   * Gives back a lease untried, first in its host's queue, e.g. when the worker's politeness slot
   * went to the host's robots.txt: the host's delay applies as after {@link #complete}.
   */
  @Override
  public void putBack(Lease lease) {
    lock.lock();
    try {
      HostQueue host = release(lease);
      unschedule(host);
      host.pending.addFirst(lease);
      host.readyAt = Math.max(host.readyAt, ticker.read() + host.delayNanos);
      reschedule(host);
    } finally {
      lock.unlock();
    }
  }

  /** Holds every fetch of the host until {@code wait} from now, e.g. for a Retry-After header. */
  @Override
  public void delayHost(String hostKey, Duration wait) {
    updateHost(hostKey, host -> host.readyAt = Math.max(host.readyAt, ticker.read() + wait.toNanos()));
  }

  /** Spaces the host's fetches at least {@code delay} apart, e.g. for a robots.txt Crawl-delay. */
  @Override
  public void setHostDelay(String hostKey, Duration delay) {
    updateHost(hostKey, host -> host.delayNanos = Math.max(delayNanos, delay.toNanos()));
  }

  /**
   * Drops the host's pending URLs and every later one (each counted), e.g. when its Crawl-delay
   * is beyond what the crawl accepts.
   *
   * @return the number of pending URLs dropped now
   */
  @Override
  public int skipHost(String hostKey) {
    int[] dropped = {0};
    updateHost(hostKey, host -> {
      host.skipped = true;
      dropped[0] = (int) host.pending.clear();
    });
    droppedBySkippedHost.addAndGet(dropped[0]);
    return dropped[0];
  }

  private void updateHost(String hostKey, Consumer<HostQueue> update) {
    lock.lock();
    try {
      HostQueue host = hosts.computeIfAbsent(hostKey, k -> new HostQueue(k, delayNanos, store.queue(k)));
      unschedule(host);
      update.accept(host);
      reschedule(host);
    } finally {
      lock.unlock();
    }
  }

  private HostQueue release(Lease lease) {
    HostQueue host = hosts.get(lease.hostKey());
    if (host == null || host.inFlight == 0) {
      throw new IllegalStateException("lease not taken from this frontier: " + lease);
    }
    host.inFlight--;
    inFlight--;
    return host;
  }

  /** Takes the host out of the ready heap before its ready time changes. */
  private void unschedule(HostQueue host) {
    ready.remove(host);
  }

  /** Puts the host in the ready heap if it can be leased from; wakes waiting workers. */
  private void reschedule(HostQueue host) {
    if (!host.scheduled() && host.eligible(maxInFlightPerHost)) {
      ready.add(host);
    }
    changed.signalAll();
  }

  /** Stops handing out URLs: {@link #take} returns null from now on. */
  @Override
  public void close() {
    lock.lock();
    try {
      closed = true;
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /** True when nothing is pending or in flight. */
  @Override
  public boolean isFinished() {
    lock.lock();
    try {
      return store.size() == 0 && inFlight == 0;
    } finally {
      lock.unlock();
    }
  }

  /** Nanoseconds until some host is ready: 0 if one is ready now, -1 if none has pending URLs. */
  public long nanosUntilReady() {
    lock.lock();
    try {
      HostQueue next = ready.peek();
      return next == null ? -1 : Math.max(0, next.readyAt - ticker.read());
    } finally {
      lock.unlock();
    }
  }

  /** URLs waiting in host queues. */
  @Override
  public long pending() {
    lock.lock();
    try {
      return store.size();
    } finally {
      lock.unlock();
    }
  }

  /** Leases taken and not yet given back. */
  @Override
  public long inFlight() {
    lock.lock();
    try {
      return inFlight;
    } finally {
      lock.unlock();
    }
  }

  /** The number of politeness keys seen. */
  @Override
  public int hosts() {
    lock.lock();
    try {
      return hosts.size();
    } finally {
      lock.unlock();
    }
  }

  /** New URLs not queued because their host had reached its page budget. */
  @Override
  public long droppedByHostBudget() {
    return droppedByHostBudget.get();
  }

  /** URLs dropped because their host was skipped. */
  @Override
  public long droppedBySkippedHost() {
    return droppedBySkippedHost.get();
  }

  /** The politeness key of {@code url}. */
  @Override
  public String hostKey(Url url) {
    return queueKey.of(url);
  }

  @Override
  public long approximateSeen() {
    return sieve.approximateSeen();
  }

  @Override
  public double seenFpp() {
    return sieve.expectedFpp();
  }

  @Override
  public int capacityWarnings() {
    return sieve.capacityWarnings();
  }

  /** Settings of a {@link LocalFrontier}, validated once in {@link #build()}. */
  public static final class Builder {
    private final Sieve sieve;
    private Ticker ticker = Ticker.systemTicker();
    private Duration politenessDelay = Duration.ofSeconds(1);
    private int maxInFlightPerHost = 1;
    private long maxUrlsPerHost = Long.MAX_VALUE;
    private QueueKey queueKey = QueueKey.HOST;

    private Builder(Sieve sieve) {
      this.sieve = Objects.requireNonNull(sieve, "sieve");
    }

    public Builder ticker(Ticker ticker) {
      this.ticker = Objects.requireNonNull(ticker, "ticker");
      return this;
    }

    /** The least time between fetch starts of one host (default 1 s). */
    public Builder politenessDelay(Duration delay) {
      this.politenessDelay = Objects.requireNonNull(delay, "politenessDelay");
      return this;
    }

    /** At most this many fetches of one host at once (default 1). */
    public Builder maxInFlightPerHost(int max) {
      this.maxInFlightPerHost = max;
      return this;
    }

    /** At most this many URLs queued per host over the whole crawl (default unlimited). */
    public Builder maxUrlsPerHost(long max) {
      this.maxUrlsPerHost = max;
      return this;
    }

    public Builder queueKey(QueueKey queueKey) {
      this.queueKey = Objects.requireNonNull(queueKey, "queueKey");
      return this;
    }

    public LocalFrontier build() {
      if (politenessDelay.isNegative()) {
        throw new IllegalArgumentException(
            "politenessDelay (" + politenessDelay + ") must be >= 0");
      }
      if (maxInFlightPerHost < 1) {
        throw new IllegalArgumentException(
            "maxInFlightPerHost (" + maxInFlightPerHost + ") must be >= 1");
      }
      if (maxUrlsPerHost < 1) {
        throw new IllegalArgumentException("maxUrlsPerHost (" + maxUrlsPerHost + ") must be >= 1");
      }
      return new LocalFrontier(this);
    }
  }
}
