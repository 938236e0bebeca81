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
import redis.clients.jedis.AbstractPipeline;
import redis.clients.jedis.Response;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.exceptions.JedisException;

/**
 * Offers URLs to the crawl in Redis: each is checked-and-set in the {@link SeenBitmaps} and, if
 * new, queued last on its host, unless the host is over its budget or skipped (counted in Redis).
 * On a single server a push of many URLs (a page's links) is one script call that filters and
 * queues them together. In Redis Cluster ({@code redis-cluster://}) the filter segments are spread
 * over slots by hash tags ({@code sieve:{ID:seg:I}}) and the queues share one slot ({@code
 * sieve:{ID}:…}): a push filters per segment (one pipelined call per segment), then queues the new
 * URLs in one call. A process killed between the two steps loses those new URLs (the filter has
 * them, no queue does). Thread-safe.
 */
final class RedisPush {
  private final RedisConnection connection;
  private final SeenBitmaps bitmaps;
  private final SharedSettings settings;
  private final String prefix;
  private final String statsKey;
  private final Script push = new Script(RedisScripts.PUSH);
  private final Script filter = new Script(RedisScripts.FILTER);
  private final Script enqueue = new Script(RedisScripts.ENQUEUE);

  RedisPush(RedisConnection connection, SeenBitmaps bitmaps, SharedSettings settings, String prefix) {
    this.connection = connection;
    this.bitmaps = bitmaps;
    this.settings = settings;
    this.prefix = prefix;
    this.statsKey = prefix + "stats";
  }

  /**
   * Offers {@code urls} at {@code depth} with the redirect {@code chain} that led to them, the
   * URL they were found through ({@code via}, or null) and their sitemap {@code lastmod} (or null).
   *
   * @return how many were new and queued
   */
  int offer(List<Url> urls, int depth, List<String> chain, String via, Instant lastmod) {
    if (depth < 0) {
      throw new IllegalArgumentException("depth (" + depth + ") must be >= 0");
    }
    int k = settings.hashes();
    int[] positions = new int[k];
    int n = urls.size();
    int[] segmentOf = new int[n];
    String[][] offsets = new String[n][k];
    String[] hosts = new String[n];
    String[] entries = new String[n];
    for (int i = 0; i < n; i++) {
      Url url = urls.get(i);
      String text = url.toString();
      segmentOf[i] = bitmaps.locate(Hash128.of(text), offsets[i], positions);
      hosts[i] = settings.queueKey().of(url);
      entries[i] = QueueEntry.encode(text, depth, 0, chain, via, lastmod);
    }
    try {
      return connection.cluster
          ? offerCluster(n, segmentOf, offsets, hosts, entries)
          : offerSingle(n, segmentOf, offsets, hosts, entries);
    } catch (JedisException e) {
      throw connection.failure("push", e);
    }
  }

  /** One script call filters and queues every URL atomically. */
  private int offerSingle(int n, int[] segmentOf, String[][] offsets, String[] hosts,
      String[] entries) {
    Map<Integer, Integer> pairOf = new LinkedHashMap<>();
    List<String> keys = new ArrayList<>();
    keys.add(statsKey);
    List<String> args = new ArrayList<>();
    args.add(prefix);
    args.add(Long.toString(settings.maxUrlsPerHost()));
    args.add(Integer.toString(settings.maxInFlightPerHost()));
    args.add(Integer.toString(settings.hashes()));
    for (int i = 0; i < n; i++) {
      Integer pair = pairOf.get(segmentOf[i]);
      if (pair == null) {
        pair = pairOf.size() + 1;
        pairOf.put(segmentOf[i], pair);
        keys.add(bitmaps.segmentKey(segmentOf[i]));
        keys.add(bitmaps.countKey(segmentOf[i]));
      }
      args.add(Integer.toString(pair));
      args.add(hosts[i]);
      args.add(entries[i]);
      args.addAll(Arrays.asList(offsets[i]));
    }
    List<?> out = (List<?>) connection.eval(push, keys, args);
    int queued = 0;
    for (int i = 0; i < n; i++) {
      if (RedisConnection.asLong(out.get(i)) == 1) {
        queued++;
      }
    }
    int p = n;
    for (int segment : pairOf.keySet()) {
      bitmaps.noteCount(segment, RedisConnection.asLong(out.get(p++)));
    }
    return queued;
  }

  /** Filters per segment (pipelined, one slot each), then queues the new URLs in the queue slot. */
  private int offerCluster(int n, int[] segmentOf, String[][] offsets, String[] hosts,
      String[] entries) {
    Map<Integer, List<Integer>> bySegment = new LinkedHashMap<>();
    for (int i = 0; i < n; i++) {
      bySegment.computeIfAbsent(segmentOf[i], s -> new ArrayList<>()).add(i);
    }
    Map<Integer, List<String>> keysOf = new LinkedHashMap<>();
    Map<Integer, List<String>> argsOf = new LinkedHashMap<>();
    Map<Integer, Response<Object>> responses = new LinkedHashMap<>();
    try (AbstractPipeline pipeline = connection.pipelined()) {
      for (Map.Entry<Integer, List<Integer>> group : bySegment.entrySet()) {
        int segment = group.getKey();
        List<String> keys = List.of(bitmaps.segmentKey(segment), bitmaps.countKey(segment));
        List<String> args = new ArrayList<>();
        args.add(Integer.toString(settings.hashes()));
        for (int i : group.getValue()) {
          args.addAll(Arrays.asList(offsets[i]));
        }
        keysOf.put(segment, keys);
        argsOf.put(segment, args);
        responses.put(segment, pipeline.evalsha(filter.sha, keys, args));
      }
      pipeline.sync();
    }
    List<String> args = new ArrayList<>();
    args.add(prefix);
    args.add(Long.toString(settings.maxUrlsPerHost()));
    args.add(Integer.toString(settings.maxInFlightPerHost()));
    for (Map.Entry<Integer, List<Integer>> group : bySegment.entrySet()) {
      int segment = group.getKey();
      List<?> out;
      try {
        out = (List<?>) responses.get(segment).get();
      } catch (JedisDataException e) {
        if (e.getMessage() == null || !e.getMessage().startsWith("NOSCRIPT")) {
          throw e;
        }
        // Not run: the node had no cached script, so run it now with its source.
        out = (List<?>) connection.redis.eval(filter.source, keysOf.get(segment), argsOf.get(segment));
      }
      List<Integer> members = group.getValue();
      for (int m = 0; m < members.size(); m++) {
        if (RedisConnection.asLong(out.get(m)) == 1) {
          int i = members.get(m);
          args.add(hosts[i]);
          args.add(entries[i]);
        }
      }
      bitmaps.noteCount(segment, RedisConnection.asLong(out.get(members.size())));
    }
    if (args.size() == 3) {
      return 0;
    }
    List<?> out = (List<?>) connection.eval(enqueue, List.of(statsKey), args);
    int queued = 0;
    for (Object flag : out) {
      if (RedisConnection.asLong(flag) == 1) {
        queued++;
      }
    }
    return queued;
  }
}
