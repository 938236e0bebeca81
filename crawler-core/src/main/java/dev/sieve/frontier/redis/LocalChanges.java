package dev.sieve.frontier.redis;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;

/**
 * A counter of this process's changes to the crawl in Redis: a waiting take() retries as soon as
 * this process changes Redis; other processes' changes are seen on its next poll. Thread-safe.
 */
final class LocalChanges {
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();
  private long changes;

  /** The count of changes so far, to wait for the next one. */
  long version() {
    lock.lock();
    try {
      return changes;
    } finally {
      lock.unlock();
    }
  }

  /** Waits up to {@code waitMs} for a change after {@code version}, or until {@code closed}. */
  void await(long version, long waitMs, BooleanSupplier closed) throws InterruptedException {
    lock.lockInterruptibly();
    try {
      long nanos = TimeUnit.MILLISECONDS.toNanos(waitMs);
      while (!closed.getAsBoolean() && changes == version && nanos > 0) {
        nanos = changed.awaitNanos(nanos);
      }
    } finally {
      lock.unlock();
    }
  }

  /** This process changed Redis (or closed): wakes the waiters. */
  void signal() {
    lock.lock();
    try {
      changes++;
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }
}
