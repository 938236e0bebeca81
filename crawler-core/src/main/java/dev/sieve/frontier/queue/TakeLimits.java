package dev.sieve.frontier.queue;

/**
 * The limits of one GetURLs call, as the service reads them: each at least 1 (a request's 0 "no
 * limit" already turned into {@link Integer#MAX_VALUE}, capped by the service's own maximum).
 */
public record TakeLimits(int maxPerQueue, int maxQueues, int maxUrls, int leaseSeconds,
    int defaultDelaySeconds) {
  /** The same limits after {@code taken} URLs from {@code queues} queues. */
  public TakeLimits after(int taken, int queues) {
    return new TakeLimits(maxPerQueue, maxQueues - queues, maxUrls - taken, leaseSeconds,
        defaultDelaySeconds);
  }
}
