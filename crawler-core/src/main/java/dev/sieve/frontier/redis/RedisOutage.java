package dev.sieve.frontier.redis;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisDataException;

/**
 * Rides out Redis being unreachable or restarting: a call that fails because Redis cannot be
 * reached (connection refused or reset, a server loading its data, a cluster without a master for
 * a slot) is tried again with backoff, 100 ms doubling to 5 s, until it succeeds or {@code
 * patience} has passed since the outage began; then its failure is thrown as it came, naming Redis
 * and how long it was unreachable. Any other failure (a script error, out of memory) is thrown at
 * once. One WARN when an outage begins, one INFO when it ends, however many threads wait through
 * it; {@link #outages()} counts them. Zero patience throws every failure at once.
 *
 * <p>A call tried again may have been applied by Redis before its answer was lost: the callers'
 * scripts are safe to repeat (a URL pushed again is seen; a lease given back twice is given back
 * once; a lease taken twice leaves the first to expire and be queued again). Thread-safe.
 */
final class RedisOutage {
  private static final Logger log = LoggerFactory.getLogger(RedisOutage.class);
  static final long FIRST_BACKOFF_NANOS = TimeUnit.MILLISECONDS.toNanos(100);
  static final long MAX_BACKOFF_NANOS = TimeUnit.SECONDS.toNanos(5);

  /** Waits; a test's waits pass at once. */
  interface Sleeper {
    void sleep(long nanos) throws InterruptedException;
  }

  private final String where;
  private final long patienceNanos;
  private final LongSupplier ticker;
  private final Sleeper sleeper;
  /** When the outage under way began ({@link #ticker} time), or {@link Long#MIN_VALUE} if none. */
  private final AtomicLong began = new AtomicLong(Long.MIN_VALUE);
  private final AtomicLong outages = new AtomicLong();

  RedisOutage(String where, Duration patience, LongSupplier ticker, Sleeper sleeper) {
    this.where = where;
    this.patienceNanos = patience.toNanos();
    this.ticker = ticker;
    this.sleeper = sleeper;
  }

  /** Patience {@code patience}, on the system's clock. */
  static RedisOutage of(String where, Duration patience) {
    return new RedisOutage(where, patience, System::nanoTime, TimeUnit.NANOSECONDS::sleep);
  }

  /**
   * Runs {@code call}, again while Redis is unreachable (see the class), unless {@code abandon}
   * says to stop waiting (the frontier was closed).
   *
   * @throws UncheckedIOException what the last attempt threw, once patience ran out, at once when
   *     it is not an outage; the thread's interrupt flag is kept
   */
  <T> T call(Supplier<T> call, BooleanSupplier abandon) {
    long backoff = FIRST_BACKOFF_NANOS;
    while (true) {
      T result;
      try {
        result = call.get();
      } catch (UncheckedIOException e) {
        if (patienceNanos <= 0 || !isOutage(e)) {
          throw e;
        }
        long start = begin(e);
        long waited = ticker.getAsLong() - start;
        if (waited >= patienceNanos || abandon.getAsBoolean()) {
          throw new UncheckedIOException(new IOException(e.getCause().getMessage()
              + " (unreachable for " + seconds(waited) + ")", e.getCause().getCause()));
        }
        try {
          sleeper.sleep(Math.min(backoff, patienceNanos - waited));
        } catch (InterruptedException interrupted) {
          Thread.currentThread().interrupt();
          throw e;
        }
        backoff = Math.min(backoff * 2, MAX_BACKOFF_NANOS);
        continue;
      }
      end();
      return result;
    }
  }

  /** Outages ridden out or under way so far. */
  long outages() {
    return outages.get();
  }

  private long begin(UncheckedIOException e) {
    long now = ticker.getAsLong();
    if (began.compareAndSet(Long.MIN_VALUE, now)) {
      outages.incrementAndGet();
      log.warn("Redis frontier at {} is unreachable ({}): calls to it wait, retried for up to {}",
          where, cause(e), seconds(patienceNanos));
      return now;
    }
    return began.get();
  }

  private void end() {
    long start = began.get();
    if (start != Long.MIN_VALUE && began.compareAndSet(start, Long.MIN_VALUE)) {
      log.info("Redis frontier at {} is back after {}", where, seconds(ticker.getAsLong() - start));
    }
  }

  /** Whether {@code e} says Redis could not be reached, rather than that it refused the call. */
  static boolean isOutage(Throwable e) {
    for (Throwable cause = e; cause != null; cause = cause.getCause()) {
      if (cause instanceof JedisConnectionException) {
        return true;
      }
      if (cause instanceof JedisDataException && cause.getMessage() != null
          && cause.getMessage().matches("^(LOADING|TRYAGAIN|CLUSTERDOWN|MASTERDOWN)\\b.*")) {
        return true;
      }
      if (cause.getCause() == cause) {
        break;
      }
    }
    return false;
  }

  private static String cause(UncheckedIOException e) {
    Throwable root = e;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    return root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
  }

  private static String seconds(long nanos) {
    return String.format(java.util.Locale.ROOT, "%.1f s", nanos / 1e9);
  }
}
