package dev.sieve.frontier.redis;

import dev.sieve.bloom.BlockedBloomFilter;
import dev.sieve.bloom.Hash128;
import dev.sieve.frontier.Sieve;
import dev.sieve.frontier.redis.RedisConnection.Script;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.clients.jedis.AbstractPipeline;
import redis.clients.jedis.Response;
import redis.clients.jedis.exceptions.JedisException;
import redis.clients.jedis.params.SetParams;

/**
 * A seen filter in Redis ({@link SharedSieve}'s): a stack of {@link FilterLayer}s, each in the {@link
 * BlockedBloomFilter} layout. A URL's k bits in a layer lie in one 512-bit block, so one segment:
 * the process reads the block (a URL whose bits are all set is seen for good: bits are never
 * cleared, so the script would answer the same), and a script writes it back with the URL's bits
 * in one step with reading it again, which tells exactly one process, of all, that the URL is new
 * ({@link FilterCall}). A URL is new when no older layer holds it and the newest did not; bits
 * are only ever set in the newest layer.
 *
 * <p><b>Growth</b> (on-capacity grow): the layer list lives in Redis ({@code sieve:{ID}:layers},
 * one {@link FilterLayer#descriptor} per layer). The push script that finds a segment of the newest
 * layer holding its share of the capacity ({@link FilterLayer#sealAt}) seals it and sets nothing;
 * its process then seals every segment of the layer and appends the next one by a compare-and-set
 * script ({@link RedisScripts#GROW}): exactly one layer is added however many processes see it
 * full. A push whose newest layer is sealed sets nothing and is told so; the process reloads the
 * list (finishing a growth whose grower died after sealing) and pushes again.
 * So no bit is set in a layer once a newer one exists, and processes never disagree on a verdict.
 *
 * <p><b>Counts and warnings.</b> Scripts add the bits they flip to each segment's counter, from
 * which every process estimates each layer's URLs ({@code n̂ = ln(1 − X/m) / ln(1 − c/b)}), the
 * rate ({@code 1 − Π(1 − ε_i)}) and the capacity warnings: each threshold of the first layer's
 * capacity is logged once per crawl, by the process that claims it first (a {@code SET NX}), in
 * {@link Sieve}'s format on logger {@value Sieve#CAPACITY_LOGGER}. Thread-safe.
 */
final class SeenBitmaps {
  /** Bits per filter segment by default: 2²⁸ (32 MiB), well under Redis's 2³²-bit strings. */
  static final long DEFAULT_SEGMENT_BITS = 1L << 28;

  private static final Logger capacityLog = LoggerFactory.getLogger(Sieve.CAPACITY_LOGGER);
  /** Calls in a row that may find the filter grown before one goes through. */
  static final int MAX_ATTEMPTS = 64;
  private static final long COUNT_REFRESH_NANOS = TimeUnit.SECONDS.toNanos(1);

  private final RedisConnection connection;
  private final String crawlId;
  private final boolean oneSlot;
  private final SharedSettings settings;
  private final String layersKey;
  private final Script grow = RedisScripts.GROW;
  /** The layers, oldest first; replaced whole, only ever by a longer list. */
  private volatile List<FilterLayer> layers;
  private volatile long countsReadAt;
  /** Index of the next capacity threshold; guarded by {@code this}. */
  private int nextThreshold;
  private volatile long nextThresholdCount;
  private final AtomicInteger capacityWarnings = new AtomicInteger();

  /**
   * @param oneSlot whether every key of the filter lies in the slot of {@code {crawlId}} (so that
   *     one script can check it and change the caller's keys of that slot), not one per segment
   */
  SeenBitmaps(RedisConnection connection, String crawlId, SharedSettings settings,
      boolean oneSlot) {
    this.connection = connection;
    this.crawlId = crawlId;
    this.oneSlot = oneSlot;
    this.settings = settings;
    this.layersKey = "sieve:{" + crawlId + "}:layers";
    this.layers = List.of(settings.layer(crawlId, oneSlot, 0));
    this.nextThresholdCount = thresholdCount(0);
  }

  /** The layers as this process last read them, oldest first. */
  List<FilterLayer> layers() {
    return layers;
  }

  /** Reads the layer list from Redis, keeping the layers already known (and their counts). */
  List<FilterLayer> reload() {
    return adopt(connection.command("read the seen filter's layers", r -> r.lrange(layersKey, 0, -1)));
  }

  private synchronized List<FilterLayer> adopt(List<String> stored) {
    List<FilterLayer> known = layers;
    if (stored.size() <= known.size()) {
      return known;
    }
    List<FilterLayer> grown = new ArrayList<>(known);
    for (int i = known.size(); i < stored.size(); i++) {
      grown.add(FilterLayer.parse(crawlId, oneSlot, i, stored.get(i), settings.segmentBits()));
    }
    layers = List.copyOf(grown);
    return layers;
  }

  /**
   * A push found the newest layer of {@code seen} sealed: another process is growing the filter,
   * or died doing it. Reloads the list and finishes the growth if it is still unfinished.
   */
  void onSealed(List<FilterLayer> seen) {
    if (reload().size() == seen.size()) {
      grow(seen);
    }
  }

  /** Seals every segment of the newest layer of {@code seen}, then appends the next layer. */
  private void grow(List<FilterLayer> seen) {
    FilterLayer newest = seen.get(seen.size() - 1);
    FilterLayer next;
    try {
      next = settings.layer(crawlId, oneSlot, seen.size());
    } catch (IllegalArgumentException | ArithmeticException e) {
      throw new IllegalStateException("the seen filter cannot grow past " + seen.size()
          + " layers: " + e.getMessage(), e);
    }
    try {
      try (AbstractPipeline pipeline = connection.pipelined()) {
        for (int s = 0; s < newest.segments; s++) {
          pipeline.set(newest.sealKey(s), "1");
        }
        pipeline.sync();
      }
      List<?> stored = (List<?>) connection.eval(grow, List.of(layersKey),
          List.of(Integer.toString(seen.size()), next.descriptor()));
      List<String> descriptors = new ArrayList<>(stored.size());
      stored.forEach(d -> descriptors.add(RedisConnection.asString(d)));
      adopt(descriptors);
    } catch (JedisException e) {
      throw connection.failure("add a layer to the seen filter", e);
    }
  }

  /**
   * Runs {@code script}, laid out by a {@link FilterCall} over {@code hashes} as {@code request}
   * asks, over the layers as known; while it answers {-1} (the newest layer sealed: the filter
   * grew, or is growing) reloads them, finishing a growth left unfinished, and runs it again
   * (reading the blocks again). Notes the set-bit counts the script returns last.
   *
   * @return the script's answer without the counts; a negative first value other than -1 is the
   *     script's own
   * @throws JedisException if Redis fails
   * @throws IllegalStateException if the filter keeps growing under every attempt
   */
  List<?> run(Script script, List<String> lead, Hash128[] hashes, FilterRequest request) {
    for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      List<FilterLayer> seen = layers;
      FilterCall call = new FilterCall(connection, seen, settings.grow(), lead, hashes, request);
      List<?> out = (List<?>) connection.evalBinary(script, call.keys, call.args);
      long first = out.isEmpty() ? 0 : RedisConnection.asLong(out.get(0));
      if (first != -1) {
        return first >= 0 ? call.noteCounts(out) : out;
      }
      onSealed(seen);
    }
    throw new IllegalStateException("the seen filter kept growing under " + MAX_ATTEMPTS
        + " pushes in a row");
  }

  long approximateSeen() {
    refreshCounts(false);
    return Math.round(estimate());
  }

  double seenFpp() {
    refreshCounts(false);
    return fpp();
  }

  int capacityWarnings() {
    return capacityWarnings.get();
  }

  long setBits() {
    return layers.stream().mapToLong(FilterLayer::setBits).sum();
  }

  long bits() {
    return layers.stream().mapToLong(FilterLayer::bits).sum();
  }

  int segments() {
    return layers.stream().mapToInt(layer -> layer.segments).sum();
  }

  /** The distinct URLs seen: the sum of the layers' estimates. */
  double estimate() {
    double sum = 0;
    for (FilterLayer layer : layers) {
      sum += layer.estimate();
    }
    return sum;
  }

  /** The filter's false-positive rate now: {@code 1 − Π(1 − ε_i)} over the layers. */
  double fpp() {
    double allMiss = 1;
    for (FilterLayer layer : layers) {
      allMiss *= 1 - layer.fppAt(layer.estimate());
    }
    return 1 - allMiss;
  }

  /** Reads every segment's counter (pipelined), at most once a second unless forced. */
  void refreshCounts(boolean force) {
    long now = System.nanoTime();
    if (!force && countsReadAt != 0 && now - countsReadAt < COUNT_REFRESH_NANOS) {
      return;
    }
    countsReadAt = now;
    List<FilterLayer> current = settings.grow() ? reload() : layers;
    List<List<Response<String>>> counts = new ArrayList<>();
    try (AbstractPipeline pipeline = connection.pipelined()) {
      for (FilterLayer layer : current) {
        List<Response<String>> layerCounts = new ArrayList<>(layer.segments);
        for (int s = 0; s < layer.segments; s++) {
          layerCounts.add(pipeline.get(layer.countKey(s)));
        }
        counts.add(layerCounts);
      }
      pipeline.sync();
    } catch (JedisException e) {
      throw connection.failure("read the seen filter's counters", e);
    }
    for (int l = 0; l < current.size(); l++) {
      for (int s = 0; s < current.get(l).segments; s++) {
        String value = counts.get(l).get(s).get();
        if (value != null) {
          current.get(l).noteCount(s, Long.parseLong(value));
        }
      }
    }
  }

  private long thresholdCount(int index) {
    return (long) Math.ceil(Sieve.threshold(index) * settings.expectedUrls());
  }

  /** After a push: warns of each capacity threshold crossed (reading idle segments now and then). */
  void checkCapacity() {
    if (System.nanoTime() - countsReadAt > COUNT_REFRESH_NANOS) {
      refreshCounts(false);
    }
    if (estimate() >= nextThresholdCount) {
      warnCapacity();
    }
  }

  /** Claims each threshold crossed in Redis; the one process that claims it logs it. */
  private synchronized void warnCapacity() {
    refreshCounts(true);
    double estimate = estimate();
    while (estimate >= thresholdCount(nextThreshold)) {
      int index = nextThreshold++;
      capacityWarnings.incrementAndGet();
      String claimed = connection.command("record a capacity warning", r -> r.set(
          "sieve:{" + crawlId + "}:warn:" + index, "1", SetParams.setParams().nx()));
      if ("OK".equals(claimed)) {
        capacityLog.warn(String.format(Locale.ROOT,
            "Sieve capacity exceeded: ~%,d URLs seen, %.0f%% of capacity %,d; estimated"
                + " false-positive rate %.3g (target %.3g). %s",
            Math.round(estimate), Sieve.threshold(index) * 100, settings.expectedUrls(), fpp(),
            settings.fpp(), settings.grow()
                ? "The filter grows (" + layers.size() + " layers) to hold the rate: raise"
                    + " --expected-urls to use less memory."
                : "New URLs are being dropped as seen more often than planned: raise"
                    + " --expected-urls."));
      }
    }
    nextThresholdCount = thresholdCount(nextThreshold);
  }
}
