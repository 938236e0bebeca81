package dev.sieve.frontier.redis;

import dev.sieve.bloom.BlockedBloomFilter;
import dev.sieve.bloom.FilterSizing;
import dev.sieve.bloom.Hash128;
import dev.sieve.frontier.Sieve;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.clients.jedis.AbstractPipeline;
import redis.clients.jedis.Response;
import redis.clients.jedis.exceptions.JedisException;
import redis.clients.jedis.params.SetParams;

/**
 * The crawl's seen filter in Redis: the {@link BlockedBloomFilter} layout ({@link
 * BlockedBloomFilter#blockOf}, {@link BlockedBloomFilter#bitsOf}), sized as {@link
 * FilterSizing#blocked} sizes it, kept as bitmaps of {@value RedisFrontier#DEFAULT_SEGMENT_BITS}
 * bits ("segments"; one Redis string holds at most 2³² bits). A URL's k bits lie in one 512-bit
 * block, so one segment: a single {@code BITFIELD SET} inside a script sets them and returns the
 * old bits, which tells exactly one process, of all, that the URL is new. The same script adds the
 * bits it flipped to the segment's counter, from which every process estimates the distinct URLs
 * seen ({@code n̂ = ln(1 − X/m) / ln(1 − c/b)}, as the in-memory filter does), the current
 * false-positive rate, and the capacity warnings: each threshold is logged once per crawl, by the
 * process that claims it first (a {@code SET NX}), in {@link Sieve}'s format on logger {@value
 * Sieve#CAPACITY_LOGGER}. Thread-safe.
 */
final class SeenBitmaps {
  private static final Logger capacityLog = LoggerFactory.getLogger(Sieve.CAPACITY_LOGGER);
  private static final long COUNT_REFRESH_NANOS = TimeUnit.SECONDS.toNanos(1);

  private final RedisConnection connection;
  private final String crawlId;
  private final SharedSettings settings;
  private final long blocksPerSegment;
  private final int segments;
  private final double logUnsetPerKey;
  /** Each segment's set-bit count as last seen; counts only grow. */
  private final AtomicLongArray segmentBits;
  private volatile long countsReadAt;
  /** Index of the next capacity threshold; guarded by {@code this}. */
  private int nextThreshold;
  private volatile long nextThresholdCount;
  private final AtomicInteger capacityWarnings = new AtomicInteger();

  SeenBitmaps(RedisConnection connection, String crawlId, SharedSettings settings) {
    this.connection = connection;
    this.crawlId = crawlId;
    this.settings = settings;
    this.blocksPerSegment = settings.segmentBits() / BlockedBloomFilter.BLOCK_BITS;
    this.segments = (int) ((settings.blocks() + blocksPerSegment - 1) / blocksPerSegment);
    double c = -Math.expm1(settings.hashes() * Math.log1p(-1.0 / BlockedBloomFilter.BLOCK_BITS));
    this.logUnsetPerKey = Math.log1p(-c / settings.blocks());
    this.segmentBits = new AtomicLongArray(segments);
    this.nextThresholdCount = thresholdCount(0);
  }

  /**
   * Where the URL with {@code hash} lies: fills {@code offsets} with its k bit offsets in its
   * segment and returns the segment.
   */
  int locate(Hash128 hash, String[] offsets, int[] positions) {
    long block = BlockedBloomFilter.blockOf(hash, settings.blocks());
    long base = (block % blocksPerSegment) * BlockedBloomFilter.BLOCK_BITS;
    BlockedBloomFilter.bitsOf(hash, settings.hashes(), positions);
    for (int j = 0; j < settings.hashes(); j++) {
      offsets[j] = Long.toString(base + positions[j]);
    }
    return (int) (block / blocksPerSegment);
  }

  int segments() {
    return segments;
  }

  String segmentKey(int segment) {
    return "sieve:{" + crawlId + ":seg:" + segment + "}";
  }

  String countKey(int segment) {
    return segmentKey(segment) + ":bits";
  }

  /** A script reported the segment's set-bit count. */
  void noteCount(int segment, long count) {
    segmentBits.accumulateAndGet(segment, count, Math::max);
  }

  long approximateSeen() {
    refreshCounts(false);
    return Math.round(estimate());
  }

  double seenFpp() {
    refreshCounts(false);
    return fppAt(estimate());
  }

  int capacityWarnings() {
    return capacityWarnings.get();
  }

  long setBits() {
    long total = 0;
    for (int i = 0; i < segments; i++) {
      total += segmentBits.get(i);
    }
    return total;
  }

  double estimate() {
    long bits = settings.blocks() * BlockedBloomFilter.BLOCK_BITS;
    long set = setBits();
    if (set >= bits) {
      return Long.MAX_VALUE;
    }
    return Math.log1p(-(double) set / bits) / logUnsetPerKey;
  }

  double fppAt(double n) {
    long bits = settings.blocks() * BlockedBloomFilter.BLOCK_BITS;
    if (n * settings.hashes() / bits > 40) {
      return 1;
    }
    return BlockedBloomFilter.falsePositiveRate(Math.round(n), bits, settings.hashes());
  }

  /** Reads every segment's counter (pipelined), at most once a second unless forced. */
  void refreshCounts(boolean force) {
    long now = System.nanoTime();
    if (!force && countsReadAt != 0 && now - countsReadAt < COUNT_REFRESH_NANOS) {
      return;
    }
    countsReadAt = now;
    List<Response<String>> counts = new ArrayList<>(segments);
    try (AbstractPipeline pipeline = connection.pipelined()) {
      for (int i = 0; i < segments; i++) {
        counts.add(pipeline.get(countKey(i)));
      }
      pipeline.sync();
    } catch (JedisException e) {
      throw connection.failure("read the seen filter's counters", e);
    }
    for (int i = 0; i < segments; i++) {
      String value = counts.get(i).get();
      if (value != null) {
        noteCount(i, Long.parseLong(value));
      }
    }
  }

  private long thresholdCount(int index) {
    return (long) Math.ceil(Sieve.threshold(index) * settings.expectedUrls());
  }

  /** After a push: warns of each capacity threshold crossed (reading idle segments now and then). */
  void checkCapacity() {
    if (estimate() >= nextThresholdCount) {
      warnCapacity();
    } else if (System.nanoTime() - countsReadAt > COUNT_REFRESH_NANOS && segments > 1) {
      // Segments this process has not touched lately: read them now and then.
      refreshCounts(false);
      if (estimate() >= nextThresholdCount) {
        warnCapacity();
      }
    }
  }

  /** Claims each threshold crossed in Redis; the one process that claims it logs it. */
  private synchronized void warnCapacity() {
    refreshCounts(true);
    double estimate = estimate();
    while (estimate >= thresholdCount(nextThreshold)) {
      int index = nextThreshold++;
      capacityWarnings.incrementAndGet();
      String claimed;
      try {
        claimed = connection.redis.set(
            "sieve:{" + crawlId + "}:warn:" + index, "1", SetParams.setParams().nx());
      } catch (JedisException e) {
        throw connection.failure("record a capacity warning", e);
      }
      if ("OK".equals(claimed)) {
        capacityLog.warn(String.format(Locale.ROOT,
            "Sieve capacity exceeded: ~%,d URLs seen, %.0f%% of capacity %,d; estimated"
                + " false-positive rate %.3g (target %.3g). New URLs are being dropped as seen"
                + " more often than planned: start a crawl with a larger --expected-urls.",
            Math.round(estimate), Sieve.threshold(index) * 100, settings.expectedUrls(),
            fppAt(estimate), settings.fpp()));
      }
    }
    nextThresholdCount = thresholdCount(nextThreshold);
  }
}
