package dev.sieve.frontier;

import dev.sieve.bloom.Hash128;
import dev.sieve.bloom.MembershipFilter;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * A {@link Sieve} in front of a FIFO queue of pending URLs, as tests and benchmarks use it: a URL
 * is enqueued only the first time it is pushed, exactly once under any concurrency. Thread-safe.
 */
final class SieveQueue {
  private final Sieve sieve;
  private final Queue<PendingUrl> pending = new ConcurrentLinkedQueue<>();
  private final AtomicLong pendingCount = new AtomicLong();

  private SieveQueue(Sieve sieve) {
    this.sieve = sieve;
  }

  static SieveQueue create(long expectedUrls, double falsePositiveRate) {
    return new SieveQueue(Sieve.create(expectedUrls, falsePositiveRate));
  }

  static SieveQueue create(long expectedUrls, double falsePositiveRate, Consumer<CapacityWarning> listener) {
    return new SieveQueue(Sieve.create(expectedUrls, falsePositiveRate, listener));
  }

  static SieveQueue over(MembershipFilter filter, double targetFpp, Consumer<CapacityWarning> listener) {
    return new SieveQueue(Sieve.over(filter, targetFpp, listener));
  }

  /** Pushes {@code url} at depth 0; see {@link #push(String, int)}. */
  boolean push(String url) {
    return push(url, 0);
  }

  /**
   * Enqueues {@code url} if the filter has never seen it.
   *
   * @return true if this call enqueued the URL; false if it was (or might have been) seen before
   */
  boolean push(String url, int depth) {
    // Validated as PendingUrl does, but before the filter is touched; the entry itself is built
    // only for a new URL, so a seen one (most links on a page) allocates nothing.
    Objects.requireNonNull(url, "url");
    if (depth < 0) {
      throw new IllegalArgumentException("depth (" + depth + ") must be >= 0");
    }
    if (!sieve.admit(url)) {
      return false;
    }
    pendingCount.incrementAndGet();
    pending.add(new PendingUrl(url, depth));
    return true;
  }

  /** Removes and returns the oldest pending URL, or empty when none is pending. */
  Optional<PendingUrl> pop() {
    PendingUrl next = pending.poll();
    if (next != null) {
      pendingCount.decrementAndGet();
    }
    return Optional.ofNullable(next);
  }

  /** The number of URLs pending. */
  long pending() {
    return pendingCount.get();
  }

  boolean admit(CharSequence url) {
    return sieve.admit(url);
  }

  boolean admit(Hash128 hash) {
    return sieve.admit(hash);
  }

  int admitAll(List<? extends CharSequence> urls, boolean[] isNew) {
    return sieve.admitAll(urls, isNew);
  }

  boolean mightHaveSeen(CharSequence url) {
    return sieve.mightHaveSeen(url);
  }

  boolean mightHaveSeen(Hash128 hash) {
    return sieve.mightHaveSeen(hash);
  }

  long approximateSeen() {
    return sieve.approximateSeen();
  }

  long filterBits() {
    return sieve.filterBits();
  }

  long capacity() {
    return sieve.capacity();
  }

  int capacityWarnings() {
    return sieve.capacityWarnings();
  }

  int filterLayers() {
    return sieve.filterLayers();
  }

  double expectedFpp() {
    return sieve.expectedFpp();
  }
}
