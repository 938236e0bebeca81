package dev.sieve.frontier.redis;

import dev.sieve.bloom.BlockedBloomFilter;
import dev.sieve.bloom.FilterSizing;
import dev.sieve.frontier.FrontierSettings;
import dev.sieve.frontier.Politeness;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.BiConsumer;
import java.util.regex.Pattern;
import redis.clients.jedis.exceptions.JedisException;

/** Settings of a {@link RedisFrontier}, validated in {@link #build()}. */
public final class RedisFrontierBuilder {
  private static final Pattern CRAWL_ID = Pattern.compile("[A-Za-z0-9._-]{1,100}");

  private String uri;
  private String crawlId;
  private long expectedUrls = FrontierSettings.DEFAULT_EXPECTED_URLS;
  private double falsePositiveRate = Double.parseDouble(FrontierSettings.DEFAULT_FALSE_POSITIVE_RATE);
  private boolean growOnCapacity = true;
  private Politeness politeness = Politeness.DEFAULT;
  private Duration leaseDuration = Duration.ofSeconds(RedisFrontier.DEFAULT_LEASE_SECONDS);
  private int connections = 8;
  private long segmentBits = RedisFrontier.DEFAULT_SEGMENT_BITS;
  private Duration pollInterval = Duration.ofMillis(50);
  private BiConsumer<String, Long> onLease = (hostKey, millis) -> {};
  private Runnable afterFilterStep = () -> {};

  RedisFrontierBuilder() {}

  /**
   * The URI, crawl ID, seen filter, politeness, lease duration and connections of {@code
   * settings} (a Redis frontier's, {@link FrontierSettings#redisUri}).
   */
  public RedisFrontierBuilder settings(FrontierSettings settings) {
    return uri(settings.redisUri).crawlId(settings.crawlId).expectedUrls(settings.expectedUrls)
        .falsePositiveRate(settings.falsePositiveRate).growOnCapacity(settings.growOnCapacity)
        .politeness(settings.politeness).leaseDuration(settings.leaseDuration)
        .connections(settings.connections);
  }

  /** {@code redis://HOST:PORT[/DB]} or {@code redis-cluster://HOST:PORT[,HOST:PORT...]}. */
  public RedisFrontierBuilder uri(String uri) {
    this.uri = Objects.requireNonNull(uri, "uri");
    return this;
  }

  /** The crawl every process with this id (and Redis) joins: letters, digits, {@code ._-}. */
  public RedisFrontierBuilder crawlId(String crawlId) {
    this.crawlId = Objects.requireNonNull(crawlId, "crawlId");
    return this;
  }

  /** The seen filter's capacity, used when the crawl is created (default 10⁷). */
  public RedisFrontierBuilder expectedUrls(long expectedUrls) {
    this.expectedUrls = expectedUrls;
    return this;
  }

  /** The seen filter's false-positive rate at capacity (default 10⁻⁶). */
  public RedisFrontierBuilder falsePositiveRate(double falsePositiveRate) {
    this.falsePositiveRate = falsePositiveRate;
    return this;
  }

  /**
   * Past capacity: grow (default; the filter adds layers in Redis, each for twice the URLs at a
   * tighter rate, so the rate stays under the target) or not (one fixed filter whose rate climbs;
   * both warn), used when the crawl is created.
   */
  public RedisFrontierBuilder growOnCapacity(boolean grow) {
    this.growOnCapacity = grow;
    return this;
  }

  /** How each politeness key is treated (default {@link Politeness#DEFAULT}). */
  public RedisFrontierBuilder politeness(Politeness politeness) {
    this.politeness = Objects.requireNonNull(politeness, "politeness");
    return this;
  }

  /** The least time between fetch starts of one key (default 1 s): {@link Politeness#withDelay}. */
  public RedisFrontierBuilder politenessDelay(Duration delay) {
    return politeness(politeness.withDelay(Objects.requireNonNull(delay, "politenessDelay")));
  }

  /** At most this many fetches of one key at once (default 1). */
  public RedisFrontierBuilder maxInFlightPerHost(int max) {
    return politeness(politeness.withMaxInFlightPerHost(max));
  }

  /** How long a lease lasts before another process may take its URL again (default 120 s). */
  public RedisFrontierBuilder leaseDuration(Duration leaseDuration) {
    this.leaseDuration = Objects.requireNonNull(leaseDuration, "leaseDuration");
    return this;
  }

  /** Connections to Redis (per node in a cluster): the crawl's threads and a few (default 8). */
  public RedisFrontierBuilder connections(int connections) {
    this.connections = connections;
    return this;
  }

  /** Bits per filter segment, a multiple of 512 (tests use small ones to spread slots). */
  RedisFrontierBuilder segmentBits(long segmentBits) {
    this.segmentBits = segmentBits;
    return this;
  }

  /** The longest a waiting take() goes without asking Redis again (default 50 ms). */
  RedisFrontierBuilder pollInterval(Duration pollInterval) {
    this.pollInterval = Objects.requireNonNull(pollInterval, "pollInterval");
    return this;
  }

  /** Called with each lease's host and Redis time in epoch millis (tests). */
  RedisFrontierBuilder onLease(BiConsumer<String, Long> onLease) {
    this.onLease = Objects.requireNonNull(onLease, "onLease");
    return this;
  }

  /**
   * Run in Redis Cluster between a push's filter and queue steps (tests: throw to kill the push
   * there).
   */
  RedisFrontierBuilder afterFilterStep(Runnable hook) {
    this.afterFilterStep = Objects.requireNonNull(hook, "afterFilterStep");
    return this;
  }

  /**
   * Connects and creates the crawl in Redis, or joins it when it exists with the same settings.
   *
   * @throws IllegalArgumentException for a bad setting (the message names it)
   * @throws RedisFrontierException if Redis is unreachable or the crawl exists with other
   *     settings
   */
  public RedisFrontier build() {
    validate();
    SharedSettings settings = SharedSettings.create(expectedUrls, falsePositiveRate,
        growOnCapacity, segmentBits, politeness);
    RedisConnection connection = RedisConnection.open(RedisTarget.parse(uri), connections);
    try {
      Map<String, String> existing = settings.store(connection, crawlId);
      if (!existing.isEmpty()) {
        refuseMismatch(existing, settings.toMap());
        settings = SharedSettings.fromMap(existing);
      }
    } catch (JedisException e) {
      connection.close();
      throw connection.unusable(e);
    } catch (RuntimeException e) {
      connection.close();
      throw e;
    }
    return new RedisFrontier(connection, crawlId, settings, leaseDuration.toMillis(),
        pollInterval.toMillis(), onLease, afterFilterStep);
  }

  /**
   * Connects to an existing crawl with the settings it was created with, e.g. to read its
   * {@link RedisFrontier#status()}; only the URI and crawl id are used.
   *
   * @throws RedisFrontierException if Redis is unreachable or holds no crawl of that id
   */
  public RedisFrontier join() {
    checkIds();
    RedisConnection connection = RedisConnection.open(RedisTarget.parse(uri), 2);
    Map<String, String> meta;
    try {
      meta = connection.redis.hgetAll("sieve:{" + crawlId + "}:meta");
    } catch (JedisException e) {
      connection.close();
      throw connection.unusable(e);
    }
    if (meta.isEmpty()) {
      connection.close();
      throw new RedisFrontierException("no crawl '" + crawlId + "' in Redis at " + connection.where);
    }
    return new RedisFrontier(connection, crawlId, SharedSettings.fromMap(meta),
        leaseDuration.toMillis(), pollInterval.toMillis(), onLease, afterFilterStep);
  }

  private void refuseMismatch(Map<String, String> existing, Map<String, String> wanted) {
    List<String> differences = new ArrayList<>();
    for (String key : wanted.keySet()) {
      if (!Objects.equals(existing.get(key), wanted.get(key))) {
        differences.add(key + " " + existing.get(key) + " (this process: " + wanted.get(key)
            + ")");
      }
    }
    if (!differences.isEmpty()) {
      throw new RedisFrontierException("crawl '" + crawlId + "' in Redis was created with "
          + String.join(", ", differences) + "; join it with the same settings or use another"
          + " --crawl-id");
    }
  }

  private void checkIds() {
    if (uri == null) {
      throw new IllegalArgumentException("uri (null) must be redis://HOST:PORT[/DB] or"
          + " redis-cluster://HOST:PORT[,...]");
    }
    if (crawlId == null || !CRAWL_ID.matcher(crawlId).matches()) {
      throw new IllegalArgumentException("crawl-id (" + crawlId + ") must be 1 to 100 letters,"
          + " digits, '.', '_' or '-'");
    }
  }

  private void validate() {
    checkIds();
    FilterSizing.blocked(expectedUrls, falsePositiveRate); // throws naming the bad value
    if (leaseDuration.toMillis() < 1) {
      throw new IllegalArgumentException("leaseDuration (" + leaseDuration + ") must be >= 1 ms");
    }
    if (connections < 1) {
      throw new IllegalArgumentException("connections (" + connections + ") must be >= 1");
    }
    if (segmentBits < BlockedBloomFilter.BLOCK_BITS || segmentBits % BlockedBloomFilter.BLOCK_BITS != 0
        || segmentBits > (1L << 32)) {
      throw new IllegalArgumentException("segmentBits (" + segmentBits + ") must be a multiple"
          + " of 512 in [512, 2^32]");
    }
    if (pollInterval.toMillis() < 1) {
      throw new IllegalArgumentException("pollInterval (" + pollInterval + ") must be >= 1 ms");
    }
  }
}
