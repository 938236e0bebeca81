package dev.sieve.frontier.redis;

import dev.sieve.bloom.Hash128;
import dev.sieve.frontier.redis.RedisConnection.Script;
import dev.sieve.url.Url;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import redis.clients.jedis.exceptions.JedisException;

/**
 * Offers URLs to the crawl in Redis: each is checked against every layer of the {@link
 * SeenBitmaps}, set in the newest and, if new, queued last on its host, unless the host is over
 * its budget or skipped (counted in Redis). On a single server a push of many URLs (a page's links)
 * is one script call that filters and queues them together. In Redis Cluster the filter and the
 * queues lie in different slots, so a push is several steps: {@link ClusterPush}, which never loses
 * a URL to a process killed between them. A push that finds the newest layer sealed (the filter
 * grew meanwhile) changed nothing and is made again over the new layers. Thread-safe.
 */
final class RedisPush {
  /** Pushes in a row that may find the filter grown before one goes through. */
  static final int MAX_ATTEMPTS = 64;

  private final RedisConnection connection;
  private final SeenBitmaps bitmaps;
  private final SharedSettings settings;
  private final String prefix;
  private final String statsKey;
  private final ClusterPush cluster;
  private final Script push = new Script(RedisScripts.PUSH);

  RedisPush(RedisConnection connection, SeenBitmaps bitmaps, SharedSettings settings, String prefix,
      Runnable afterFilterStep) {
    this.connection = connection;
    this.bitmaps = bitmaps;
    this.settings = settings;
    this.prefix = prefix;
    this.statsKey = prefix + "stats";
    this.cluster = new ClusterPush(connection, bitmaps, settings, prefix, afterFilterStep);
  }

  ClusterPush cluster() {
    return cluster;
  }

  /**
   * Offers {@code urls} at {@code depth} with the redirect {@code chain} that led to them, the
   * URL they were found through ({@code via}, or null) and their sitemap {@code lastmod} (or null).
   *
   * @return how many were new and queued by this call
   */
  int offer(List<Url> urls, int depth, List<String> chain, String via, Instant lastmod) {
    if (depth < 0) {
      throw new IllegalArgumentException("depth (" + depth + ") must be >= 0");
    }
    int n = urls.size();
    Hash128[] hashes = new Hash128[n];
    String[] hosts = new String[n];
    String[] entries = new String[n];
    for (int i = 0; i < n; i++) {
      Url url = urls.get(i);
      String text = url.toString();
      hashes[i] = Hash128.of(text);
      hosts[i] = settings.queueKey().of(url);
      entries[i] = QueueEntry.encode(text, depth, 0, chain, via, lastmod);
    }
    try {
      if (connection.cluster) {
        return cluster.offer(hashes, hosts, entries);
      }
      for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
        List<FilterLayer> layers = bitmaps.layers();
        int queued = offerSingle(layers, hashes, hosts, entries);
        if (queued >= 0) {
          return queued;
        }
        bitmaps.onSealed(layers);
      }
      throw new IllegalStateException("the seen filter kept growing under " + MAX_ATTEMPTS
          + " pushes in a row");
    } catch (JedisException e) {
      throw connection.failure("push", e);
    }
  }

  /** One script call filters and queues every URL atomically; -1 if the newest layer is sealed. */
  private int offerSingle(List<FilterLayer> layers, Hash128[] hashes, String[] hosts,
      String[] entries) {
    Map<Long, Integer> tripleOf = new LinkedHashMap<>();
    List<FilterLayer> tripleLayer = new ArrayList<>();
    List<Integer> tripleSegment = new ArrayList<>();
    List<String> keys = new ArrayList<>();
    keys.add(statsKey);
    Map<Integer, Long> newest = new LinkedHashMap<>();
    List<String> urlArgs = new ArrayList<>();
    int[][] positions = new int[layers.size()][];
    for (int l = 0; l < layers.size(); l++) {
      positions[l] = new int[layers.get(l).hashes];
    }
    for (int i = 0; i < hashes.length; i++) {
      urlArgs.add(hosts[i]);
      urlArgs.add(entries[i]);
      for (int l = 0; l < layers.size(); l++) {
        FilterLayer layer = layers.get(l);
        String[] offsets = new String[layer.hashes];
        int segment = layer.locate(hashes[i], offsets, positions[l]);
        Integer triple = tripleOf.get(((long) l << 32) | segment);
        if (triple == null) {
          triple = tripleOf.size() + 1;
          tripleOf.put(((long) l << 32) | segment, triple);
          tripleLayer.add(layer);
          tripleSegment.add(segment);
          keys.add(layer.segmentKey(segment));
          keys.add(layer.countKey(segment));
          keys.add(layer.sealKey(segment));
        }
        if (l == layers.size() - 1) {
          newest.put(triple, settings.grow() ? layer.sealAt(segment) : -1);
        }
        urlArgs.add(Integer.toString(triple));
        urlArgs.add(Integer.toString(layer.hashes));
        urlArgs.addAll(Arrays.asList(offsets));
      }
    }
    List<String> args = new ArrayList<>();
    args.add(prefix);
    args.add(Long.toString(settings.maxUrlsPerHost()));
    args.add(Integer.toString(settings.maxInFlightPerHost()));
    args.add(Integer.toString(layers.size()));
    args.add(Integer.toString(newest.size()));
    newest.forEach((t, sealAt) -> {
      args.add(Integer.toString(t));
      args.add(Long.toString(sealAt));
    });
    args.addAll(urlArgs);
    List<?> out = (List<?>) connection.eval(push, keys, args);
    if (RedisConnection.asLong(out.get(0)) < 0) {
      return -1;
    }
    int n = hashes.length;
    int queued = 0;
    for (int i = 0; i < n; i++) {
      if (RedisConnection.asLong(out.get(i)) == 1) {
        queued++;
      }
    }
    for (int t = 0; t < tripleLayer.size(); t++) {
      tripleLayer.get(t).noteCount(tripleSegment.get(t), RedisConnection.asLong(out.get(n + t)));
    }
    return queued;
  }
}
