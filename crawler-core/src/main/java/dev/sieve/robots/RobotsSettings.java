package dev.sieve.robots;

import dev.sieve.settings.Check;
import java.time.Duration;
import java.util.Objects;

/**
 * Whether and how a crawl obeys robots.txt. Immutable; built with {@link #builder()} and
 * validated once in {@link Builder#build()}. Each default is a constant here, read by the builder,
 * by {@link RobotsPolicy.Builder} and by the command line's option defaults.
 */
public final class RobotsSettings {
  /** Default {@link Builder#ttl}, in hours. */
  public static final long DEFAULT_TTL_HOURS = 24;
  /** Default {@link Builder#retryInterval}, in seconds. */
  public static final long DEFAULT_RETRY_INTERVAL_SECONDS = 60;
  /** Default {@link Builder#maxCrawlDelay}, in seconds. */
  public static final long DEFAULT_MAX_CRAWL_DELAY_SECONDS = 30;

  private final boolean respect;
  private final Duration ttl;
  private final Duration retryInterval;
  private final Duration maxCrawlDelay;

  private RobotsSettings(Builder b) {
    this.respect = b.respect;
    this.ttl = b.ttl;
    this.retryInterval = b.retryInterval;
    this.maxCrawlDelay = b.maxCrawlDelay;
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Every setting at its default. */
  public static RobotsSettings defaults() {
    return builder().build();
  }

  /** Whether robots.txt is obeyed. */
  public boolean respect() {
    return respect;
  }

  public Duration ttl() {
    return ttl;
  }

  public Duration retryInterval() {
    return retryInterval;
  }

  public Duration maxCrawlDelay() {
    return maxCrawlDelay;
  }

  /** Robots settings; every value has a default. */
  public static final class Builder {
    private boolean respect = true;
    private Duration ttl = Duration.ofHours(DEFAULT_TTL_HOURS);
    private Duration retryInterval = Duration.ofSeconds(DEFAULT_RETRY_INTERVAL_SECONDS);
    private Duration maxCrawlDelay = Duration.ofSeconds(DEFAULT_MAX_CRAWL_DELAY_SECONDS);

    private Builder() {}

    /** Obey robots.txt (default true). */
    public Builder respect(boolean respect) {
      this.respect = respect;
      return this;
    }

    /** How long fetched rules, or "no robots.txt", are used before fetching again (default 24 h). */
    public Builder ttl(Duration ttl) {
      this.ttl = Objects.requireNonNull(ttl, "robotsTtl");
      return this;
    }

    /**
     * After a robots.txt fetch gets a failure (5xx, 429), the host's URLs wait this long in the
     * frontier for its next fetch (default 1 min; after a connection failure, the retry backoff,
     * doubled per failure in a row, up to this); after {@code retries} + 1 failures in a row they
     * are recorded as {@code robots-unreachable}.
     */
    public Builder retryInterval(Duration interval) {
      this.retryInterval = Objects.requireNonNull(interval, "robotsRetryInterval");
      return this;
    }

    /** Hosts asking for a longer Crawl-delay are skipped (default 30 s). */
    public Builder maxCrawlDelay(Duration max) {
      this.maxCrawlDelay = Objects.requireNonNull(max, "maxCrawlDelay");
      return this;
    }

    public RobotsSettings build() {
      Check.notNegative("maxCrawlDelay", maxCrawlDelay);
      Check.positive("robotsRetryInterval", retryInterval);
      return new RobotsSettings(this);
    }
  }
}
