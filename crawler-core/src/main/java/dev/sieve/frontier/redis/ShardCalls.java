package dev.sieve.frontier.redis;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs the calls of one batch that each touch one shard side by side, so that on Redis Cluster a
 * PutURLs batch's scripts for shards on different masters run at once, not one after another: the
 * calling thread runs the last call, the others go to daemon threads. {@link #runAll} returns once
 * every call ended, rethrowing the first failure. Thread-safe.
 */
final class ShardCalls implements AutoCloseable {
  private final ExecutorService pool;

  ShardCalls() {
    AtomicInteger made = new AtomicInteger();
    pool = Executors.newCachedThreadPool(task -> {
      Thread thread = new Thread(task, "redis-shard-" + made.incrementAndGet());
      thread.setDaemon(true);
      return thread;
    });
  }

  /** Runs {@code calls}, all but the last on other threads; rethrows the first that failed. */
  void runAll(List<Runnable> calls) {
    if (calls.size() == 1) {
      calls.get(0).run();
      return;
    }
    List<Future<?>> started = new ArrayList<>(calls.size() - 1);
    for (Runnable call : calls.subList(0, calls.size() - 1)) {
      started.add(pool.submit(call));
    }
    RuntimeException failure = null;
    try {
      calls.get(calls.size() - 1).run();
    } catch (RuntimeException e) {
      failure = e;
    }
    boolean interrupted = false;
    for (Future<?> call : started) {
      while (true) {
        try {
          call.get();
          break;
        } catch (InterruptedException e) {
          interrupted = true;
        } catch (ExecutionException e) {
          if (e.getCause() instanceof Error error) {
            throw error;
          }
          failure = failure != null ? failure : (RuntimeException) e.getCause();
          break;
        }
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
    if (failure != null) {
      throw failure;
    }
  }

  @Override
  public void close() {
    pool.shutdownNow();
  }
}
