package dev.sieve.testing;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;

/** Runs the same task on several threads released at once, for exactly-once tests. */
public final class Concurrently {
  /** One thread's part: given its index, returns a count (e.g. of URLs it got through). */
  @FunctionalInterface
  public interface Part {
    int run(int thread) throws Exception;
  }

  private Concurrently() {}

  /**
   * Runs {@code part} on {@code threads} threads of {@code pool}, all started by one latch so
   * they overlap, and returns the sum of their counts; rethrows the first failure.
   */
  public static int sum(ExecutorService pool, int threads, Part part) throws Exception {
    CountDownLatch start = new CountDownLatch(1);
    List<Future<Integer>> done = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      int thread = t;
      done.add(pool.submit(() -> {
        start.await();
        return part.run(thread);
      }));
    }
    start.countDown();
    int total = 0;
    for (Future<Integer> f : done) {
      total += f.get();
    }
    return total;
  }
}
