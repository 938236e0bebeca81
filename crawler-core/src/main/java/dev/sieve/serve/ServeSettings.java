package dev.sieve.serve;

import dev.sieve.frontier.FrontierSettings;
import dev.sieve.frontier.Politeness;
import dev.sieve.serve.access.Access;
import dev.sieve.serve.limits.ServeLimits;
import dev.sieve.settings.Check;
import java.nio.file.Path;
import java.time.Duration;

/**
 * What {@code serve} runs with: where it listens, how each crawl's Sieve is sized, and the limits
 * that keep bad input from hurting the service. Immutable; validated once in {@link
 * Builder#build()}, with messages naming the setting as its option.
 */
public final class ServeSettings {
  public static final String DEFAULT_HOST = "127.0.0.1";
  public static final int DEFAULT_PORT = 7071;
  /** Per crawl ID: its Sieve starts at this capacity and grows, keeping the rate. */
  public static final long DEFAULT_EXPECTED_URLS = 1_000_000;
  /** A GetURLs lease when the request's delay_requestable is 0, as the reference service's. */
  public static final int DEFAULT_LEASE_SECONDS = 30;
  /** Seconds between two productions of a queue until SetDelay says otherwise (reference's). */
  public static final int DEFAULT_QUEUE_DELAY_SECONDS = 1;
  /** The most URLs one GetURLs, ListURLs or ListQueues answer carries. */
  public static final int DEFAULT_MAX_URLS_PER_CALL = 100_000;
  public static final int DEFAULT_MAX_URL_LENGTH = 8_192;
  /** Longer keys are refused, as the reference service refuses them. */
  public static final int DEFAULT_MAX_KEY_LENGTH = 255;
  public static final int DEFAULT_MAX_METADATA_BYTES = 65_536;
  /** Seconds between two checkpoints of {@code --state}. */
  public static final int DEFAULT_CHECKPOINT_SECONDS = 60;
  /**
   * With {@code --frontier}: a node is listed by ListNodes until this long after its last
   * heartbeat (it beats every third of it).
   */
  public static final int DEFAULT_NODE_TTL_SECONDS = 10;

  public final String host;
  public final int port;
  public final long expectedUrls;
  public final double falsePositiveRate;
  public final int leaseSeconds;
  public final int queueDelaySeconds;
  public final int maxUrlsPerCall;
  public final int maxUrlLength;
  public final int maxKeyLength;
  public final int maxMetadataBytes;
  /** Where the service keeps its checkpoint and journal; null: in memory only. */
  public final Path stateDir;
  public final int checkpointSeconds;
  /** {@code redis://HOST:PORT[/DB]} holding every crawl, shared by the nodes given it; or null. */
  public final String frontier;
  public final int nodeTtlSeconds;
  /** Heap each crawl's pending URLs may take before they spill to disk. */
  public final long pendingMemoryBytes;
  /** What clients can make the service hold. */
  public final ServeLimits limits;
  /** TLS, tokens and the networks allowed in; {@link Access#open()} by default. */
  public final Access access;

  private ServeSettings(Builder b) {
    this.host = b.host;
    this.port = b.port;
    this.expectedUrls = b.expectedUrls;
    this.falsePositiveRate = b.falsePositiveRate;
    this.leaseSeconds = b.leaseSeconds;
    this.queueDelaySeconds = b.queueDelaySeconds;
    this.maxUrlsPerCall = b.maxUrlsPerCall;
    this.maxUrlLength = b.maxUrlLength;
    this.maxKeyLength = b.maxKeyLength;
    this.maxMetadataBytes = b.maxMetadataBytes;
    this.stateDir = b.stateDir;
    this.checkpointSeconds = b.checkpointSeconds;
    this.frontier = b.frontier;
    this.nodeTtlSeconds = b.nodeTtlSeconds;
    this.pendingMemoryBytes = b.pendingMemoryBytes;
    this.limits = b.limits;
    this.access = b.access;
  }

  /** Connections to Redis: one per call handler ({@link FrontierServer}'s), a few to spare. */
  static final int REDIS_CONNECTIONS = 20;

  /**
   * Where and how the service's crawls live, for {@link dev.sieve.frontier.Frontiers#open}: every
   * crawl's Sieve size and rate, the queues' default delay, the pending URLs' heap; in Redis,
   * in the state directory, or in memory.
   */
  public FrontierSettings frontierSettings() {
    FrontierSettings.Builder engine = FrontierSettings.builder().service()
        .expectedUrls(expectedUrls).falsePositiveRate(falsePositiveRate)
        .politeness(Politeness.DEFAULT.withDelay(Duration.ofSeconds(queueDelaySeconds)))
        .pendingMemoryBytes(pendingMemoryBytes)
        .stateDir(stateDir).checkpointInterval(Duration.ofSeconds(checkpointSeconds));
    if (frontier != null) {
      engine.redis(frontier.strip(), null, Duration.ofSeconds(leaseSeconds), REDIS_CONNECTIONS);
    }
    return engine.build();
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Builds {@link ServeSettings}; every setting has its default. */
  public static final class Builder {
    private String host = DEFAULT_HOST;
    private int port = DEFAULT_PORT;
    private long expectedUrls = DEFAULT_EXPECTED_URLS;
    private double falsePositiveRate =
        Double.parseDouble(FrontierSettings.DEFAULT_FALSE_POSITIVE_RATE);
    private int leaseSeconds = DEFAULT_LEASE_SECONDS;
    private int queueDelaySeconds = DEFAULT_QUEUE_DELAY_SECONDS;
    private int maxUrlsPerCall = DEFAULT_MAX_URLS_PER_CALL;
    private int maxUrlLength = DEFAULT_MAX_URL_LENGTH;
    private int maxKeyLength = DEFAULT_MAX_KEY_LENGTH;
    private int maxMetadataBytes = DEFAULT_MAX_METADATA_BYTES;
    private Path stateDir;
    private int checkpointSeconds = DEFAULT_CHECKPOINT_SECONDS;
    private String frontier;
    private int nodeTtlSeconds = DEFAULT_NODE_TTL_SECONDS;
    private long pendingMemoryBytes = FrontierSettings.DEFAULT_PENDING_MEMORY_BYTES;
    private ServeLimits limits = ServeLimits.defaults();
    private Access access = Access.open();

    private Builder() {}

    public Builder limits(ServeLimits limits) {
      this.limits = limits;
      return this;
    }

    /** Who may connect and call; a host beyond loopback needs more than {@link Access#open()}. */
    public Builder access(Access access) {
      this.access = access;
      return this;
    }

    public Builder maxMetadataBytes(int maxMetadataBytes) {
      this.maxMetadataBytes = maxMetadataBytes;
      return this;
    }

    public Builder host(String host) {
      this.host = host;
      return this;
    }

    /** The port to listen on; 0 picks a free one. */
    public Builder port(int port) {
      this.port = port;
      return this;
    }

    public Builder expectedUrls(long expectedUrls) {
      this.expectedUrls = expectedUrls;
      return this;
    }

    public Builder falsePositiveRate(double falsePositiveRate) {
      this.falsePositiveRate = falsePositiveRate;
      return this;
    }

    public Builder leaseSeconds(int leaseSeconds) {
      this.leaseSeconds = leaseSeconds;
      return this;
    }

    public Builder queueDelaySeconds(int queueDelaySeconds) {
      this.queueDelaySeconds = queueDelaySeconds;
      return this;
    }

    public Builder maxUrlsPerCall(int maxUrlsPerCall) {
      this.maxUrlsPerCall = maxUrlsPerCall;
      return this;
    }

    public Builder maxUrlLength(int maxUrlLength) {
      this.maxUrlLength = maxUrlLength;
      return this;
    }

    /** The state directory: the service survives a restart there; null keeps it in memory. */
    public Builder stateDir(Path stateDir) {
      this.stateDir = stateDir;
      return this;
    }

    public Builder checkpointSeconds(int checkpointSeconds) {
      this.checkpointSeconds = checkpointSeconds;
      return this;
    }

    /**
     * Keep every crawl in Redis ({@code redis://HOST:PORT[/DB]}), shared by every serve node
     * given the same; null keeps them in this process.
     */
    public Builder frontier(String frontier) {
      this.frontier = frontier;
      return this;
    }

    /**
     * Heap each crawl's pending URLs may take (a few bytes per URL) before the oldest spill to
     * disk: inside the state directory, or a temporary one.
     */
    public Builder pendingMemoryBytes(long pendingMemoryBytes) {
      this.pendingMemoryBytes = pendingMemoryBytes;
      return this;
    }

    public Builder nodeTtlSeconds(int nodeTtlSeconds) {
      this.nodeTtlSeconds = nodeTtlSeconds;
      return this;
    }

    /**
     * @throws IllegalArgumentException naming the first bad setting, or refusing a host beyond
     *     loopback that the access leaves open ({@link Access#exposure})
     */
    public ServeSettings build() {
      Check.notBlank("--host", host);
      Check.between("--port", port, 0, 65_535);
      Check.positive("--expected-urls", expectedUrls);
      Check.rate("--fpp", falsePositiveRate);
      Check.positive("lease seconds", leaseSeconds);
      Check.atLeast("queue delay seconds", queueDelaySeconds, 0);
      Check.positive("--max-urls-per-call", maxUrlsPerCall);
      Check.positive("max URL length", maxUrlLength);
      Check.positive("max key length", maxKeyLength);
      Check.positive("--max-metadata-bytes", maxMetadataBytes);
      long item = (long) maxUrlLength + maxMetadataBytes + 2L * maxKeyLength + 1_024;
      if (limits.maxMessageBytes < item) {
        throw new IllegalArgumentException("--max-message-bytes (" + limits.maxMessageBytes
            + ") must hold the largest item: at least " + item + " with --max-metadata-bytes "
            + maxMetadataBytes);
      }
      Check.positive("--checkpoint-interval", checkpointSeconds);
      Check.positive("node TTL seconds", nodeTtlSeconds);
      Check.positive("--pending-memory", pendingMemoryBytes);
      if (frontier != null && !frontier.strip().matches("redis://[^/,]+(/\\d*)?")
          && !frontier.strip().matches("redis-cluster://[^/]+")) {
        throw new IllegalArgumentException("--frontier (" + frontier
            + ") must be redis://HOST:PORT[/DB] or redis-cluster://HOST:PORT[,HOST:PORT...]");
      }
      if (frontier != null && stateDir != null) {
        throw new IllegalArgumentException("--frontier and --state cannot be used together:"
            + " with --frontier the crawls are kept (and made durable) by Redis");
      }
      String exposed = access.exposure("--host", host);
      if (exposed != null) {
        throw new IllegalArgumentException(exposed);
      }
      return new ServeSettings(this);
    }
  }
}
