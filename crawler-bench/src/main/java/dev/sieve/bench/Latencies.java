package dev.sieve.bench;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Latencies recorded from many threads into buckets 2% wide (from 1 µs to about a minute), so a
 * percentile costs a fixed few kilobytes however many are recorded.
 */
final class Latencies {
  private static final double GROWTH = Math.log(1.02);
  private static final int BUCKETS = 900;
  private final AtomicLongArray counts = new AtomicLongArray(BUCKETS);

  void record(long nanos) {
    double micros = Math.max(1.0, nanos / 1e3);
    counts.incrementAndGet(Math.min(BUCKETS - 1, (int) (Math.log(micros) / GROWTH)));
  }

  /** The latency in milliseconds under which a fraction {@code q} of those recorded fall. */
  double percentileMillis(double q) {
    long total = 0;
    for (int i = 0; i < BUCKETS; i++) {
      total += counts.get(i);
    }
    long rank = (long) Math.ceil(q * total);
    long seen = 0;
    for (int i = 0; i < BUCKETS; i++) {
      seen += counts.get(i);
      if (seen >= rank && seen > 0) {
        return Math.exp((i + 1) * GROWTH) / 1e3;
      }
    }
    return 0;
  }
}
