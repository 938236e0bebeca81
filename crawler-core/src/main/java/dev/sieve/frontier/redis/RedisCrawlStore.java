package dev.sieve.frontier.redis;

import static dev.sieve.frontier.redis.RedisConnection.asLong;
import static dev.sieve.frontier.redis.RedisConnection.asString;

import dev.sieve.frontier.FrontierTime;
import dev.sieve.frontier.queue.CrawlSnapshot;
import dev.sieve.frontier.queue.CrawlStore;
import dev.sieve.frontier.queue.PutResult;
import dev.sieve.frontier.queue.QueueStats;
import dev.sieve.frontier.queue.QueuedUrl;
import dev.sieve.frontier.queue.TakeLimits;
import dev.sieve.frontier.queue.UrlPut;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.zip.CRC32;

/**
 * One generation of a crawl ID in Redis, shared by every serve node: its queues spread over
 * {@link RedisShard}s by key, each shard's queues and Sieve in one slot, so that each change is one
 * script and a URL put through one node is handed out by exactly one GetURLs of any node. A batch
 * of puts costs one script per shard it touches, the shards' scripts run side by side
 * ({@link ShardCalls}); GetURLs over every queue visits the shards in
 * turn (starting one further each call) until its limits are met. Once DeleteCrawl removed this
 * generation (on any node) it is {@link #stale}: puts answer null, to go to the crawl created anew,
 * and the rest answer as for an empty crawl. Thread-safe.
 */
final class RedisCrawlStore extends CrawlStore {
  /** URLs one take script leases at most (GetURLs may ask 100,000): a few ms of Redis each. */
  static final int TAKE_CHUNK = 1_000;
  private final String id;
  final String generation;
  private final List<RedisShard> shards;
  private final ShardCalls calls;
  private final AtomicInteger turn = new AtomicInteger();
  private volatile boolean stale;
  /** The queues as last counted, -1 when to be counted again. */
  private volatile int queueCount = -1;

  RedisCrawlStore(String id, String generation, List<RedisShard> shards, ShardCalls calls) {
    this.id = id;
    this.generation = generation;
    this.shards = List.copyOf(shards);
    this.calls = calls;
  }

  @Override
  public String id() {
    return id;
  }

  boolean stale() {
    if (!stale && shards.stream().anyMatch(shard -> shard.gone)) {
      stale = true;
    }
    return stale;
  }

  void markStale() {
    stale = true;
  }

  List<RedisShard> shards() {
    return shards;
  }

  /** The shard of queue {@code key}: by the CRC-32 of its UTF-8, the same on every node. */
  static int shardOf(String key, int shards) {
    CRC32 crc = new CRC32();
    crc.update(key.getBytes(StandardCharsets.UTF_8));
    return (int) (crc.getValue() % shards);
  }

  private RedisShard shard(String key) {
    return shards.get(shardOf(key, shards.size()));
  }

  @Override
  public PutResult put(String key, String url, boolean discovered, long refetchFrom, byte[] metadata,
      long queueBudget, long now) {
    return putAll(List.of(new Put(key, url, discovered, refetchFrom, metadata)), queueBudget,
        now)[0];
  }

  /** One script per shard the items touch, each checking its queues' budget and skip mark. */
  @Override
  public PutResult[] putAll(List<? extends UrlPut> items, long queueBudget, long now) {
    PutResult[] results = new PutResult[items.size()];
    if (stale) {
      return results;
    }
    List<List<UrlPut>> byShard = new ArrayList<>();
    List<List<Integer>> positions = new ArrayList<>();
    for (int s = 0; s < shards.size(); s++) {
      byShard.add(new ArrayList<>());
      positions.add(new ArrayList<>());
    }
    for (int i = 0; i < items.size(); i++) {
      int s = shardOf(items.get(i).key(), shards.size());
      byShard.get(s).add(items.get(i));
      positions.get(s).add(i);
    }
    List<Runnable> puts = new ArrayList<>();
    for (int s = 0; s < shards.size(); s++) {
      if (!byShard.get(s).isEmpty()) {
        RedisShard shard = shards.get(s);
        List<UrlPut> part = byShard.get(s);
        List<Integer> at = positions.get(s);
        puts.add(() -> shard.put(part, at, queueBudget, now, results));
      }
    }
    if (!puts.isEmpty()) {
      calls.runAll(puts);
    }
    stale();
    queueCount = -1; // new queues: count again
    return results;
  }

  @Override
  public Optional<QueuedUrl> status(String key, String url) {
    List<?> out = shard(key).status(key, url);
    if (out == null) {
      return Optional.empty();
    }
    long answer = asLong(out.get(0));
    if (answer == -4) {
      return Optional.of(new QueuedUrl(key, url, asLong(out.get(1)),
          RedisListing.metadata(out.get(2)), asLong(out.get(3))));
    }
    return answer == 2 ? Optional.of(new QueuedUrl(key, url, 0, null, 0)) : Optional.empty();
  }

  @Override
  public int take(String key, TakeLimits limits, long now, List<QueuedUrl> out) {
    if (key != null) {
      return takeFrom(shard(key), key, limits, now, out);
    }
    int start = Math.floorMod(turn.getAndIncrement(), shards.size());
    int produced = 0;
    int taken = 0;
    for (int i = 0; i < shards.size(); i++) {
      TakeLimits left = limits.after(taken, produced);
      if (left.maxQueues() <= 0 || left.maxUrls() <= 0) {
        break;
      }
      int before = out.size();
      produced += takeFrom(shards.get((start + i) % shards.size()), "", left, now, out);
      taken += out.size() - before;
    }
    return produced;
  }

  /**
   * Leases from one shard in scripts of at most {@link #TAKE_CHUNK} URLs each, so that no script
   * runs long however many URLs the call asks for; a queue produces in one of them only.
   */
  private static int takeFrom(RedisShard shard, String key, TakeLimits limits, long now,
      List<QueuedUrl> out) {
    int produced = 0;
    int taken = 0;
    String since = "-1";
    while (true) {
      TakeLimits left = limits.after(taken, produced);
      if (left.maxQueues() <= 0 || left.maxUrls() <= 0) {
        return produced;
      }
      int chunk = Math.min(left.maxUrls(), TAKE_CHUNK);
      List<?> answer = shard.call("get URLs", RedisScripts.STORE_TAKE, key,
          Integer.toString(left.maxPerQueue()), Integer.toString(left.maxQueues()),
          Integer.toString(chunk), Long.toString(now),
          Long.toString(FrontierTime.plus(now, left.leaseMillis())),
          Long.toString(left.defaultDelayMillis()), since, left.fromRelease() ? "1" : "0");
      if (answer == null) {
        return produced;
      }
      int before = out.size();
      RedisListing.readUrls(answer, 2, false, out);
      produced += (int) asLong(answer.get(0));
      taken += out.size() - before;
      since = Long.toString(asLong(answer.get(1)));
      if (out.size() - before < chunk) {
        return produced;
      }
    }
  }

  @Override
  public QueueStats stats(String key, long now) {
    long[] sum = new long[5];
    for (RedisShard shard : key == null ? shards : List.of(shard(key))) {
      List<?> out = shard.call("read queue stats", RedisScripts.STORE_STATS,
          key == null ? "" : key, Long.toString(now));
      for (int i = 0; out != null && i < sum.length; i++) {
        sum[i] += asLong(out.get(i));
      }
    }
    return new QueueStats(sum[0], sum[1], sum[2], sum[3], sum[4]);
  }

  /** Drops, shard by shard, the pending URLs first stored before {@code cutoff}: see the base. */
  @Override
  public long purge(String key, long cutoff) {
    return RedisListing.purge(over(key), key, cutoff);
  }

  /** Whether the queue exists: from what this node knows, else one round trip. */
  @Override
  public boolean hasQueue(String key) {
    return shard(key).hasQueue(key);
  }

  /** Whether this node met the queue: no round trip. */
  @Override
  public boolean metQueue(String key) {
    return shard(key).metQueue(key);
  }

  /**
   * The queues of every shard: one round trip per shard, read again only after this node put
   * URLs or deleted a queue since.
   */
  @Override
  public int queueCount() {
    int count = queueCount;
    if (count < 0) {
      long sum = 0;
      for (RedisShard shard : shards) {
        sum += shard.queueCount();
      }
      count = (int) Math.min(Integer.MAX_VALUE, sum);
      queueCount = count;
    }
    return count;
  }

  @Override
  public long deleteQueue(String key) {
    long pending = shard(key).deleteQueue(key);
    queueCount = -1;
    return pending;
  }

  /** One script on the queue's shard; {@link CrawlStore#SKIP} is serve-skip.lua. */
  @Override
  public boolean control(String key, byte op, long value) {
    if (op == CrawlStore.DELETE_QUEUE) {
      return deleteQueue(key) >= 0;
    }
    if (op == CrawlStore.PURGE) {
      purge(key.isEmpty() ? null : key, value);
      return true;
    }
    if (op == CrawlStore.SKIP) {
      List<?> out = shard(key).call("skip queue " + key, RedisScripts.STORE_SKIP, key);
      return out != null && asLong(out.get(0)) == 1;
    }
    String field = switch (op) {
      case CrawlStore.BLOCK -> "blocked";
      case CrawlStore.DELAY -> "delay";
      default -> "limit";
    };
    List<?> out = shard(key).call("change queue " + key, RedisScripts.STORE_CONTROL, key, field,
        Long.toString(value));
    return out != null && asLong(out.get(0)) == 1;
  }

  @Override
  public List<String> queueKeys(boolean includeInactive, long now) {
    TreeSet<String> keys = new TreeSet<>();
    for (RedisShard shard : shards) {
      List<?> out = shard.call("list queues", RedisScripts.STORE_QUEUE_KEYS,
          includeInactive ? "1" : "0", Long.toString(now));
      if (out != null) {
        out.forEach(key -> keys.add(asString(key)));
      }
    }
    return new ArrayList<>(keys);
  }

  /** Completed and pending URLs: see {@link RedisListing#list}. */
  @Override
  public List<QueuedUrl> list(String key, String filter, boolean ignoreCase, long start, long size) {
    return RedisListing.list(over(key), key, filter, ignoreCase, start, size);
  }

  /** The URLs {@link #list} would list from 0. */
  @Override
  public long count(String key, String filter, boolean ignoreCase) {
    return RedisListing.count(over(key), key, filter, ignoreCase);
  }

  /** The shards holding queue {@code key}, or every shard when it is null. */
  private List<RedisShard> over(String key) {
    return key == null ? shards : List.of(shard(key));
  }

  /** The URLs the shards' Sieves saw, and their rate weighted by what each saw. */
  @Override
  public Map<String, Long> filterStats() {
    long seen = 0;
    long bits = 0;
    int layers = 0;
    double weighted = 0;
    for (RedisShard shard : shards) {
      long shardSeen = shard.sieve.approximateSeen();
      seen += shardSeen;
      weighted += shard.sieve.fpp() * shardSeen;
      bits += shard.sieve.bits();
      layers = Math.max(layers, shard.sieve.layers());
    }
    return filterStats(seen, seen == 0 ? 0 : weighted / seen, shards.get(0).sieve.targetFpp(),
        bits, layers);
  }

  @Override
  public Map<String, Long> counters() {
    Map<String, Long> out = new TreeMap<>();
    for (RedisShard shard : shards) {
      shard.counters().forEach((name, value) -> out.merge(name, Long.parseLong(value), Long::sum));
    }
    return out;
  }

  @Override
  public CrawlSnapshot snapshot(long now) {
    QueueStats totals = stats(null, now);
    Map<String, Long> filter = filterStats();
    return new CrawlSnapshot(id, totals.size(), totals.inFlight(), totals.queues(),
        totals.activeQueues(), totals.completed(), filter.get("filter.estimated_urls"),
        filter.get("filter.estimated_fpp_ppb") / 1e9, counters());
  }

  /** One put of {@link #put}, as a batch of one. */
  private record Put(String key, String url, boolean discovered, long refetchFrom,
      byte[] metadata) implements UrlPut {}
}
