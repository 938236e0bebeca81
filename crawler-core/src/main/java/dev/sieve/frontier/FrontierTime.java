package dev.sieve.frontier;

import java.time.Duration;

/**
 * Time as the frontier engine counts it, and as the URL Frontier API does. The engine ({@link
 * dev.sieve.frontier.queue}, every store and face over it) keeps instants in epoch milliseconds of
 * the clock it is given and takes spans as {@link Duration}s, which it holds in whole
 * milliseconds. The URL Frontier API counts in whole seconds (dates in epoch seconds, delays and
 * leases in seconds); those are converted here, at the API's edge only (the service's calls and
 * the client's), and nowhere else.
 *
 * <p>The rounding, each way: seconds into the engine are exact ({@code × 1000}). A span out to the
 * API (a delay, a lease, a block) is rounded up to the whole second, so the API is never asked for
 * less politeness than the crawl's; a date out to the API is rounded up when it is a date to come
 * (a refetch date: a URL is never said due before it is) and down when it is one past (a creation
 * date: the second it happened in). Spans below a millisecond are rounded up too. (One date the
 * client sends counts from the current second: a retry's, so that a backoff of 0 is due at once.)
 */
public final class FrontierTime {
  private FrontierTime() {}

  /**
   * {@code span} in the engine's whole milliseconds, rounded up; {@link Long#MAX_VALUE} when it
   * is beyond what milliseconds hold, 0 or below for a span that is not positive.
   */
  public static long millis(Duration span) {
    if (span.getSeconds() >= Long.MAX_VALUE / 1000 - 1) {
      return Long.MAX_VALUE;
    }
    long millis = span.toMillis();
    return span.getNano() % 1_000_000 == 0 ? millis : millis + 1;
  }

  /**
   * The instant {@code millis} after {@code epochMillis}; {@link Long#MAX_VALUE} (never) where that
   * is beyond what milliseconds hold.
   */
  public static long plus(long epochMillis, long millis) {
    long sum = epochMillis + millis;
    return ((epochMillis ^ sum) & (millis ^ sum)) < 0 ? Long.MAX_VALUE : sum;
  }

  /** {@code span} in the API's whole seconds, rounded up; 0 for a span that is not positive. */
  public static long seconds(Duration span) {
    long millis = Math.max(0, millis(span));
    return millis == Long.MAX_VALUE ? Long.MAX_VALUE / 1000 : (millis + 999) / 1000;
  }

  /** The API's epoch second (or span of seconds) in the engine's milliseconds: exact, saturated. */
  public static long millisOfSeconds(long seconds) {
    return seconds >= Long.MAX_VALUE / 1000 ? Long.MAX_VALUE
        : seconds <= Long.MIN_VALUE / 1000 ? Long.MIN_VALUE : seconds * 1000;
  }

  /** A date to come, in epoch milliseconds, as the API's epoch second: rounded up. */
  public static long secondUp(long epochMillis) {
    return Math.floorDiv(epochMillis, 1000) + (Math.floorMod(epochMillis, 1000) == 0 ? 0 : 1);
  }

  /** The API's epoch second {@code span} after {@code nowMillis}: rounded up. */
  public static long secondAfter(long nowMillis, Duration span) {
    return secondUp(plus(nowMillis, millis(span)));
  }

  /** A date past, in epoch milliseconds, as the API's epoch second: rounded down. */
  public static long secondDown(long epochMillis) {
    return Math.floorDiv(epochMillis, 1000);
  }
}
