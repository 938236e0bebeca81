package dev.sieve.frontier.local;

import dev.sieve.frontier.Frontier;
import dev.sieve.frontier.queue.IndexedHeap;
import dev.sieve.frontier.spill.PendingQueue;

/**
 * The pending URLs of one politeness key (a host by default) and its schedule: when it may be
 * fetched next and how many fetches are in flight. Guarded by the {@link Frontier}'s lock.
 */
final class HostQueue implements IndexedHeap.Slotted {
  final String key;
  final PendingQueue pending;
  /** Ticker time before which no new fetch of this host may start. */
  long readyAt;
  int inFlight;
  /** URLs admitted to this host's queue, for the per-host page budget. */
  long admitted;
  /** The delay between fetches of this host, in nanos; robots.txt Crawl-delay may raise it. */
  long delayNanos;
  /** The host's slot in the frontier's ready {@link IndexedHeap}, or -1 when it is not in line. */
  int heapIndex = -1;
  /** Set when the host is skipped (e.g. Crawl-delay above the maximum): nothing more is leased. */
  boolean skipped;

  HostQueue(String key, long delayNanos, PendingQueue pending) {
    this.key = key;
    this.pending = pending;
    this.delayNanos = delayNanos;
  }

  /** Whether the host is in the frontier's ready heap. */
  boolean scheduled() {
    return heapIndex >= 0;
  }

  boolean eligible(int perHost) {
    return !skipped && !pending.isEmpty() && inFlight < perHost;
  }

  @Override
  public int heapSlot() {
    return heapIndex;
  }

  @Override
  public void heapSlot(int slot) {
    heapIndex = slot;
  }
}
