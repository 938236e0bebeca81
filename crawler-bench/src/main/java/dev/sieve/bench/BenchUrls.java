package dev.sieve.bench;

import java.util.BitSet;

/**
 * The URLs {@code bench serve} puts, item by item: {@code queues} hosts, each URL new or (a
 * fraction {@code duplicates} of the items) a repeat of an earlier one, the same in every run.
 * Thread-safe (immutable).
 */
final class BenchUrls {
  private final long queues;
  private final double duplicates;

  BenchUrls(long queues, double duplicates) {
    this.queues = queues;
    this.duplicates = duplicates;
  }

  /** Marks distinct URL {@code u} of {@link #url} handed out; false if it already was. */
  boolean first(BitSet handed, String url) {
    int host = url.indexOf('.');
    int page = url.indexOf("/page/") + 6;
    long u = Long.parseLong(url, page, url.indexOf('.', page), 10) * queues
        + Long.parseLong(url, 8, host, 10);
    if (u > Integer.MAX_VALUE || handed.get((int) u)) {
      return u > Integer.MAX_VALUE;
    }
    handed.set((int) u);
    return true;
  }

  /** The URL put as item {@code i}: a new one, or a repeat of an earlier one. */
  String url(long i) {
    long dupsBefore = (long) Math.floor(i * duplicates);
    long uniquesBefore = i - dupsBefore;
    boolean repeat = (long) Math.floor((i + 1) * duplicates) > dupsBefore;
    long u = repeat ? Math.floorMod(mix(i), uniquesBefore) : uniquesBefore;
    return "http://h" + (u % queues) + ".bench.example/page/" + (u / queues) + ".html";
  }

  private static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
    z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
    return z ^ (z >>> 31);
  }
}
