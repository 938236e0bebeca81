package dev.sieve.frontier.redis;

import dev.sieve.bloom.BlockedBloomFilter;
import dev.sieve.bloom.FilterSizing;
import dev.sieve.bloom.ScalableBloomFilter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A seen filter's settings, stored in Redis when it is created; later openers take them as they
 * are. {@code
 * blocks} and {@code hashes} are the first filter layer's. With {@code grow}, layer {@code i} holds
 * {@code n₀·2^i} URLs at rate {@code ε·(1 − r)·r^i} (r = {@value
 * ScalableBloomFilter#DEFAULT_TIGHTENING_RATIO}), as the in-process {@link ScalableBloomFilter}
 * with blocked layers, so the union stays under ε at any size; without, one layer at ε.
 */
record SharedSettings(long blocks, int hashes, long expectedUrls, double fpp, boolean grow,
    long segmentBits) {

  /** The version of this layout, stored with it (2: filter layers). */
  static final int FORMAT = 2;

  /** The settings of a new crawl: the first layer sized for {@code expectedUrls}. */
  static SharedSettings create(long expectedUrls, double fpp, boolean grow, long segmentBits) {
    FilterSizing.Plan plan = FilterSizing.blocked(expectedUrls, layerRate(fpp, grow, 0));
    return new SharedSettings(plan.bits() / BlockedBloomFilter.BLOCK_BITS, plan.hashes(),
        expectedUrls, fpp, grow, segmentBits);
  }

  private static double layerRate(double fpp, boolean grow, int i) {
    double r = ScalableBloomFilter.DEFAULT_TIGHTENING_RATIO;
    return grow ? fpp * (1 - r) * Math.pow(r, i) : fpp;
  }

  /**
   * Layer {@code i} of the filter as planned.
   *
   * @throws IllegalArgumentException if it cannot exist (too large)
   */
  FilterLayer layer(String crawlId, boolean oneSlot, int i) {
    if (i == 0) {
      return new FilterLayer(crawlId, oneSlot, 0, blocks, hashes, expectedUrls, segmentBits);
    }
    long capacity = expectedUrls;
    for (int j = 0; j < i; j++) {
      capacity = Math.multiplyExact(capacity, (long) ScalableBloomFilter.DEFAULT_GROWTH);
    }
    FilterSizing.Plan plan = FilterSizing.blocked(capacity, layerRate(fpp, grow, i));
    return new FilterLayer(crawlId, oneSlot, i, plan.bits() / BlockedBloomFilter.BLOCK_BITS,
        plan.hashes(), capacity, segmentBits);
  }

  /**
   * Creates crawl {@code crawlId} in Redis with these settings and its first filter layer, unless
   * it exists: returns the settings it was created with then, else an empty map.
   *
   * @throws redis.clients.jedis.exceptions.JedisException if Redis fails
   */
  Map<String, String> store(RedisConnection connection, String crawlId) {
    List<String> args = new ArrayList<>();
    args.add(layer(crawlId, false, 0).descriptor());
    toMap().forEach((k, v) -> {
      args.add(k);
      args.add(v);
    });
    List<?> stored = (List<?>) connection.eval(RedisScripts.INIT, List.of(
        "sieve:{" + crawlId + "}:meta", "sieve:{" + crawlId + "}:layers"), args);
    Map<String, String> existing = new LinkedHashMap<>();
    for (int i = 0; i + 1 < stored.size(); i += 2) {
      existing.put(RedisConnection.asString(stored.get(i)),
          RedisConnection.asString(stored.get(i + 1)));
    }
    return existing;
  }

  Map<String, String> toMap() {
    Map<String, String> map = new LinkedHashMap<>();
    map.put("format", Integer.toString(FORMAT));
    map.put("blocks", Long.toString(blocks));
    map.put("hashes", Integer.toString(hashes));
    map.put("expected-urls", Long.toString(expectedUrls));
    map.put("fpp", Double.toString(fpp));
    map.put("on-capacity", grow ? "grow" : "warn");
    map.put("segment-bits", Long.toString(segmentBits));
    return map;
  }

  static SharedSettings fromMap(Map<String, String> map) {
    // A filter a crawl's own Redis frontier created also holds its politeness (queue-key, delay-ms,
    // per-host, max-pages-per-host): no longer a filter's, ignored.
    if (!Integer.toString(FORMAT).equals(map.get("format"))) {
      throw new RedisFrontierException("the crawl's settings in Redis are of format "
          + map.get("format") + ", this build reads " + FORMAT);
    }
    return new SharedSettings(Long.parseLong(map.get("blocks")), Integer.parseInt(map.get("hashes")),
        Long.parseLong(map.get("expected-urls")), Double.parseDouble(map.get("fpp")),
        "grow".equals(map.get("on-capacity")), Long.parseLong(map.get("segment-bits")));
  }
}
