package dev.sieve.frontier.local;

import com.google.common.base.Ticker;
import dev.sieve.frontier.Lease;
import dev.sieve.frontier.Politeness;
import dev.sieve.frontier.queue.IndexedHeap;
import dev.sieve.frontier.spill.PendingStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.function.Consumer;

/**
 * The politeness schedule of a {@link LocalFrontier}: the queue of each host, which hosts may be
 * leased from and when, and the leases out. A host is ready when fewer than {@code
 * maxInFlightPerHost} of its fetches are in flight and its delay has passed; the ready heap gives
 * the one ready soonest. Not thread-safe: guarded by the frontier's lock, whose {@code changed}
 * condition is signalled whenever a host may have become ready.
 */
final class HostSchedule {
  final Politeness politeness;
  final PendingStore store;
  final Map<String, HostQueue> hosts = new HashMap<>();
  /** Leases taken and not given back, oldest first, with how many of each. */
  final Map<Lease, Integer> leased = new LinkedHashMap<>();
  final AtomicLong droppedByHostBudget = new AtomicLong();
  final AtomicLong droppedBySkippedHost = new AtomicLong();
  long inFlight;
  /** The URLs done, waiting to be due again when the frontier recrawls. */
  final Recrawl recrawl;

  private final IndexedHeap<HostQueue> ready = readyHeap();
  private final Ticker ticker;
  private final Condition changed;

  HostSchedule(Politeness politeness, PendingStore store, Ticker ticker, Condition changed,
      Recrawl recrawl) {
    this.politeness = politeness;
    this.recrawl = recrawl;
    this.store = store;
    this.ticker = ticker;
    this.changed = changed;
  }

  /** The ticker's time now. */
  long now() {
    return ticker.read();
  }

  /** The queue of {@code key}, created empty at the default delay if the host is new. */
  HostQueue host(String key) {
    return hosts.computeIfAbsent(key, k -> new HostQueue(k, politeness.delayNanos(), store.queue(k)));
  }

  /**
   * Queues a URL the Sieve just admitted last on its host, unless the host is skipped or over its
   * budget (counted).
   *
   * @param lease the URL's first lease, under its host's key
   * @return whether it was queued; false if it was dropped
   */
  boolean admit(Lease lease) {
    HostQueue host = host(lease.hostKey());
    if (host.skipped) {
      droppedBySkippedHost.incrementAndGet();
      return false;
    }
    if (host.admitted >= politeness.maxUrlsPerHost()) {
      droppedByHostBudget.incrementAndGet();
      return false;
    }
    host.admitted++;
    host.pending.addLast(lease);
    reschedule(host);
    return true;
  }

  /** True when nothing is pending, in flight or waiting to be recrawled. */
  boolean finished() {
    return store.size() == 0 && inFlight == 0 && recrawl.isEmpty();
  }

  /**
   * Nanoseconds until some host is ready or a URL is due again: 0 if now, -1 if neither will be
   * without a change.
   */
  long nanosUntilReady() {
    HostQueue next = ready.peek();
    long now = ticker.read();
    long host = next == null ? -1 : Math.max(0, next.readyAt - now);
    long due = recrawl.nanosUntilDue(now);
    return host < 0 ? due : due < 0 ? host : Math.min(host, due);
  }

  /**
   * Moves the URLs due again into their hosts' queues, last (dropped and counted if the host was
   * skipped since), each told to {@code moved} first.
   */
  void promoteDue(Consumer<Lease> moved) {
    long now = ticker.read();
    for (Lease due = recrawl.pollDue(now); due != null; due = recrawl.pollDue(now)) {
      moved.accept(due);
      queueAgain(due);
    }
  }

  /** Queues a URL due again last in its host, or drops it (counted) if the host is skipped. */
  void queueAgain(Lease due) {
    HostQueue host = host(due.hostKey());
    if (host.skipped) {
      droppedBySkippedHost.incrementAndGet();
      return;
    }
    host.pending.addLast(due);
    reschedule(host);
  }

  /**
   * A lease is done: {@link #completed}, and in a recrawl its URL due again one interval from
   * now unless its host was skipped. Returns when, or null when it is not due again.
   */
  Recrawl.Due done(Lease lease) {
    completed(lease);
    boolean skipped = hosts.get(lease.hostKey()).skipped;
    return recrawl.enabled() && !skipped ? recrawl.schedule(lease, ticker.read()) : null;
  }

  /** Leases the first URL of the host ready now, or returns null if none is. */
  Lease leaseReady() {
    HostQueue host = ready.peek();
    long now = ticker.read();
    if (host == null || host.readyAt - now > 0) {
      return null;
    }
    // Taken before the host leaves the heap: if a spilled chunk is corrupt, the host stays first
    // in line and the error repeats rather than its URLs being stranded.
    Lease lease = host.pending.pollFirst();
    ready.poll();
    lent(host, lease);
    host.readyAt = now + host.delayNanos;
    reschedule(host);
    return lease;
  }

  /** Leases up to {@code max} of the host's pending URLs now, whatever its delay and limit. */
  List<Lease> leaseAll(String hostKey, int max) {
    HostQueue host = hosts.get(hostKey);
    if (host == null) {
      return List.of();
    }
    ready.remove(host);
    List<Lease> taken = new ArrayList<>();
    while (taken.size() < max && !host.pending.isEmpty()) {
      Lease lease = host.pending.pollFirst();
      lent(host, lease);
      taken.add(lease);
    }
    reschedule(host);
    return taken;
  }

  private void lent(HostQueue host, Lease lease) {
    inFlight++;
    host.inFlight++;
    leased.merge(lease, 1, Integer::sum);
  }

  /** A lease is done: with one fetch per host, the host's delay runs from now. */
  void completed(Lease lease) {
    HostQueue host = release(lease);
    if (politeness.maxInFlightPerHost() == 1) {
      // Not in the heap: its only fetch was in flight.
      host.readyAt = Math.max(host.readyAt, ticker.read() + host.delayNanos);
    }
    reschedule(host);
  }

  /**
   * Puts a lease back first in its host's queue, the host waiting at least its delay, or {@code
   * wait} if longer.
   */
  void returned(Lease lease, Lease again, Duration wait) {
    HostQueue host = release(lease);
    ready.remove(host);
    host.pending.addFirst(again);
    host.readyAt = Math.max(host.readyAt, ticker.read() + Math.max(host.delayNanos, wait.toNanos()));
    reschedule(host);
  }

  /** Holds every fetch of the host until {@code wait} from now. */
  void delay(String hostKey, Duration wait) {
    HostQueue host = unscheduled(hostKey);
    host.readyAt = Math.max(host.readyAt, ticker.read() + wait.toNanos());
    reschedule(host);
  }

  /** Spaces the host's fetches at least {@code delay} apart (never below the default). */
  void setDelay(String hostKey, Duration delay) {
    HostQueue host = unscheduled(hostKey);
    host.delayNanos = Math.max(politeness.delayNanos(), delay.toNanos());
    reschedule(host);
  }

  /** Skips the host: its pending URLs are dropped, counted; returns how many. */
  long skip(String hostKey) {
    HostQueue host = unscheduled(hostKey);
    host.skipped = true;
    long dropped = host.pending.clear();
    droppedBySkippedHost.addAndGet(dropped);
    reschedule(host);
    return dropped;
  }

  private HostQueue unscheduled(String hostKey) {
    HostQueue host = host(hostKey);
    ready.remove(host);
    return host;
  }

  private HostQueue release(Lease lease) {
    HostQueue host = hosts.get(lease.hostKey());
    Integer taken = leased.get(lease);
    if (host == null || host.inFlight == 0 || taken == null) {
      throw new IllegalStateException("lease not taken from this frontier: " + lease);
    }
    if (taken == 1) {
      leased.remove(lease);
    } else {
      leased.put(lease, taken - 1);
    }
    host.inFlight--;
    inFlight--;
    return host;
  }

  /** Puts every host that can be leased from in line (after a restore). */
  void rescheduleAll() {
    for (HostQueue host : hosts.values()) {
      reschedule(host);
    }
  }

  /** Puts the host in the ready heap if it can be leased from; wakes waiting workers. */
  private void reschedule(HostQueue host) {
    if (!host.scheduled() && host.eligible(politeness.maxInFlightPerHost())) {
      ready.add(host);
    }
    changed.signalAll();
  }

  /**
   * The hosts that can be leased from, soonest {@link HostQueue#readyAt} first: taking a host out
   * of line when its ready time changes costs O(log n), so with 10⁵ hosts a Crawl-delay or
   * Retry-After does not scan them all.
   */
  static IndexedHeap<HostQueue> readyHeap() {
    return new IndexedHeap<>((a, b) -> Long.compare(a.readyAt, b.readyAt));
  }
}
