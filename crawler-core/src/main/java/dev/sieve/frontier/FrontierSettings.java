package dev.sieve.frontier;

import com.google.common.base.Ticker;
import dev.sieve.settings.Check;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * What a frontier is made of, for {@code Frontiers.open}: its seen filter, its politeness, where
 * it lives (this process, or Redis shared by processes) and, for a local one, where its state is
 * kept. Immutable; validated once, in {@link Builder#build()}, with messages naming the setting.
 */
public final class FrontierSettings {
  public final SeenFilter seenFilter;
  public final long expectedUrls;
  public final double falsePositiveRate;
  public final boolean growOnCapacity;
  public final Politeness politeness;
  /** Memory for pending URLs before they spill to disk (local frontier). */
  public final long pendingMemoryBytes;
  public final Ticker ticker;
  /** Where a local frontier's state is kept, or null: none, pending URLs spill to a temporary dir. */
  public final Path stateDir;
  public final boolean freshState;
  public final Duration checkpointInterval;
  public final long diskReserveBytes;
  public final boolean addSeeds;
  /** Other settings of the crawl that must not change when it resumes, by name. */
  public final Map<String, String> fixedOnResume;
  /** {@code redis://…} or {@code redis-cluster://…} for a shared frontier, or null: local. */
  public final String redisUri;
  public final String crawlId;
  public final Duration leaseDuration;
  public final int connections;
  /** {@code urlfrontier://HOST:PORT} for a URL Frontier service doing the scheduling, or null. */
  public final String urlFrontierUri;
  /** How long after its fetch a URL done is due again (a local frontier), or null: never. */
  public final Duration recrawlAfter;

  private FrontierSettings(Builder b) {
    this.seenFilter = b.seenFilter;
    this.expectedUrls = b.expectedUrls;
    this.falsePositiveRate = b.falsePositiveRate;
    this.growOnCapacity = b.growOnCapacity;
    this.politeness = b.politeness;
    this.pendingMemoryBytes = b.pendingMemoryBytes;
    this.ticker = b.ticker;
    this.stateDir = b.stateDir;
    this.freshState = b.freshState;
    this.checkpointInterval = b.checkpointInterval;
    this.diskReserveBytes = b.diskReserveBytes;
    this.addSeeds = b.addSeeds;
    this.fixedOnResume = Map.copyOf(b.fixedOnResume);
    this.redisUri = b.redisUri;
    this.crawlId = b.crawlId;
    this.leaseDuration = b.leaseDuration;
    this.connections = b.connections;
    this.urlFrontierUri = b.urlFrontierUri;
    this.recrawlAfter = b.recrawlAfter;
  }

  public static Builder builder() {
    return new Builder();
  }

  /** A builder holding these settings, to change some. */
  public Builder toBuilder() {
    Builder b = new Builder().seenFilter(seenFilter, expectedUrls, falsePositiveRate, growOnCapacity)
        .politeness(politeness).pendingMemoryBytes(pendingMemoryBytes).ticker(ticker)
        .state(stateDir, freshState, checkpointInterval, diskReserveBytes).addSeeds(addSeeds)
        .recrawlAfter(recrawlAfter);
    fixedOnResume.forEach(b::fixedOnResume);
    if (urlFrontierUri != null) {
      return b.urlFrontier(urlFrontierUri, crawlId, leaseDuration);
    }
    return redisUri == null ? b : b.redis(redisUri, crawlId, leaseDuration, connections);
  }

  /** Whether the frontier is shared through Redis. */
  public boolean shared() {
    return redisUri != null;
  }

  /** The seen filter's capacity in distinct URLs unless set. */
  public static final long DEFAULT_EXPECTED_URLS = 10_000_000;
  /** The seen filter's false-positive rate unless set, as the command line writes it. */
  public static final String DEFAULT_FALSE_POSITIVE_RATE = "1e-6";
  /** Memory for pending URLs unless set (256 MiB); beyond it they spill to disk. */
  public static final long DEFAULT_PENDING_MEMORY_BYTES = 256L << 20;
  /** Seconds between checkpoints unless set. */
  public static final long DEFAULT_CHECKPOINT_SECONDS = 60;
  /** Free space the state disk keeps unless set (1 GiB): below it, new URLs wait. */
  public static final long DEFAULT_DISK_RESERVE_BYTES = 1L << 30;
  /** Seconds a Redis lease lasts unless set. */
  public static final long DEFAULT_LEASE_SECONDS = 120;

  /** Settings of a frontier; every value has a default except Redis's. */
  public static final class Builder {
    private SeenFilter seenFilter = SeenFilter.BLOCKED;
    private long expectedUrls = DEFAULT_EXPECTED_URLS;
    private double falsePositiveRate = Double.parseDouble(DEFAULT_FALSE_POSITIVE_RATE);
    private boolean growOnCapacity = true;
    private Politeness politeness = Politeness.DEFAULT;
    private long pendingMemoryBytes = DEFAULT_PENDING_MEMORY_BYTES;
    private Ticker ticker = Ticker.systemTicker();
    private Path stateDir;
    private boolean freshState;
    private Duration checkpointInterval = Duration.ofSeconds(DEFAULT_CHECKPOINT_SECONDS);
    private long diskReserveBytes = DEFAULT_DISK_RESERVE_BYTES;
    private boolean addSeeds;
    private final Map<String, String> fixedOnResume = new TreeMap<>();
    private String redisUri;
    private String crawlId;
    private Duration leaseDuration = Duration.ofSeconds(DEFAULT_LEASE_SECONDS);
    private int connections = 8;
    private String urlFrontierUri;
    private Duration recrawlAfter;

    private Builder() {}

    /**
     * Makes each URL done due again {@code interval} after it was done, for ever (null, the
     * default: never); a local frontier only.
     */
    public Builder recrawlAfter(Duration interval) {
      this.recrawlAfter = interval;
      return this;
    }

    /** The seen filter's kind, capacity and false-positive rate, and whether it grows past it. */
    public Builder seenFilter(SeenFilter kind, long expectedUrls, double falsePositiveRate, boolean grow) {
      this.seenFilter = Objects.requireNonNull(kind, "seenFilter");
      this.expectedUrls = expectedUrls;
      this.falsePositiveRate = falsePositiveRate;
      this.growOnCapacity = grow;
      return this;
    }

    public Builder politeness(Politeness politeness) {
      this.politeness = Objects.requireNonNull(politeness, "politeness");
      return this;
    }

    public Builder pendingMemoryBytes(long bytes) {
      this.pendingMemoryBytes = bytes;
      return this;
    }

    public Builder ticker(Ticker ticker) {
      this.ticker = Objects.requireNonNull(ticker, "ticker");
      return this;
    }

    /**
     * Keeps a local frontier's state in {@code dir} (null: none), checkpointed every {@code
     * interval}; new URLs wait while the disk has less than {@code diskReserveBytes} free. A
     * directory holding a crawl is resumed unless {@code fresh}.
     */
    public Builder state(Path dir, boolean fresh, Duration interval, long diskReserveBytes) {
      this.stateDir = dir;
      this.freshState = fresh;
      this.checkpointInterval = Objects.requireNonNull(interval, "checkpointInterval");
      this.diskReserveBytes = diskReserveBytes;
      return this;
    }

    /** On resume, seeds other than the saved crawl's are added to it rather than refused. */
    public Builder addSeeds(boolean add) {
      this.addSeeds = add;
      return this;
    }

    /** A setting of the crawl that must not change when it resumes (e.g. its scope). */
    public Builder fixedOnResume(String name, String value) {
      this.fixedOnResume.put(Objects.requireNonNull(name, "name"), Objects.requireNonNull(value, name));
      return this;
    }

    /**
     * Shares the frontier through Redis at {@code uri} as crawl {@code crawlId}; a lease not given
     * back within {@code leaseDuration} is queued again; {@code connections} to Redis.
     */
    public Builder redis(String uri, String crawlId, Duration leaseDuration, int connections) {
      this.redisUri = Objects.requireNonNull(uri, "uri");
      this.crawlId = crawlId;
      this.leaseDuration = Objects.requireNonNull(leaseDuration, "leaseDuration");
      this.connections = connections;
      return this;
    }

    /**
     * Schedules through the URL Frontier service at {@code uri} ({@code urlfrontier://HOST:PORT})
     * as crawl {@code crawlId} (null or blank: the service's default crawl); a URL handed out is
     * leased for {@code leaseDuration} (GetURLs' delay_requestable, whole seconds).
     */
    public Builder urlFrontier(String uri, String crawlId, Duration leaseDuration) {
      this.urlFrontierUri = Objects.requireNonNull(uri, "uri");
      this.crawlId = crawlId;
      this.leaseDuration = Objects.requireNonNull(leaseDuration, "leaseDuration");
      return this;
    }

    /** @throws IllegalArgumentException naming the first setting out of range */
    public FrontierSettings build() {
      Check.positive("expectedUrls", expectedUrls);
      Check.rate("falsePositiveRate", falsePositiveRate);
      Check.positive("pendingMemoryBytes", pendingMemoryBytes);
      if (checkpointInterval.compareTo(Duration.ofSeconds(1)) < 0) {
        throw new IllegalArgumentException(
            "checkpointInterval (" + checkpointInterval + ") must be >= 1 s");
      }
      Check.atLeast("diskReserveBytes", diskReserveBytes, 0);
      if (redisUri != null && stateDir != null) {
        throw new IllegalArgumentException("stateDir (" + stateDir + ") keeps a local frontier's"
            + " state; a Redis frontier keeps its own");
      }
      if (urlFrontierUri != null && (stateDir != null || redisUri != null)) {
        throw new IllegalArgumentException("urlFrontierUri (" + urlFrontierUri + ") schedules"
            + " through a URL Frontier service, which keeps the state: no stateDir or redisUri");
      }
      if (urlFrontierUri != null && politeness.maxUrlsPerHost() != Long.MAX_VALUE) {
        throw new IllegalArgumentException("maxUrlsPerHost (" + politeness.maxUrlsPerHost()
            + ") is not enforced by a URL Frontier service: leave it unset");
      }
      if (recrawlAfter != null && recrawlAfter.compareTo(Duration.ofSeconds(1)) < 0) {
        throw new IllegalArgumentException("recrawlAfter (" + recrawlAfter + ") must be >= 1 s");
      }
      if (recrawlAfter != null && (redisUri != null || urlFrontierUri != null)) {
        throw new IllegalArgumentException("recrawlAfter (" + recrawlAfter + ") needs a local"
            + " frontier: a " + (redisUri != null ? "Redis" : "URL Frontier") + " one cannot"
            + " schedule refetches");
      }
      return new FrontierSettings(this);
    }
  }
}
