package dev.sieve.frontier;

import com.google.common.base.Ticker;
import dev.sieve.settings.Check;
import dev.sieve.url.Url;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * What a frontier is made of, for {@link Frontiers#open}: its seeds, its seen filter, its
 * politeness, and where it lives ({@link #where()}): in this process's memory, in a state
 * directory, in Redis shared by processes, or in a URL Frontier service. Immutable; validated
 * once, in {@link Builder#build()}, with messages naming the setting.
 */
public final class FrontierSettings {
  /** Where a frontier lives. */
  public enum Where {
    /** In this process; pending URLs past the memory budget spill to a directory of their own. */
    MEMORY,
    /** In this process, journaled and checkpointed in {@link #stateDir} so a crawl resumes. */
    STATE_DIR,
    /** In Redis ({@link #redisUri}), shared by every process given the same crawl ID. */
    REDIS,
    /** In a URL Frontier service ({@link #urlFrontierUri}) that schedules the crawl. */
    URL_FRONTIER
  }

  /** The crawl's seeds: on resume, checked against the saved ones (see {@link #addSeeds}). */
  public final List<Url> seeds;
  public final SeenFilter seenFilter;
  public final long expectedUrls;
  public final double falsePositiveRate;
  public final boolean growOnCapacity;
  public final Politeness politeness;
  /** Memory for pending URLs before they spill to disk (local frontier). */
  public final long pendingMemoryBytes;
  /** Where pending URLs spill without a state directory, or null: a temporary directory. */
  public final Path spillDir;
  public final Ticker ticker;
  /** Where a local frontier's state is kept, or null: none, pending URLs spill to {@link #spillDir}. */
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
  /** With a URL Frontier service: a PEM file of CAs its TLS certificate may chain to, or null. */
  public final Path urlFrontierCaCert;
  /** With a URL Frontier service: the file holding the bearer token sent with each call, or null. */
  public final Path urlFrontierTokenFile;
  /** How long after its fetch a URL done is due again (a local frontier), or null: never. */
  public final Duration recrawlAfter;
  /** Whether this is a frontier service's, holding every crawl by ID, not one crawl's queues. */
  public final boolean service;

  private FrontierSettings(Builder b) {
    this.seeds = List.copyOf(b.seeds);
    this.seenFilter = b.seenFilter;
    this.expectedUrls = b.expectedUrls;
    this.falsePositiveRate = b.falsePositiveRate;
    this.growOnCapacity = b.growOnCapacity;
    this.politeness = b.politeness;
    this.pendingMemoryBytes = b.pendingMemoryBytes;
    this.spillDir = b.spillDir;
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
    this.urlFrontierCaCert = b.urlFrontierCaCert;
    this.urlFrontierTokenFile = b.urlFrontierTokenFile;
    this.recrawlAfter = b.recrawlAfter;
    this.service = b.service;
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Where the frontier lives. */
  public Where where() {
    if (urlFrontierUri != null) {
      return Where.URL_FRONTIER;
    }
    if (redisUri != null) {
      return Where.REDIS;
    }
    return stateDir != null ? Where.STATE_DIR : Where.MEMORY;
  }

  /** Whether the frontier is shared with other processes (Redis or a URL Frontier service). */
  public boolean shared() {
    return redisUri != null || urlFrontierUri != null;
  }

  /** A Sieve over an empty seen filter of these settings' kind and size, warning {@code listener}. */
  public Sieve newSieve(FrontierListener listener) {
    return Sieve.over(seenFilter.create(expectedUrls, falsePositiveRate, growOnCapacity),
        falsePositiveRate, listener::onCapacityWarning);
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
  /** Connections to Redis unless set. */
  public static final int DEFAULT_CONNECTIONS = 8;
  /** {@link Builder#where} of a frontier in this process. */
  public static final String LOCAL = "local";

  /** Settings of a frontier; every value has a default except Redis's and the service's. */
  public static final class Builder {
    private List<Url> seeds = List.of();
    private SeenFilter seenFilter = SeenFilter.BLOCKED;
    private long expectedUrls = DEFAULT_EXPECTED_URLS;
    private double falsePositiveRate = Double.parseDouble(DEFAULT_FALSE_POSITIVE_RATE);
    private boolean growOnCapacity = true;
    private Politeness politeness = Politeness.DEFAULT;
    private long pendingMemoryBytes = DEFAULT_PENDING_MEMORY_BYTES;
    private Path spillDir;
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
    private int connections = DEFAULT_CONNECTIONS;
    private String urlFrontierUri;
    private Path urlFrontierCaCert;
    private Path urlFrontierTokenFile;
    private Duration recrawlAfter;
    private boolean service;

    private Builder() {}

    /**
     * Opens a frontier service's store ({@link OpenFrontier#crawls()}): every crawl by ID, each
     * created with a Sieve of these settings' size and rate, its queues delayed by the politeness
     * delay (whole seconds) until their client sets one; in memory (pending URLs past the memory
     * budget spilled), in the state directory, or in Redis.
     */
    public Builder service() {
      this.service = true;
      return this;
    }

    /**
     * Makes each URL done due again {@code interval} after it was done, for ever (null, the
     * default: never); a local frontier only.
     */
    public Builder recrawlAfter(Duration interval) {
      this.recrawlAfter = interval;
      return this;
    }

    /** The crawl's seeds (default none): a resumed crawl checks them against its saved ones. */
    public Builder seeds(List<Url> seeds) {
      this.seeds = Objects.requireNonNull(seeds, "seeds");
      return this;
    }

    /** The seen filter's kind, capacity and false-positive rate, and whether it grows past it. */
    public Builder seenFilter(SeenFilter kind, long expectedUrls, double falsePositiveRate, boolean grow) {
      return seenFilter(kind).expectedUrls(expectedUrls).falsePositiveRate(falsePositiveRate)
          .growOnCapacity(grow);
    }

    /** The seen filter's structure (default {@link SeenFilter#BLOCKED}). */
    public Builder seenFilter(SeenFilter kind) {
      this.seenFilter = Objects.requireNonNull(kind, "seenFilter");
      return this;
    }

    /** The seen filter's capacity in distinct URLs (default 10,000,000). */
    public Builder expectedUrls(long expectedUrls) {
      this.expectedUrls = expectedUrls;
      return this;
    }

    /** The seen filter's target false-positive rate (default 1e-6). */
    public Builder falsePositiveRate(double falsePositiveRate) {
      this.falsePositiveRate = falsePositiveRate;
      return this;
    }

    /**
     * Past the expected URLs, grow the seen filter with scalable layers so its false-positive rate
     * stays at target (default), or keep one fixed filter whose rate climbs (both warn).
     */
    public Builder growOnCapacity(boolean grow) {
      this.growOnCapacity = grow;
      return this;
    }

    /** How each politeness key is treated (default {@link Politeness#DEFAULT}). */
    public Builder politeness(Politeness politeness) {
      this.politeness = Objects.requireNonNull(politeness, "politeness");
      return this;
    }

    /** Memory for pending URLs (default 256 MiB); beyond it they spill to disk. */
    public Builder pendingMemoryBytes(long bytes) {
      this.pendingMemoryBytes = bytes;
      return this;
    }

    /**
     * Where pending URLs past the memory budget spill when there is no state directory (default:
     * a temporary directory, deleted at exit).
     */
    public Builder spillDir(Path dir) {
      this.spillDir = dir;
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
      return stateDir(dir).freshState(fresh).checkpointInterval(interval)
          .diskReserveBytes(diskReserveBytes);
    }

    /** Keeps a local frontier's state (checkpoints and journals) in {@code dir} (default: none). */
    public Builder stateDir(Path dir) {
      this.stateDir = dir;
      return this;
    }

    /** Starts over even if the state directory holds a crawl, deleting its state. */
    public Builder freshState(boolean fresh) {
      this.freshState = fresh;
      return this;
    }

    /** Time between checkpoints (default 60 s); one is also written when the crawl stops. */
    public Builder checkpointInterval(Duration interval) {
      this.checkpointInterval = Objects.requireNonNull(interval, "checkpointInterval");
      return this;
    }

    /** New URLs wait while the state disk has less free space than this (default 1 GiB). */
    public Builder diskReserveBytes(long bytes) {
      this.diskReserveBytes = bytes;
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
     * Where the frontier lives, as {@code crawl --frontier} writes it: {@value #LOCAL} (this
     * process; default), {@code redis://…} or {@code redis-cluster://…} (see {@link #redis}), or
     * {@code urlfrontier://HOST:PORT} (see {@link #urlFrontier}, which takes no connections).
     */
    public Builder where(String frontier, String crawlId, Duration leaseDuration, int connections) {
      String uri = Objects.requireNonNull(frontier, "frontier").strip();
      if (uri.equalsIgnoreCase(LOCAL)) {
        return this;
      }
      return uri.toLowerCase(Locale.ROOT).matches("urlfrontier(\\+tls)?:.*")
          ? urlFrontier(uri, crawlId, leaseDuration)
          : redis(uri, crawlId, leaseDuration, connections);
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

    /**
     * How to reach the URL Frontier service: {@code caCert} a PEM file of CAs its certificate may
     * chain to besides the system's ({@code urlfrontier+tls://} only), {@code tokenFile} a file
     * holding the bearer token to send; null for none. Read when the frontier is opened.
     */
    public Builder urlFrontierAccess(Path caCert, Path tokenFile) {
      this.urlFrontierCaCert = caCert;
      this.urlFrontierTokenFile = tokenFile;
      return this;
    }

    /** @throws IllegalArgumentException naming the first setting out of range */
    public FrontierSettings build() {
      Check.positive("expectedUrls", expectedUrls);
      Check.rate("falsePositiveRate", falsePositiveRate);
      Check.positive("pendingMemoryBytes", pendingMemoryBytes);
      if (growOnCapacity && seenFilter == SeenFilter.CUCKOO) {
        throw new IllegalArgumentException(
            "seenFilter (cuckoo) has a fixed size and cannot grow: set on-capacity warn");
      }
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
      if (service && urlFrontierUri != null) {
        throw new IllegalArgumentException("urlFrontierUri (" + urlFrontierUri + ") is a service"
            + " already: a service's frontier lives in memory, a state directory or Redis");
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
