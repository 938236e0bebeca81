package dev.sieve.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/** How every bench times its phases: wall-clock seconds of a phase, run on one or many threads. */
final class Timing {
  private Timing() {}

  /** A timed phase: its wall-clock seconds and the sum of what its work returned. */
  record Run(double seconds, long total) {
    /** {@code count} per second of the phase. */
    double perSecond(long count) {
      return count / seconds;
    }
  }

  /** The work of one thread of a phase; returns a count that the phase sums. */
  interface Work {
    long run(int thread) throws Exception;
  }

  /** A started stopwatch. */
  static long start() {
    return System.nanoTime();
  }

  /** Seconds since {@code started}, a value of {@link #start()}. */
  static double secondsSince(long started) {
    return (System.nanoTime() - started) / 1e9;
  }

  /** Times {@code work} on one thread. */
  static Run once(Work work) throws Exception {
    long started = start();
    long total = work.run(0);
    return new Run(secondsSince(started), total);
  }

  /**
   * Times {@code work} run by {@code threads} threads at once, from the first's start to the last's
   * end; a failure of any is thrown.
   */
  static Run parallel(int threads, Work work) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    long started = start();
    try {
      List<Future<Long>> done = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int thread = t;
        done.add(pool.submit(() -> work.run(thread)));
      }
      long total = 0;
      for (Future<Long> future : done) {
        total += future.get();
      }
      return new Run(secondsSince(started), total);
    } finally {
      pool.shutdownNow();
    }
  }
}
