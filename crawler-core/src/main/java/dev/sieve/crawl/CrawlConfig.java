package dev.sieve.crawl;

import static dev.sieve.settings.Check.notNegative;
import static dev.sieve.settings.Check.positive;

import com.google.common.base.Ticker;
import dev.sieve.fetch.FetchSettings;
import dev.sieve.frontier.FrontierSettings;
import dev.sieve.frontier.Politeness;
import dev.sieve.frontier.QueueKey;
import dev.sieve.robots.RobotsSettings;
import dev.sieve.scope.ScopeSettings;
import dev.sieve.sitemap.SitemapSettings;
import dev.sieve.url.Url;
import dev.sieve.warc.WarcSettings;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * The settings of one crawl: its seeds, workers and budget, composed with the {@link
 * FetchSettings fetch}, {@link RobotsSettings robots}, {@link ScopeSettings scope} and {@link
 * SitemapSettings sitemap} settings and the frontier's. Immutable; built with {@link #builder()} and validated once in {@link
 * Builder#build()}, whose messages name the offending value.
 */
public final class CrawlConfig {
  /** Default {@link Builder#threads}: as many as the machine has cores. */
  public static final int DEFAULT_THREADS = Runtime.getRuntime().availableProcessors();
  /** Default {@link Builder#maxInFlight}. */
  public static final int DEFAULT_MAX_IN_FLIGHT = 1000;
  /** Default {@link Builder#stopTimeout}, in seconds. */
  public static final long DEFAULT_STOP_TIMEOUT_SECONDS = 30;

  final List<Url> seeds;
  final int threads;
  final int maxInFlight;
  final long maxPages;
  final FetchSettings fetch;
  final RobotsSettings robots;
  final ScopeSettings scope;
  final SitemapSettings sitemaps;
  final long expectedUrls;
  final double falsePositiveRate;
  final Duration politenessDelay;
  final int maxInFlightPerHost;
  final long maxPagesPerHost;
  final QueueKey queueKey;
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
  final boolean addSeeds;
  /** The WARC archive's settings, or null when the crawl keeps none. */
  final WarcSettings warc;
  private final FrontierSettings frontier;

  private CrawlConfig(Builder b) {
    this.seeds = List.copyOf(b.seeds);
    this.threads = b.threads;
    this.maxInFlight = b.maxInFlight;
    this.maxPages = b.maxPages;
    this.fetch = b.fetch.build();
    this.robots = b.robots.build();
    this.scope = b.scope.build();
    this.sitemaps = b.sitemaps.build();
    this.expectedUrls = b.expectedUrls;
    this.falsePositiveRate = b.falsePositiveRate;
    this.politenessDelay = b.politenessDelay;
    this.maxInFlightPerHost = b.maxInFlightPerHost;
    this.maxPagesPerHost = b.maxPagesPerHost;
    this.queueKey = b.queueKey;
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
    this.addSeeds = b.addSeeds;
    this.warc = b.warc;
    this.frontier = FrontierSettings.builder()
        .seenFilter(seenFilter, expectedUrls, falsePositiveRate, growOnCapacity)
        .politeness(new Politeness(politenessDelay, maxInFlightPerHost, maxPagesPerHost, queueKey))
        .pendingMemoryBytes(pendingMemoryBytes)
        .ticker(ticker)
        .state(stateDir, freshState, checkpointInterval, diskReserveBytes)
        .addSeeds(addSeeds)
        .fixedOnResume("scope", scope.scope().name().toLowerCase(java.util.Locale.ROOT))
        .fixedOnResume("url-rules", scope.rules().toString())
        .build();
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

  public int maxInFlight() {
    return maxInFlight;
  }

  /**
   * How long an idle connection is kept for its host's next fetch: across the politeness delay
   * (and a second more), at least the fetcher's default.
   */
  Duration idleConnectionTimeout() {
    Duration acrossDelay = politenessDelay.plusSeconds(1);
    return acrossDelay.compareTo(dev.sieve.fetch.Fetcher.DEFAULT_IDLE_TIMEOUT) > 0
        ? acrossDelay : dev.sieve.fetch.Fetcher.DEFAULT_IDLE_TIMEOUT;
  }

  public long expectedUrls() {
    return expectedUrls;
  }

  public double falsePositiveRate() {
    return falsePositiveRate;
  }

  public FetchSettings fetch() {
    return fetch;
  }

  public RobotsSettings robots() {
    return robots;
  }

  public ScopeSettings scope() {
    return scope;
  }

  public SitemapSettings sitemaps() {
    return sitemaps;
  }

  /** The frontier's part of these settings, for {@code Frontiers.open}: the one place it is made. */
  public FrontierSettings frontierSettings() {
    return frontier;
  }

  /** The WARC archive's settings, or null when the crawl keeps none. */
  public WarcSettings warc() {
    return warc;
  }

  /** Settings of a crawl; every value has a documented default except the seeds. */
  public static final class Builder {
    private List<Url> seeds = List.of();
    private int threads = DEFAULT_THREADS;
    private int maxInFlight = DEFAULT_MAX_IN_FLIGHT;
    private long maxPages = Long.MAX_VALUE;
    private final FetchSettings.Builder fetch = FetchSettings.builder();
    private final RobotsSettings.Builder robots = RobotsSettings.builder();
    private final ScopeSettings.Builder scope = ScopeSettings.builder();
    private final SitemapSettings.Builder sitemaps = SitemapSettings.builder();
    private long expectedUrls = FrontierSettings.DEFAULT_EXPECTED_URLS;
    private double falsePositiveRate = Double.parseDouble(FrontierSettings.DEFAULT_FALSE_POSITIVE_RATE);
    private Duration politenessDelay = Politeness.DEFAULT.delay();
    private int maxInFlightPerHost = Politeness.DEFAULT.maxInFlightPerHost();
    private long maxPagesPerHost = Long.MAX_VALUE;
    private QueueKey queueKey = QueueKey.HOST;
    private Duration stopTimeout = Duration.ofSeconds(DEFAULT_STOP_TIMEOUT_SECONDS);
    private Ticker ticker = Ticker.systemTicker();
    private Clock clock = Clock.systemUTC();
    private java.nio.file.Path stateDir;
    private boolean freshState;
    private Duration checkpointInterval = Duration.ofSeconds(FrontierSettings.DEFAULT_CHECKPOINT_SECONDS);
    private long diskReserveBytes = FrontierSettings.DEFAULT_DISK_RESERVE_BYTES;
    private long pendingMemoryBytes = FrontierSettings.DEFAULT_PENDING_MEMORY_BYTES;
    private dev.sieve.frontier.SeenFilter seenFilter = dev.sieve.frontier.SeenFilter.BLOCKED;
    private boolean growOnCapacity = true;
    private boolean addSeeds;
    private WarcSettings warc;

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

    /** Sets fetch settings: the agent, timeouts, body cap, retries (see {@link FetchSettings}). */
    public Builder fetch(Consumer<FetchSettings.Builder> settings) {
      settings.accept(fetch);
      return this;
    }

    /** Sets robots.txt settings (see {@link RobotsSettings}). */
    public Builder robots(Consumer<RobotsSettings.Builder> settings) {
      settings.accept(robots);
      return this;
    }

    /** Sets which links are followed: scope, depth and trap limits (see {@link ScopeSettings}). */
    public Builder scope(Consumer<ScopeSettings.Builder> settings) {
      settings.accept(scope);
      return this;
    }

    /** Sets which sitemaps are read and how much of them (see {@link SitemapSettings}). */
    public Builder sitemaps(Consumer<SitemapSettings.Builder> settings) {
      settings.accept(sitemaps);
      return this;
    }

    /**
     * Threads for the work after each fetch, parse, Sieve and output, at once (default: as many
     * as cores). Fetches do not wait for them: see {@link #maxInFlight}.
     */
    public Builder threads(int threads) {
      this.threads = threads;
      return this;
    }

    /**
     * The most fetches in flight at once, over all hosts (default 1000): they grow with the
     * hosts that are ready, each at most its per-host limit.
     */
    public Builder maxInFlight(int maxInFlight) {
      this.maxInFlight = maxInFlight;
      return this;
    }

    /** Stop after this many URLs are done (default unlimited). */
    public Builder maxPages(long maxPages) {
      this.maxPages = maxPages;
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
     * A sitemap given by the user is fetched in its authority's politeness slots, which only the
     * seeds' authorities are sure to have.
     */
    private void checkSitemapsOnSeeds(SitemapSettings settings) {
      java.util.Set<String> origins = new java.util.HashSet<>();
      seeds.forEach(seed -> origins.add(seed.origin()));
      for (Url sitemap : settings.sitemaps()) {
        if (!origins.contains(sitemap.origin())) {
          throw new IllegalArgumentException("sitemaps (" + sitemap + ") must be on the authority"
              + " (scheme, host, port) of a seed, whose politeness slots its fetches take: add a"
              + " seed there, e.g. " + sitemap.origin() + "/");
        }
      }
    }

    /** Archive every fetch as WARC with {@code settings}; null (the default) archives nothing. */
    public Builder warc(WarcSettings settings) {
      this.warc = settings;
      return this;
    }

    public CrawlConfig build() {
      if (seeds.isEmpty()) {
        throw new IllegalArgumentException("seeds (none) must hold at least one URL");
      }
      positive("threads", threads);
      positive("maxInFlight", maxInFlight);
      positive("maxPages", maxPages);
      notNegative("stopTimeout", stopTimeout);
      checkSitemapsOnSeeds(sitemaps.build());
      if (growOnCapacity && seenFilter == dev.sieve.frontier.SeenFilter.CUCKOO) {
        throw new IllegalArgumentException(
            "seenFilter (cuckoo) has a fixed size and cannot grow: set on-capacity warn");
      }
      // The frontier's settings check themselves (FrontierSettings, Politeness), once, here.
      return new CrawlConfig(this);
    }
  }
}
