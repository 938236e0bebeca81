package dev.sieve.frontier.queue;

import dev.sieve.frontier.FrontierTime;
import dev.sieve.settings.Check;
import java.time.Duration;

/**
 * The limits of one GetURLs call, as the service reads them: each count at least 1 (a request's 0
 * "no limit" already turned into {@link Integer#MAX_VALUE}, capped by the service's own maximum),
 * how long a lease lasts, and the delay between two productions of a queue that has none of its
 * own; and whether that delay also counts from the queue's last lease given back ({@code
 * fromRelease}: a crawl's politeness, so that with one fetch of a host at a time its fetch starts
 * are the delay apart however long a lease took to start its fetch), not only from its last
 * production (the URL Frontier API's). Time as in {@link FrontierTime}.
 */
public record TakeLimits(int maxPerQueue, int maxQueues, int maxUrls, Duration lease,
    Duration defaultDelay, boolean fromRelease) {
  public TakeLimits {
    Check.notNegative("lease", lease);
    Check.notNegative("defaultDelay", defaultDelay);
  }

  /** A GetURLs call's limits: the delay counts from a queue's last production. */
  public TakeLimits(int maxPerQueue, int maxQueues, int maxUrls, Duration lease,
      Duration defaultDelay) {
    this(maxPerQueue, maxQueues, maxUrls, lease, defaultDelay, false);
  }

  /** The same limits after {@code taken} URLs from {@code queues} queues. */
  public TakeLimits after(int taken, int queues) {
    return new TakeLimits(maxPerQueue, maxQueues - queues, maxUrls - taken, lease, defaultDelay,
        fromRelease);
  }

  /** {@link #lease} in the engine's milliseconds. */
  public long leaseMillis() {
    return FrontierTime.millis(lease);
  }

  /** {@link #defaultDelay} in the engine's milliseconds. */
  public long defaultDelayMillis() {
    return FrontierTime.millis(defaultDelay);
  }
}
