package dev.sieve.frontier.queue;

import dev.sieve.frontier.FrontierTime;
import dev.sieve.settings.Check;
import java.time.Duration;

/**
 * The limits of one GetURLs call, as the service reads them: each count at least 1 (a request's 0
 * "no limit" already turned into {@link Integer#MAX_VALUE}, capped by the service's own maximum),
 * how long a lease lasts, and the delay between two productions of a queue that has none of its
 * own. Time as in {@link FrontierTime}.
 */
public record TakeLimits(int maxPerQueue, int maxQueues, int maxUrls, Duration lease,
    Duration defaultDelay) {
  public TakeLimits {
    Check.notNegative("lease", lease);
    Check.notNegative("defaultDelay", defaultDelay);
  }

  /** The same limits after {@code taken} URLs from {@code queues} queues. */
  public TakeLimits after(int taken, int queues) {
    return new TakeLimits(maxPerQueue, maxQueues - queues, maxUrls - taken, lease, defaultDelay);
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
