package dev.sieve.app.report;

import java.util.Arrays;

/**
 * Cumulative counters sampled over time, kept in at most {@code capacity} points whatever the
 * crawl's length: when full, every other point is dropped and from then on only every other
 * sample is kept (the stride doubles). Counters being cumulative, a rate between two kept points
 * is exact for that interval. The latest sample is always kept besides, as the last point.
 * Thread-safe.
 */
final class Samples {
  private final int capacity;
  private final int width;
  private double[] seconds;
  private long[][] values;
  private int size;
  private long offered;
  private long stride = 1;
  private double latestSeconds = Double.NaN;
  private long[] latest;

  /** Keeps at most {@code capacity} (even, at least 4) points of {@code width} counters each. */
  Samples(int capacity, int width) {
    if (capacity < 4 || capacity % 2 != 0) {
      throw new IllegalArgumentException("capacity (" + capacity + ") must be even and >= 4");
    }
    this.capacity = capacity;
    this.width = width;
    this.seconds = new double[capacity];
    this.values = new long[capacity][];
  }

  /** Offers the counters at {@code elapsed} seconds; kept if on the stride, and as the latest. */
  synchronized void add(double elapsed, long... counters) {
    if (counters.length != width) {
      throw new IllegalArgumentException("expected " + width + " counters, got " + counters.length);
    }
    long[] copy = counters.clone();
    latestSeconds = elapsed;
    latest = copy;
    if (offered++ % stride != 0) {
      return;
    }
    if (size == capacity) {
      for (int i = 0; i < capacity / 2; i++) {
        seconds[i] = seconds[2 * i];
        values[i] = values[2 * i];
      }
      Arrays.fill(values, capacity / 2, capacity, null);
      size = capacity / 2;
      stride *= 2;
      if ((offered - 1) % stride != 0) {
        return;
      }
    }
    seconds[size] = elapsed;
    values[size] = copy;
    size++;
  }

  /**
   * The kept points, then the latest sample if it is not the last of them; when it came less than
   * half a spacing after the last, it takes that point's place instead (a rate over a sliver of
   * time says little).
   */
  synchronized Points points() {
    boolean extra = latest != null && (size == 0 || values[size - 1] != latest);
    boolean replace = extra && size >= 2
        && latestSeconds - seconds[size - 1] < (seconds[size - 1] - seconds[size - 2]) / 2;
    int n = size + (extra && !replace ? 1 : 0);
    double[] xs = Arrays.copyOf(seconds, n);
    long[][] vs = Arrays.copyOf(values, n);
    if (extra) {
      xs[n - 1] = latestSeconds;
      vs[n - 1] = latest;
    }
    return new Points(xs, vs);
  }

  /** The seconds of the latest sample, NaN before any. */
  synchronized double latestSeconds() {
    return latestSeconds;
  }

  /** Points in time order: {@code values[i][k]} is counter k at {@code seconds[i]}. */
  record Points(double[] seconds, long[][] values) {
    int size() {
      return seconds.length;
    }

    /** Counter {@code k} at each point. */
    double[] counter(int k) {
      double[] out = new double[seconds.length];
      for (int i = 0; i < out.length; i++) {
        out[i] = values[i][k];
      }
      return out;
    }

    /** Counter {@code k}'s rate per second between each point and the one before it. */
    double[] rate(int k) {
      double[] out = new double[Math.max(0, seconds.length - 1)];
      for (int i = 1; i < seconds.length; i++) {
        double dt = seconds[i] - seconds[i - 1];
        out[i - 1] = dt > 0 ? Math.max(0, values[i][k] - values[i - 1][k]) / dt : 0;
      }
      return out;
    }

    /** The seconds at which each {@link #rate} ends. */
    double[] rateSeconds() {
      return seconds.length < 2 ? new double[0] : Arrays.copyOfRange(seconds, 1, seconds.length);
    }
  }
}
