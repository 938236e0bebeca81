package dev.sieve.frontier;

import dev.sieve.settings.Check;
import java.time.Duration;
import java.util.Objects;

/**
 * How a frontier treats each politeness key (see {@link QueueKey}): fetch starts at least {@code
 * delay} apart, at most {@code maxInFlightPerHost} fetches at once, at most {@code maxUrlsPerHost}
 * URLs queued over the whole crawl. Validated when made; messages name the setting.
 *
 * @param delay the least time between fetch starts of one key (default 1 s)
 * @param maxInFlightPerHost fetches of one key at once (default 1)
 * @param maxUrlsPerHost URLs queued per key over the crawl (default unlimited)
 * @param queueKey what a key is (default the host)
 */
public record Politeness(Duration delay, int maxInFlightPerHost, long maxUrlsPerHost, QueueKey queueKey) {
  /** Milliseconds between fetch starts of one key unless set. */
  public static final long DEFAULT_DELAY_MS = 1000;
  /** Fetches of one key at once unless set. */
  public static final int DEFAULT_MAX_IN_FLIGHT_PER_HOST = 1;
  /** One fetch of each host at once, a second apart, every URL queued. */
  public static final Politeness DEFAULT = new Politeness(Duration.ofMillis(DEFAULT_DELAY_MS),
      DEFAULT_MAX_IN_FLIGHT_PER_HOST, Long.MAX_VALUE, QueueKey.HOST);

  public Politeness {
    Objects.requireNonNull(delay, "politenessDelay");
    Objects.requireNonNull(queueKey, "queueKey");
    Check.notNegative("politenessDelay", delay);
    Check.positive("maxInFlightPerHost", maxInFlightPerHost);
    Check.positive("maxUrlsPerHost", maxUrlsPerHost);
  }

  /** These settings with fetch starts at least {@code delay} apart. */
  public Politeness withDelay(Duration delay) {
    return new Politeness(delay, maxInFlightPerHost, maxUrlsPerHost, queueKey);
  }

  /** These settings with at most {@code max} fetches of one key at once. */
  public Politeness withMaxInFlightPerHost(int max) {
    return new Politeness(delay, max, maxUrlsPerHost, queueKey);
  }

  /** These settings with at most {@code max} URLs queued per key over the crawl. */
  public Politeness withMaxUrlsPerHost(long max) {
    return new Politeness(delay, maxInFlightPerHost, max, queueKey);
  }

  /** These settings with keys of kind {@code queueKey}. */
  public Politeness withQueueKey(QueueKey queueKey) {
    return new Politeness(delay, maxInFlightPerHost, maxUrlsPerHost, queueKey);
  }

  /** {@link #delay()} in nanoseconds. */
  public long delayNanos() {
    return delay.toNanos();
  }
}
