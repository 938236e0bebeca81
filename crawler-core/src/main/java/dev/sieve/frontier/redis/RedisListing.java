package dev.sieve.frontier.redis;

import static dev.sieve.frontier.redis.RedisConnection.asLong;
import static dev.sieve.frontier.redis.RedisConnection.asString;

import dev.sieve.frontier.queue.QueuedUrl;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * What a {@link RedisCrawlStore} answers about its URLs beyond one queue's state, one script per
 * shard: ListURLs and CountURLs over its completed and pending URLs (serve-list.lua) and PurgeURLs
 * (serve-purge.lua); and the reading of the URLs a script answers. Stateless.
 */
final class RedisListing {
  private RedisListing() {}

  /**
   * Completed and pending URLs of queue {@code key} (every queue when null) of {@code shards},
   * shard by shard, each queue's completed ones (refetch 0, no metadata, no creation date) first,
   * then its waiting and leased ones: {@code size} of those containing {@code filter} from
   * position {@code start}.
   */
  static List<QueuedUrl> list(List<RedisShard> shards, String key, String filter,
      boolean ignoreCase, long start, long size) {
    List<QueuedUrl> urls = new ArrayList<>();
    long passed = 0;
    for (RedisShard shard : shards) {
      if (urls.size() >= size) {
        break;
      }
      List<?> out = shard.call("list URLs", RedisScripts.STORE_LIST, key == null ? "" : key,
          filter.isBlank() ? "" : filter, ignoreCase ? "1" : "0",
          Long.toString(Math.max(0, start - passed)), Long.toString(size - urls.size()), "0");
      if (out != null) {
        passed += asLong(out.get(0));
        readUrls(out, 1, true, urls);
      }
    }
    return urls;
  }

  /** The URLs {@link #list} would list from position 0. */
  static long count(List<RedisShard> shards, String key, String filter, boolean ignoreCase) {
    long count = 0;
    for (RedisShard shard : shards) {
      List<?> out = shard.call("count URLs", RedisScripts.STORE_LIST, key == null ? "" : key,
          filter.isBlank() ? "" : filter, ignoreCase ? "1" : "0", "0", "0", "1");
      count += out == null ? 0 : asLong(out.get(0));
    }
    return count;
  }

  /**
   * Drops the pending URLs of queue {@code key} (every queue when null) of {@code shards} first
   * stored before the epoch second {@code cutoff}; returns how many.
   */
  static long purge(List<RedisShard> shards, String key, long cutoff) {
    long dropped = 0;
    for (RedisShard shard : shards) {
      List<?> out = shard.call("purge URLs", RedisScripts.STORE_PURGE, key == null ? "" : key,
          Long.toString(cutoff));
      dropped += out == null ? 0 : asLong(out.get(0));
    }
    return dropped;
  }

  /**
   * Reads key, URL, due, metadata quadruples from {@code out[from]} on, or quintuples ending with
   * the creation date when {@code dated}.
   */
  static void readUrls(List<?> out, int from, boolean dated, List<QueuedUrl> urls) {
    int stride = dated ? 5 : 4;
    for (int i = from; i + stride - 1 < out.size(); i += stride) {
      urls.add(new QueuedUrl(asString(out.get(i)), asString(out.get(i + 1)),
          asLong(out.get(i + 2)), metadata(out.get(i + 3)), dated ? asLong(out.get(i + 4)) : 0));
    }
  }

  /** Metadata as a script answers it (Base64, or nil for none). */
  static byte[] metadata(Object stored) {
    return stored == null ? null : Base64.getDecoder().decode(asString(stored));
  }
}
