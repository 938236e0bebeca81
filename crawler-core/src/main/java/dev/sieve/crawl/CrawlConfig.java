package dev.sieve.crawl;

import com.google.common.base.Ticker;
import dev.sieve.fetch.Fetcher;
import dev.sieve.frontier.FrontierSettings;
import dev.sieve.frontier.Politeness;
import dev.sieve.frontier.QueueKey;
import dev.sieve.url.Scope;
import dev.sieve.url.Url;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * The settings of one crawl. Immutable; built with {@link #builder()} and validated once in
 * {@link Builder#build()}, whose messages name the offending value.
 */
public final class CrawlConfig {
  final List<Url> seeds;
  final int threads;
  final long maxPages;
  final int maxDepth;
  final long expectedUrls;
  final double falsePositiveRate;
  final Scope scope;
  final String userAgent;
  final Duration politenessDelay;
  final int maxInFlightPerHost;
  final long maxPagesPerHost;
  final QueueKey queueKey;
  final int retries;
  final Duration retryBackoff;
  final int maxRedirects;
  final long maxBodyBytes;
  final Duration connectTimeout;
  final Duration readTimeout;
  final Duration callTimeout;
  final int maxUrlLength;
  final int maxOutlinks;
  final int maxPathDepth;
  final int maxRepeatedSegments;
  final boolean followNofollow;
  final boolean allowPrivate;
  final boolean respectRobots;
  final Duration robotsTtl;
  final Duration robotsRetryInterval;
  final Duration maxCrawlDelay;
  final Duration stopTimeout;
  final Ticker ticker;
  final Clock clock;
  final java.nio.file.Path stateDir;
  final boolean freshState;
  final Duration checkpointInterval;
  final long diskReserveBytes;
  final long pendingMemoryBytes;
  final dev.sieve.frontier.SeenFilter seenFilter;
  final boolean growOnCapacity;
  final int maxQueryVariants;
  final int hostFailureLimit;
  final Duration maxRetryAfter;
  final boolean addSeeds;

  private CrawlConfig(Builder b) {
    this.seeds = List.copyOf(b.seeds);
    this.threads = b.threads;
    this.maxPages = b.maxPages;
    this.maxDepth = b.maxDepth;
    this.expectedUrls = b.expectedUrls;
    this.falsePositiveRate = b.falsePositiveRate;
    this.scope = b.scope;
    this.userAgent = b.userAgent;
    this.politenessDelay = b.politenessDelay;
    this.maxInFlightPerHost = b.maxInFlightPerHost;
    this.maxPagesPerHost = b.maxPagesPerHost;
    this.queueKey = b.queueKey;
    this.retries = b.retries;
    this.retryBackoff = b.retryBackoff;
    this.maxRedirects = b.maxRedirects;
    this.maxBodyBytes = b.maxBodyBytes;
    this.connectTimeout = b.connectTimeout;
    this.readTimeout = b.readTimeout;
    this.callTimeout = b.callTimeout;
    this.maxUrlLength = b.maxUrlLength;
    this.maxOutlinks = b.maxOutlinks;
    this.maxQueryVariants = b.maxQueryVariants;
    this.maxPathDepth = b.maxPathDepth;
    this.maxRepeatedSegments = b.maxRepeatedSegments;
    this.followNofollow = b.followNofollow;
    this.allowPrivate = b.allowPrivate;
    this.respectRobots = b.respectRobots;
    this.robotsTtl = b.robotsTtl;
    this.robotsRetryInterval = b.robotsRetryInterval;
    this.maxCrawlDelay = b.maxCrawlDelay;
    this.stopTimeout = b.stopTimeout;
    this.ticker = b.ticker;
    this.clock = b.clock;
    this.stateDir = b.stateDir;
    this.freshState = b.freshState;
    this.checkpointInterval = b.checkpointInterval;
    this.diskReserveBytes = b.diskReserveBytes;
    this.pendingMemoryBytes = b.pendingMemoryBytes;
    this.seenFilter = b.seenFilter;
    this.growOnCapacity = b.growOnCapacity;
    this.hostFailureLimit = b.hostFailureLimit;
    this.maxRetryAfter = b.maxRetryAfter;
    this.addSeeds = b.addSeeds;
  }

  public static Builder builder() {
    return new Builder();
  }

  public List<Url> seeds() {
    return seeds;
  }

  public int threads() {
    return threads;
  }

  public long expectedUrls() {
    return expectedUrls;
  }

  public double falsePositiveRate() {
    return falsePositiveRate;
  }

  /** The frontier's part of these settings, for {@code Frontiers.open}: the one place it is made. */
  public FrontierSettings frontierSettings() {
    return FrontierSettings.builder()
        .seenFilter(seenFilter, expectedUrls, falsePositiveRate, growOnCapacity)
        .politeness(new Politeness(politenessDelay, maxInFlightPerHost, maxPagesPerHost, queueKey))
        .pendingMemoryBytes(pendingMemoryBytes)
        .ticker(ticker)
        .state(stateDir, freshState, checkpointInterval, diskReserveBytes)
        .addSeeds(addSeeds)
        .fixedOnResume("scope", scope.name().toLowerCase(java.util.Locale.ROOT))
        .build();
  }

  /** The most {@link Builder#maxRetryAfter} accepts: a host is never held longer than a day. */
  public static final Duration MAX_RETRY_AFTER_LIMIT = Duration.ofDays(1);

  /** Settings of a crawl; every value has a documented default except the seeds. */
  public static final class Builder {
    private List<Url> seeds = List.of();
    private int threads = 8;
    private long maxPages = Long.MAX_VALUE;
    private int maxDepth = Integer.MAX_VALUE;
    private long expectedUrls = 10_000_000;
    private double falsePositiveRate = 1e-6;
    private Scope scope = Scope.HOST;
    private String userAgent = Fetcher.DEFAULT_USER_AGENT;
    private Duration politenessDelay = Duration.ofSeconds(1);
    private int maxInFlightPerHost = 1;
    private long maxPagesPerHost = Long.MAX_VALUE;
    private QueueKey queueKey = QueueKey.HOST;
    private int retries = 2;
    private Duration retryBackoff = Duration.ofSeconds(2);
    private int maxRedirects = 5;
    private long maxBodyBytes = 10L << 20;
    private Duration connectTimeout = Duration.ofSeconds(10);
    private Duration readTimeout = Duration.ofSeconds(30);
    private Duration callTimeout = Duration.ofSeconds(60);
    private int maxUrlLength = 2048;
    private int maxOutlinks = dev.sieve.parse.LinkExtractor.DEFAULT_MAX_OUTLINKS;
    private int maxQueryVariants = 100;
    private int maxPathDepth = 20;
    private int maxRepeatedSegments = 3;
    private boolean followNofollow;
    private boolean allowPrivate;
    private boolean respectRobots = true;
    private Duration robotsTtl = Duration.ofHours(24);
    private Duration robotsRetryInterval = Duration.ofMinutes(1);
    private Duration maxCrawlDelay = Duration.ofSeconds(30);
    private Duration stopTimeout = Duration.ofSeconds(30);
    private Ticker ticker = Ticker.systemTicker();
    private Clock clock = Clock.systemUTC();
    private java.nio.file.Path stateDir;
    private boolean freshState;
    private Duration checkpointInterval = Duration.ofSeconds(60);
    private long diskReserveBytes = 1L << 30;
    private long pendingMemoryBytes = 256L << 20;
    private dev.sieve.frontier.SeenFilter seenFilter = dev.sieve.frontier.SeenFilter.BLOCKED;
    private boolean growOnCapacity = true;
    private int hostFailureLimit = 3;
    private Duration maxRetryAfter = Duration.ofMinutes(5);
    private boolean addSeeds;

    private Builder() {}

    /**
     * On resume, seeds that differ from the saved crawl's are added to it (the saved ones are
     * kept) instead of refusing to resume (default false).
     */
    public Builder addSeeds(boolean add) {
      this.addSeeds = add;
      return this;
    }

    /**
     * Keep the crawl's state in {@code dir} (checkpoints and journals), so that it can resume;
     * a directory holding state is resumed unless {@link #freshState} (default: no state).
     */
    public Builder stateDir(java.nio.file.Path dir) {
      this.stateDir = dir;
      return this;
    }

    /** Start over even if the state directory holds a crawl, deleting its state. */
    public Builder freshState(boolean fresh) {
      this.freshState = fresh;
      return this;
    }

    /** Time between checkpoints (default 60 s); one is also written when the crawl stops. */
    public Builder checkpointInterval(Duration interval) {
      this.checkpointInterval = Objects.requireNonNull(interval, "checkpointInterval");
      return this;
    }

    /**
     * Memory for pending URLs (default 256 MiB); beyond it they spill to checksummed files in the
     * state directory, or a temporary one, and are read back in order per host.
     */
    public Builder pendingMemoryBytes(long bytes) {
      this.pendingMemoryBytes = bytes;
      return this;
    }

    /** The Sieve's structure (default {@link dev.sieve.frontier.SeenFilter#BLOCKED}). */
    public Builder seenFilter(dev.sieve.frontier.SeenFilter filter) {
      this.seenFilter = Objects.requireNonNull(filter, "seenFilter");
      return this;
    }

    /**
     * Past the expected URLs, grow the Sieve with scalable layers so its false-positive rate stays
     * at target (default), or keep one fixed filter whose rate climbs (the Sieve warns either way).
     */
    public Builder growOnCapacity(boolean grow) {
      this.growOnCapacity = grow;
      return this;
    }

    /** Stop taking new URLs while the state disk has less free space than this (default 1 GiB). */
    public Builder diskReserveBytes(long bytes) {
      this.diskReserveBytes = bytes;
      return this;
    }

    /** The URLs the crawl starts from, at depth 0. Required. */
    public Builder seeds(List<Url> seeds) {
      this.seeds = Objects.requireNonNull(seeds, "seeds");
      return this;
    }

    /** Worker threads (default 8). */
    public Builder threads(int threads) {
      this.threads = threads;
      return this;
    }

    /** Stop after this many URLs are done (default unlimited). */
    public Builder maxPages(long maxPages) {
      this.maxPages = maxPages;
      return this;
    }

    /** Follow links at most this deep; seeds are depth 0 (default unlimited). */
    public Builder maxDepth(int maxDepth) {
      this.maxDepth = maxDepth;
      return this;
    }

    /** The Sieve's capacity in distinct URLs (default 10,000,000). */
    public Builder expectedUrls(long expectedUrls) {
      this.expectedUrls = expectedUrls;
      return this;
    }

    /** The Sieve's target false-positive rate (default 1e-6). */
    public Builder falsePositiveRate(double falsePositiveRate) {
      this.falsePositiveRate = falsePositiveRate;
      return this;
    }

    /** Which links are followed, relative to the seeds (default {@link Scope#HOST}). */
    public Builder scope(Scope scope) {
      this.scope = Objects.requireNonNull(scope, "scope");
      return this;
    }

    /** Sent on every request; its product token is the robots.txt agent name. */
    public Builder userAgent(String userAgent) {
      this.userAgent = userAgent;
      return this;
    }

    /** The least time between fetches of one host (default 1 s). */
    public Builder politenessDelay(Duration delay) {
      this.politenessDelay = Objects.requireNonNull(delay, "politenessDelay");
      return this;
    }

    /** Fetches of one host in flight at once (default 1). */
    public Builder maxInFlightPerHost(int max) {
      this.maxInFlightPerHost = max;
      return this;
    }

    /** URLs fetched per host at most (default unlimited). */
    public Builder maxPagesPerHost(long max) {
      this.maxPagesPerHost = max;
      return this;
    }

    /** What politeness is counted per (default the host). */
    public Builder queueKey(QueueKey queueKey) {
      this.queueKey = Objects.requireNonNull(queueKey, "queueKey");
      return this;
    }

    /** Retries of a 5xx or network failure (default 2). */
    public Builder retries(int retries) {
      this.retries = retries;
      return this;
    }

    /** The first retry's delay, doubled for each later one (default 2 s). */
    public Builder retryBackoff(Duration backoff) {
      this.retryBackoff = Objects.requireNonNull(backoff, "retryBackoff");
      return this;
    }

    /** Redirects followed in one chain (default 5). */
    public Builder maxRedirects(int maxRedirects) {
      this.maxRedirects = maxRedirects;
      return this;
    }

    /** Body bytes kept per page, after decompression (default 10 MiB). */
    public Builder maxBodyBytes(long maxBodyBytes) {
      this.maxBodyBytes = maxBodyBytes;
      return this;
    }

    public Builder connectTimeout(Duration timeout) {
      this.connectTimeout = Objects.requireNonNull(timeout, "connectTimeout");
      return this;
    }

    public Builder readTimeout(Duration timeout) {
      this.readTimeout = Objects.requireNonNull(timeout, "readTimeout");
      return this;
    }

    /** Bounds a whole fetch, so a slow-drip server cannot hold a worker longer (default 60 s). */
    public Builder callTimeout(Duration timeout) {
      this.callTimeout = Objects.requireNonNull(timeout, "callTimeout");
      return this;
    }

    /** Longer links are not followed (default 2,048). */
    public Builder maxUrlLength(int max) {
      this.maxUrlLength = max;
      return this;
    }

    /**
     * Distinct links taken from one page at most (default 100,000, see {@link
     * dev.sieve.parse.LinkExtractor.Builder#maxOutlinks}); the rest are counted {@code
     * over-outlinks-cap} with a WARN naming the page.
     */
    public Builder maxOutlinks(int max) {
      this.maxOutlinks = max;
      return this;
    }

    /**
     * Distinct query strings followed per (authority, path) at most (default 100); links with
     * further ones are counted {@code query-trap}, with one WARN per path.
     */
    public Builder maxQueryVariants(int max) {
      this.maxQueryVariants = max;
      return this;
    }

    /** Links with more path segments are not followed (default 20). */
    public Builder maxPathDepth(int max) {
      this.maxPathDepth = max;
      return this;
    }

    /** Links repeating one path segment more often are not followed (default 3). */
    public Builder maxRepeatedSegments(int max) {
      this.maxRepeatedSegments = max;
      return this;
    }

    /** Follow {@code rel=nofollow} links and links of {@code nofollow} pages (default false). */
    public Builder followNofollow(boolean follow) {
      this.followNofollow = follow;
      return this;
    }

    /**
     * Follow links to loopback, private, link-local and metadata addresses that are not a seed's
     * host (default false).
     */
    public Builder allowPrivate(boolean allow) {
      this.allowPrivate = allow;
      return this;
    }

    /** Obey robots.txt (default true). */
    public Builder respectRobots(boolean respect) {
      this.respectRobots = respect;
      return this;
    }

    public Builder robotsTtl(Duration ttl) {
      this.robotsTtl = Objects.requireNonNull(ttl, "robotsTtl");
      return this;
    }

    /**
     * After a robots.txt fetch gets a failure (5xx, 429), the host's URLs wait this long in the
     * frontier for its next fetch (default 1 min; after a connection failure, the retry backoff,
     * doubled per failure in a row, up to this); after {@code retries} + 1 failures in a row they
     * are recorded as {@code robots-unreachable}.
     */
    public Builder robotsRetryInterval(Duration interval) {
      this.robotsRetryInterval = Objects.requireNonNull(interval, "robotsRetryInterval");
      return this;
    }

    /** Hosts asking for a longer Crawl-delay are skipped (default 30 s). */
    public Builder maxCrawlDelay(Duration max) {
      this.maxCrawlDelay = Objects.requireNonNull(max, "maxCrawlDelay");
      return this;
    }

    /** How long a stop waits for fetches in flight (default 30 s). */
    public Builder stopTimeout(Duration timeout) {
      this.stopTimeout = Objects.requireNonNull(timeout, "stopTimeout");
      return this;
    }

    public Builder ticker(Ticker ticker) {
      this.ticker = Objects.requireNonNull(ticker, "ticker");
      return this;
    }

    public Builder clock(Clock clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /**
     * Connection failures in a row (refused, timed out, reset; robots.txt fetches included) after
     * which an authority is unreachable: its URLs are recorded as {@code host-unreachable}
     * without fetching (default 3).
     */
    public Builder hostFailureLimit(int limit) {
      this.hostFailureLimit = limit;
      return this;
    }

    /**
     * A 429 or 503 asking (with {@code Retry-After}) for a longer wait than this fails its URL at
     * once, recorded as {@code retry-after-too-long} (default 5 min, at most 1 day).
     */
    public Builder maxRetryAfter(Duration max) {
      this.maxRetryAfter = Objects.requireNonNull(max, "maxRetryAfter");
      return this;
    }

    public CrawlConfig build() {
      if (seeds.isEmpty()) {
        throw new IllegalArgumentException("seeds (none) must hold at least one URL");
      }
      positive("threads", threads);
      positive("maxPages", maxPages);
      atLeast("maxDepth", maxDepth, 0);
      positive("expectedUrls", expectedUrls);
      if (!(falsePositiveRate > 0 && falsePositiveRate < 1)) {
        throw new IllegalArgumentException(
            "falsePositiveRate (" + falsePositiveRate + ") must be in (0, 1)");
      }
      if (userAgent == null || userAgent.isBlank()) {
        throw new IllegalArgumentException("userAgent (" + userAgent + ") must not be blank");
      }
      notNegative("politenessDelay", politenessDelay);
      positive("maxInFlightPerHost", maxInFlightPerHost);
      positive("maxPagesPerHost", maxPagesPerHost);
      atLeast("retries", retries, 0);
      notNegative("retryBackoff", retryBackoff);
      atLeast("maxRedirects", maxRedirects, 0);
      positive("maxBodyBytes", maxBodyBytes);
      positive("maxUrlLength", maxUrlLength);
      atLeast("maxOutlinks", maxOutlinks, 0);
      positive("maxQueryVariants", maxQueryVariants);
      positive("maxPathDepth", maxPathDepth);
      positive("maxRepeatedSegments", maxRepeatedSegments);
      positive("hostFailureLimit", hostFailureLimit);
      notNegative("maxCrawlDelay", maxCrawlDelay);
      notNegative("maxRetryAfter", maxRetryAfter);
      if (maxRetryAfter.compareTo(MAX_RETRY_AFTER_LIMIT) > 0) {
        throw new IllegalArgumentException(
            "maxRetryAfter (" + maxRetryAfter + ") must be <= " + MAX_RETRY_AFTER_LIMIT);
      }
      if (robotsRetryInterval.isZero() || robotsRetryInterval.isNegative()) {
        throw new IllegalArgumentException(
            "robotsRetryInterval (" + robotsRetryInterval + ") must be > 0");
      }
      notNegative("stopTimeout", stopTimeout);
      if (checkpointInterval.compareTo(Duration.ofSeconds(1)) < 0) {
        throw new IllegalArgumentException(
            "checkpointInterval (" + checkpointInterval + ") must be >= 1 s");
      }
      atLeast("diskReserveBytes", diskReserveBytes, 0);
      positive("pendingMemoryBytes", pendingMemoryBytes);
      if (growOnCapacity && seenFilter == dev.sieve.frontier.SeenFilter.CUCKOO) {
        throw new IllegalArgumentException(
            "seenFilter (cuckoo) has a fixed size and cannot grow: set on-capacity warn");
      }
      return new CrawlConfig(this);
    }

    private static void positive(String name, long value) {
      atLeast(name, value, 1);
    }

    private static void atLeast(String name, long value, long min) {
      if (value < min) {
        throw new IllegalArgumentException(name + " (" + value + ") must be >= " + min);
      }
    }

    private static void notNegative(String name, Duration value) {
      if (value.isNegative()) {
        throw new IllegalArgumentException(name + " (" + value + ") must not be negative");
      }
    }
  }
}
