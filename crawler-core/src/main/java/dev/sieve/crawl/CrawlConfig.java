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

  final int threads;
  final int maxInFlight;
  final long maxPages;
  final FetchSettings fetch;
  final RobotsSettings robots;
  final ScopeSettings scope;
  final SitemapSettings sitemaps;
  final Duration stopTimeout;
  final Clock clock;
  /** The WARC archive's settings, or null when the crawl keeps none. */
  final WarcSettings warc;
  /** The frontier's settings: seeds, Sieve, politeness, where it lives, its state and ticker. */
  final FrontierSettings frontier;

  private CrawlConfig(Builder b, FrontierSettings frontier) {
    this.threads = b.threads;
    this.maxInFlight = b.maxInFlight;
    this.maxPages = b.maxPages;
    this.fetch = b.fetch.build();
    this.robots = b.robots.build();
    this.scope = b.scope.build();
    this.sitemaps = b.sitemaps.build();
    this.stopTimeout = b.stopTimeout;
    this.clock = b.clock;
    this.warc = b.warc;
    this.frontier = frontier;
  }

  public static Builder builder() {
    return new Builder();
  }

  /** The URLs the crawl starts from (the frontier's: a resumed crawl checks them). */
  public List<Url> seeds() {
    return frontier.seeds;
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
    Duration acrossDelay = frontier.politeness.delay().plusSeconds(1);
    return acrossDelay.compareTo(dev.sieve.fetch.Fetcher.DEFAULT_IDLE_TIMEOUT) > 0
        ? acrossDelay : dev.sieve.fetch.Fetcher.DEFAULT_IDLE_TIMEOUT;
  }

  /** The source of elapsed time, the frontier's. */
  Ticker ticker() {
    return frontier.ticker;
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
    private final FrontierSettings.Builder frontier = FrontierSettings.builder();
    private int threads = DEFAULT_THREADS;
    private int maxInFlight = DEFAULT_MAX_IN_FLIGHT;
    private long maxPages = Long.MAX_VALUE;
    private final FetchSettings.Builder fetch = FetchSettings.builder();
    private final RobotsSettings.Builder robots = RobotsSettings.builder();
    private final ScopeSettings.Builder scope = ScopeSettings.builder();
    private final SitemapSettings.Builder sitemaps = SitemapSettings.builder();
    private Politeness politeness = Politeness.DEFAULT;
    private List<Url> seeds = List.of();
    private Duration stopTimeout = Duration.ofSeconds(DEFAULT_STOP_TIMEOUT_SECONDS);
    private Clock clock = Clock.systemUTC();
    private WarcSettings warc;

    private Builder() {}

    /**
     * On resume, seeds that differ from the saved crawl's are added to it (the saved ones are
     * kept) instead of refusing to resume (default false).
     */
    public Builder addSeeds(boolean add) {
      frontier.addSeeds(add);
      return this;
    }

    /**
     * Keep the crawl's state in {@code dir} (checkpoints and journals), so that it can resume;
     * a directory holding state is resumed unless {@link #freshState} (default: no state).
     */
    public Builder stateDir(java.nio.file.Path dir) {
      frontier.stateDir(dir);
      return this;
    }

    /** Start over even if the state directory holds a crawl, deleting its state. */
    public Builder freshState(boolean fresh) {
      frontier.freshState(fresh);
      return this;
    }

    /** Time between checkpoints (default 60 s); one is also written when the crawl stops. */
    public Builder checkpointInterval(Duration interval) {
      frontier.checkpointInterval(interval);
      return this;
    }

    /**
     * Memory for pending URLs (default 256 MiB); beyond it they spill to checksummed files in the
     * state directory, or a temporary one, and are read back in order per host.
     */
    public Builder pendingMemoryBytes(long bytes) {
      frontier.pendingMemoryBytes(bytes);
      return this;
    }

    /** The Sieve's structure (default {@link dev.sieve.frontier.SeenFilter#BLOCKED}). */
    public Builder seenFilter(dev.sieve.frontier.SeenFilter filter) {
      frontier.seenFilter(filter);
      return this;
    }

    /**
     * Past the expected URLs, grow the Sieve with scalable layers so its false-positive rate stays
     * at target (default), or keep one fixed filter whose rate climbs (the Sieve warns either way).
     */
    public Builder growOnCapacity(boolean grow) {
      frontier.growOnCapacity(grow);
      return this;
    }

    /** Stop taking new URLs while the state disk has less free space than this (default 1 GiB). */
    public Builder diskReserveBytes(long bytes) {
      frontier.diskReserveBytes(bytes);
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
      frontier.expectedUrls(expectedUrls);
      return this;
    }

    /** The Sieve's target false-positive rate (default 1e-6). */
    public Builder falsePositiveRate(double falsePositiveRate) {
      frontier.falsePositiveRate(falsePositiveRate);
      return this;
    }

    /** How each host (or domain, or address) is fetched: one value, to the frontier whole. */
    public Builder politeness(Politeness politeness) {
      this.politeness = Objects.requireNonNull(politeness, "politeness");
      return this;
    }

    /**
     * Sets where the frontier lives and anything else of it that has no setter here (see {@link
     * FrontierSettings.Builder}).
     */
    public Builder frontier(Consumer<FrontierSettings.Builder> settings) {
      settings.accept(frontier);
      return this;
    }

    /** The least time between fetches of one host (default 1 s). */
    public Builder politenessDelay(Duration delay) {
      politeness = politeness.withDelay(Objects.requireNonNull(delay, "politenessDelay"));
      return this;
    }

    /** Fetches of one host in flight at once (default 1). */
    public Builder maxInFlightPerHost(int max) {
      politeness = politeness.withMaxInFlightPerHost(max);
      return this;
    }

    /** URLs fetched per host at most (default unlimited). */
    public Builder maxPagesPerHost(long max) {
      politeness = politeness.withMaxUrlsPerHost(max);
      return this;
    }

    /** What politeness is counted per (default the host). */
    public Builder queueKey(QueueKey queueKey) {
      politeness = politeness.withQueueKey(Objects.requireNonNull(queueKey, "queueKey"));
      return this;
    }

    /** How long a stop waits for fetches in flight (default 30 s). */
    public Builder stopTimeout(Duration timeout) {
      this.stopTimeout = Objects.requireNonNull(timeout, "stopTimeout");
      return this;
    }

    public Builder ticker(Ticker ticker) {
      frontier.ticker(ticker);
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
      ScopeSettings scopeSettings = scope.build();
      // The frontier's settings check themselves (FrontierSettings, Politeness), once, here.
      FrontierSettings frontierSettings = frontier.seeds(seeds).politeness(politeness)
          .fixedOnResume("scope", scopeSettings.scope().name().toLowerCase(java.util.Locale.ROOT))
          .fixedOnResume("url-rules", scopeSettings.rules().toString())
          .build();
      return new CrawlConfig(this, frontierSettings);
    }
  }
}
