package dev.sieve.frontier.redis;

import dev.sieve.bloom.Hash128;
import dev.sieve.frontier.redis.RedisConnection.Script;
import dev.sieve.url.Url;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
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
  private final RedisConnection connection;
  private final SeenBitmaps bitmaps;
  private final SharedSettings settings;
  private final String prefix;
  private final String statsKey;
  private final ClusterPush cluster;
  private final Script push = RedisScripts.PUSH;

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
      List<List<String>> payloads = new ArrayList<>(n);
      for (int i = 0; i < n; i++) {
        payloads.add(List.of(hosts[i], entries[i]));
      }
      List<?> out = bitmaps.run(push, List.of(statsKey), hashes, FilterRequest.of(List.of(prefix,
          Long.toString(settings.maxUrlsPerHost()), Integer.toString(settings.maxInFlightPerHost())),
          payloads));
      int queued = 0;
      for (int i = 0; i < n; i++) {
        if (RedisConnection.asLong(out.get(i)) == 1) {
          queued++;
        }
      }
      return queued;
    } catch (JedisException e) {
      throw connection.failure("push", e);
    }
  }
}
