package dev.sieve.frontier.local;

import com.google.common.base.Ticker;
import dev.sieve.frontier.Frontier;
import dev.sieve.frontier.FrontierStats;
import dev.sieve.frontier.Lease;
import dev.sieve.frontier.Politeness;
import dev.sieve.frontier.QueueKey;
import dev.sieve.frontier.Sieve;
import dev.sieve.frontier.spill.PendingStore;
import dev.sieve.url.Url;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The in-process {@link Frontier}: the {@link Sieve} in front of per-host queues in memory,
 * scheduled politely by a {@link HostSchedule} (a host's fetch starts at least its delay apart,
 * at most {@code maxInFlightPerHost} at once; workers take from the host ready soonest).
 *
 * <p>Every {@link Lease} taken is given back once with {@link #complete}, {@link #retry} or {@link
 * #putBack}. The frontier is finished when nothing is pending and nothing is leased; {@link #take}
 * then returns null to every worker.
 *
 * <p><b>Memory.</b> Pending URLs are held compactly, a few bytes beyond the URL's, plus a few
 * hundred bytes per host; with {@link LocalFrontierBuilder#spillTo} within a budget, the rest in
 * checksummed segment files. A spilled chunk that cannot be read makes {@link #poll()} and {@link
 * #take()} throw an {@link java.io.UncheckedIOException} naming the file and offset, every time,
 * rather than lose URLs.
 *
 * <p><b>State.</b> {@link #state()} saves the schedule ({@link Snapshot}); {@link
 * LocalFrontierBuilder#restore} builds a frontier from it and the journals written after it
 * ({@link LocalFrontierState}, {@link JournalReplay}). Spill files a saved state refers to are kept until
 * a later state is declared durable.
 *
 * <p>Thread-safe. Time comes from the injected {@link Ticker}, so scheduling is tested without
 * sleeping ({@link #poll()} never blocks).
 */
public final class LocalFrontier implements Frontier {
  final Sieve sieve;
  private final SeenPrefilter prefilter;
  private final QueueKey queueKey;
  final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();
  /** Guarded by {@link #lock}, as everything below. */
  final HostSchedule schedule;
  private final LocalFrontierState state = new LocalFrontierState(this);
  /** Where every change goes, in order (a journal). */
  FrontierLog log = FrontierLog.NONE;
  /** After a restore, the leases that were out when the state was saved, until replayed. */
  List<Lease> leasedOut = List.of();
  private boolean closed;
  /** The crawl's counters as changed by completed and retried leases. */
  final Map<String, Long> counts = new TreeMap<>();
  /** After a crash: of the URLs that were in flight, those already recorded, with their counts. */
  final Function<Set<String>, Map<String, Map<String, Long>>> recordedElsewhere;

  LocalFrontier(Sieve sieve, Ticker ticker, Politeness politeness, PendingStore store,
      Function<Set<String>, Map<String, Map<String, Long>>> recordedElsewhere, Recrawl recrawl) {
    this.sieve = sieve;
    this.prefilter = new SeenPrefilter(sieve);
    this.queueKey = politeness.queueKey();
    this.schedule = new HostSchedule(politeness, store, ticker, changed, recrawl);
    this.recordedElsewhere = recordedElsewhere;
  }

  public static LocalFrontierBuilder builder(Sieve sieve) {
    return new LocalFrontierBuilder(sieve);
  }

  /** Its snapshots, journal and counters, to keep it across a crash. */
  public LocalFrontierState state() {
    return state;
  }

  @Override
  public boolean push(Url url, int depth, String via, Instant lastmod) {
    return offer(url, depth, List.of(), via, lastmod);
  }

  @Override
  public boolean pushRedirect(Url target, Lease from) {
    List<String> chain = new ArrayList<>(from.redirectChain());
    chain.add(from.url().toString());
    return offer(target, from.depth(), chain, from.url().toString(), null);
  }

  private boolean offer(Url url, int depth, List<String> chain, String via, Instant lastmod) {
    String key = queueKey.of(url);
    lock.lock();
    try {
      // Under the lock, so that a saved state never holds a URL in the filter but not in a queue.
      boolean added = sieve.admit(url.hash())
          && enqueue(new Lease(url, depth, key, 0, chain, via, lastmod));
      schedule.store.enforceBudget();
      return added;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Offers a page's links in one batch: those the Sieve has seen are dropped outside the lock
   * ({@link SeenPrefilter}); the remaining few are checked-and-set and queued under one
   * acquisition of the lock.
   */
  @Override
  public int pushAll(List<Url> urls, int depth, String via) {
    SeenPrefilter.Unseen unseen = prefilter.unseen(urls);
    if (unseen.count() == 0) {
      return 0;
    }
    String[] keys = new String[unseen.count()];
    for (int c = 0; c < unseen.count(); c++) {
      keys[c] = queueKey.of(unseen.urls()[c]); // may resolve DNS: not under the lock
    }
    return locked(() -> {
      boolean[] isNew = new boolean[unseen.count()];
      sieve.admitAll(unseen.hashes(), isNew);
      int added = 0;
      for (int c = 0; c < unseen.count(); c++) {
        if (isNew[c]) {
          prefilter.seen(unseen.urls()[c]);
          if (enqueue(new Lease(unseen.urls()[c], depth, keys[c], 0, List.of(), via,
              null))) {
            added++;
          }
        }
      }
      schedule.store.enforceBudget();
      return added;
    });
  }

  /** Queues a URL the Sieve just admitted, unless its host is skipped or over budget (counted). */
  private boolean enqueue(Lease lease) {
    boolean queued = schedule.admit(lease);
    if (queued) {
      log.added(lease);
    }
    return queued;
  }

  @Override
  public Lease take() throws InterruptedException {
    lock.lockInterruptibly();
    try {
      while (true) {
        if (closed || schedule.finished()) {
          changed.signalAll();
          return null;
        }
        Lease lease = leaseReady();
        if (lease != null) {
          return lease;
        }
        long wait = schedule.nanosUntilReady();
        if (wait < 0) {
          changed.await();
        } else {
          changed.awaitNanos(Math.max(1, wait));
        }
      }
    } finally {
      lock.unlock();
    }
  }

  @Override
  public Lease poll() {
    lock.lock();
    try {
      return closed ? null : leaseReady();
    } finally {
      lock.unlock();
    }
  }

  private Lease leaseReady() {
    schedule.promoteDue(log::due);
    Lease lease = schedule.leaseReady();
    if (lease != null) {
      log.taken(lease.hostKey());
    }
    return lease;
  }

  /**
   * Gives back a lease whose URL is done, with the counters its crawl changed: they are journaled
   * with the completion (a crash keeps both or neither) and added to the crawl's counters. In a
   * recrawl the URL is due again one interval from now, with {@code lease}'s {@link Lease#last()}.
   */
  @Override
  public void complete(Lease lease, Map<String, Long> delta) {
    lock.lock();
    try {
      Recrawl.Due due = schedule.done(lease);
      log.completed(lease, due, delta);
      Counts.add(counts, delta);
      // Heads loaded by poll count too; checked here, after the lease is given back.
      schedule.store.enforceBudget();
    } finally {
      lock.unlock();
    }
  }

  @Override
  public void retry(Lease lease, Duration backoff, Map<String, Long> delta) {
    lock.lock();
    try {
      Lease again = lease.nextAttempt();
      schedule.returned(lease, again, backoff);
      if (delta.isEmpty()) {
        log.returned(again);
      } else {
        log.retried(again, delta);
        Counts.add(counts, delta);
      }
      schedule.store.enforceBudget();
    } finally {
      lock.unlock();
    }
  }

  @Override
  public void putBack(Lease lease) {
    lock.lock();
    try {
      schedule.returned(lease, lease, Duration.ZERO);
      log.returned(lease);
      schedule.store.enforceBudget();
    } finally {
      lock.unlock();
    }
  }

  @Override
  public void delayHost(String hostKey, Duration wait) {
    run(() -> schedule.delay(hostKey, wait));
  }

  @Override
  public void setHostDelay(String hostKey, Duration delay) {
    run(() -> schedule.setDelay(hostKey, delay));
  }

  @Override
  public int skipHost(String hostKey) {
    return locked(() -> {
      int dropped = (int) schedule.skip(hostKey);
      log.skipped(hostKey);
      return dropped;
    });
  }

  @Override
  public List<Lease> takeAll(String hostKey, int max) {
    return locked(() -> {
      if (closed) {
        return List.of();
      }
      List<Lease> taken = schedule.leaseAll(hostKey, max);
      for (Lease lease : taken) {
        log.taken(lease.hostKey());
      }
      return taken;
    });
  }

  @Override
  public void close() {
    run(() -> {
      closed = true;
      changed.signalAll();
    });
  }

  @Override
  public boolean isFinished() {
    return locked(schedule::finished);
  }

  /** Nanoseconds until some host is ready: 0 if one is ready now, -1 if none has pending URLs. */
  public long nanosUntilReady() {
    return locked(schedule::nanosUntilReady);
  }

  /** Its counters: the queues' read under the lock, the Sieve's (thread-safe) outside it. */
  @Override
  public FrontierStats stats() {
    long[] queues = locked(() -> new long[] {schedule.store.size(), schedule.inFlight,
        schedule.hosts.size(), schedule.store.memoryBytes(), schedule.store.diskBytes()});
    return new FrontierStats(queues[0], queues[1], (int) queues[2],
        schedule.droppedByHostBudget.get(), schedule.droppedBySkippedHost.get(),
        sieve.refusedFull(), sieve.filterLayers(), sieve.approximateSeen(), sieve.expectedFpp(),
        sieve.capacityWarnings(), sieve.filterBits(), queues[3], queues[4], 0);
  }

  /** Makes the changes so far durable in the journal (none without one). */
  public void flushLog() {
    run(() -> log.flushed());
  }

  void run(Runnable action) {
    lock.lock();
    try {
      action.run();
    } finally {
      lock.unlock();
    }
  }

  /** Runs {@code action} under the lock. */
  <T> T locked(Supplier<T> action) {
    lock.lock();
    try {
      return action.get();
    } finally {
      lock.unlock();
    }
  }

}
