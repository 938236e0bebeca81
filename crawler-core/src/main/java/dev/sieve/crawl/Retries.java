package dev.sieve.crawl;

import dev.sieve.fetch.FetchError;
import dev.sieve.fetch.FetchResult;
import dev.sieve.fetch.FetchSettings;
import dev.sieve.frontier.Frontier;
import dev.sieve.frontier.Lease;
import java.time.Duration;
import java.util.concurrent.Semaphore;
import java.util.function.BooleanSupplier;

/**
 * Whether a fetch that failed is tried again ({@link #retried}): 5xx, 429 and network failures,
 * while retries remain and the crawl is not stopping, after an exponential backoff or the server's
 * {@code Retry-After}. Thread-safe.
 */
final class Retries {
  private final FetchSettings fetch;
  private final Frontier frontier;
  /** Permits for URLs still to be done under --max-pages; a URL retried gives its back. */
  private final Semaphore pageBudget;
  /** Whether the crawl is stopping: no more retries. */
  private final BooleanSupplier stopping;

  Retries(CrawlConfig config, Frontier frontier, Semaphore pageBudget, BooleanSupplier stopping) {
    this.fetch = config.fetch;
    this.frontier = frontier;
    this.pageBudget = pageBudget;
    this.stopping = stopping;
  }

  /**
   * Re-queues 5xx, 429 and network failures while retries remain, after the backoff or the
   * server's {@code Retry-After}, whichever is longer (the frontier adds the politeness delay as a
   * floor); a {@code Retry-After} holds the whole host. One above the maximum instead ends the URL
   * at once as {@code retry-after-too-long}. Returns whether the lease was given back (retried,
   * or ended so).
   */
  boolean retried(FetchResult page, Recorder.Outcome outcome) {
    Lease lease = outcome.lease();
    Duration retryAfter = page.retryAfter().orElse(null);
    if (retryAfter != null && retryAfter.compareTo(fetch.maxRetryAfter()) > 0) {
      outcome.record(page, 0, 0, "retry-after-too-long");
      outcome.finish();
      return true;
    }
    boolean retryable = (page.status() == 0 && page.error() != null
            && page.error() != FetchError.PRIVATE_ADDRESS)
        || page.status() >= 500 || page.status() == 429;
    if (retryAfter != null) {
      frontier.delayHost(lease.hostKey(), retryAfter);
    }
    if (!retryable || lease.attempt() >= fetch.retries() || stopping.getAsBoolean()) {
      return false;
    }
    Duration backoff = fetch.retryBackoff().multipliedBy(1L << Math.min(lease.attempt(), 20));
    if (retryAfter != null && retryAfter.compareTo(backoff) > 0) {
      backoff = retryAfter;
    }
    outcome.count("retries");
    pageBudget.release();
    outcome.retry(backoff);
    return true;
  }
}
