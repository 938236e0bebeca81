package dev.sieve.serve;

import static dev.sieve.frontier.redis.RedisConnection.asLong;
import static dev.sieve.frontier.redis.RedisConnection.asString;

import dev.sieve.frontier.queue.CrawlSnapshot;
import dev.sieve.frontier.queue.CrawlStore;
import dev.sieve.frontier.queue.PutResult;
import dev.sieve.frontier.queue.QueueStats;
import dev.sieve.frontier.queue.QueuedUrl;
import dev.sieve.frontier.queue.TakeLimits;
import dev.sieve.frontier.redis.RedisConnection.Script;
import dev.sieve.frontier.redis.RedisConnection;
import dev.sieve.frontier.redis.SharedSieve;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import redis.clients.jedis.exceptions.JedisException;

/**
 * One generation of a crawl ID in Redis (see {@link RedisServeScripts} for its keys), shared by
 * every serve node: each change is one script, so a URL put through one node is handed out by
 * exactly one GetURLs of any node. Its Sieve is a {@link SharedSieve} checked inside the put
 * script: check-and-set and enqueue are one atomic step. Once DeleteCrawl removed this generation
 * (on any node) it is {@link #stale}: puts answer null, to go to the crawl created anew, and the
 * rest answer as for an empty crawl. Thread-safe.
 */
final class RedisCrawl extends CrawlStore {
  private static final Script PUT = new Script(RedisServeScripts.PUT);
  private static final Script STATUS = new Script(RedisServeScripts.STATUS);
  private static final Script QUEUE = new Script(RedisServeScripts.QUEUE);
  private static final Script TAKE = new Script(RedisServeScripts.TAKE);
  private static final Script STATS = new Script(RedisServeScripts.STATS);
  private static final Script DELETE_QUEUE = new Script(RedisServeScripts.DELETE_QUEUE);
  private static final Script CONTROL = new Script(RedisServeScripts.CONTROL);
  private static final Script QUEUE_KEYS = new Script(RedisServeScripts.QUEUE_KEYS);
  private static final Script LIST = new Script(RedisServeScripts.LIST);
  /** The answer of a crawl script whose generation is gone. */
  private static final long GONE = -2;
  /** The answer of a script given a queue's old salt. */
  private static final long OTHER_SALT = -3;

  private final String id;
  final String generation;
  private final String crawlKey;
  private final String prefix;
  private final RedisConnection redis;
  final SharedSieve sieve;
  /** Queue key to its salt, as last read; a script answering {@link #OTHER_SALT} drops it. */
  private final Map<String, String> salts = new ConcurrentHashMap<>();
  volatile boolean stale;

  RedisCrawl(RedisConnection redis, String id, String namespace, String generation,
      SharedSieve sieve) {
    this.redis = redis;
    this.id = id;
    this.generation = generation;
    this.crawlKey = RedisStore.crawlKey(namespace);
    this.prefix = "serve:" + namespace + ":" + generation + ":";
    this.sieve = sieve;
  }

  @Override
  public String id() {
    return id;
  }

  @Override
  public PutResult put(String key, String url, boolean discovered, long refetchFrom, byte[] metadata,
      long now) {
    for (int attempt = 0; attempt < 100; attempt++) {
      String salt = salt(key, true);
      if (salt == null) {
        return null;
      }
      List<?> out = withFilter("put", PUT, key, url, salt, List.of(key, url, discovered ? "1" : "0",
          Long.toString(refetchFrom), Long.toString(now),
          metadata == null ? "" : Base64.getEncoder().encodeToString(metadata), salt));
      if (out == null) {
        return null;
      }
      if (out != RETRY) {
        return PutResult.values()[(int) asLong(out.get(0))];
      }
    }
    throw new IllegalStateException("queue '" + key + "' of crawl '" + id
        + "' kept being deleted and created again under the put of " + url);
  }

  @Override
  public Optional<QueuedUrl> status(String key, String url) {
    for (int attempt = 0; attempt < 100; attempt++) {
      String salt = salt(key, false);
      if (salt == null) {
        return Optional.empty();
      }
      List<?> out = withFilter("read the status of " + url, STATUS, key, url, salt,
          List.of(key, url, salt));
      if (out == null) {
        return Optional.empty();
      }
      if (out != RETRY) {
        long answer = asLong(out.get(0));
        if (answer == -4) {
          return Optional.of(new QueuedUrl(key, url, asLong(out.get(1)), metadata(out.get(2))));
        }
        return answer == 2 ? Optional.of(new QueuedUrl(key, url, 0, null)) : Optional.empty();
      }
    }
    return Optional.empty();
  }

  /** Marks a retry of a call given an old salt. */
  private static final List<?> RETRY = java.util.Collections.unmodifiableList(new ArrayList<>());

  /**
   * Runs a script over the queue's URL in the filter: its answer, {@link #RETRY} when the salt
   * was old (dropped, to be read again), or null when this crawl is gone.
   */
  private List<?> withFilter(String what, Script script, String key, String url, String salt,
      List<String> args) {
    List<String> header = new ArrayList<>(args.size() + 2);
    header.add(prefix);
    header.add(generation);
    header.addAll(args);
    List<?> out;
    try {
      out = sieve.run(script, List.of(crawlKey), header, List.of(salt + " " + url),
          List.of(List.of()));
    } catch (JedisException e) {
      throw redis.failure(what, e);
    }
    long first = asLong(out.get(0));
    if (first == GONE) {
      stale = true;
      return null;
    }
    if (first == OTHER_SALT) {
      salts.remove(key);
      return RETRY;
    }
    return out;
  }

  /** The salt of queue {@code key}, creating the queue if {@code create}; null if none, or gone. */
  private String salt(String key, boolean create) {
    String salt = salts.get(key);
    if (salt != null) {
      return salt;
    }
    List<?> out = crawlScript("create queue " + key, QUEUE, key, create ? "1" : "0");
    if (out == null || asLong(out.get(0)) == 0) {
      return null;
    }
    salt = asString(out.get(1));
    salts.put(key, salt);
    return salt;
  }

  /** Runs a crawl script without the filter; null when this crawl is gone. */
  private List<?> crawlScript(String what, Script script, String... args) {
    List<String> all = new ArrayList<>(args.length + 2);
    all.add(prefix);
    all.add(generation);
    all.addAll(List.of(args));
    List<?> out;
    try {
      out = (List<?>) redis.eval(script, List.of(crawlKey), all);
    } catch (JedisException e) {
      throw redis.failure(what, e);
    }
    if (!out.isEmpty() && out.get(0) instanceof Long code && code == GONE) {
      stale = true;
      return null;
    }
    return out;
  }

  @Override
  public int take(String key, TakeLimits limits, long now, List<QueuedUrl> out) {
    List<?> answer = crawlScript("get URLs", TAKE, key == null ? "" : key,
        Integer.toString(limits.maxPerQueue()), Integer.toString(limits.maxQueues()),
        Integer.toString(limits.maxUrls()), Long.toString(now),
        Long.toString(now + limits.leaseSeconds()), Integer.toString(limits.defaultDelaySeconds()));
    if (answer == null) {
      return 0;
    }
    readUrls(answer, 1, out);
    return (int) asLong(answer.get(0));
  }

  @Override
  public QueueStats stats(String key, long now) {
    List<?> out = crawlScript("read queue stats", STATS, key == null ? "" : key,
        Long.toString(now));
    if (out == null) {
      return QueueStats.NONE;
    }
    return new QueueStats(asLong(out.get(0)), asLong(out.get(1)), asLong(out.get(2)),
        asLong(out.get(3)), asLong(out.get(4)));
  }

  @Override
  public long deleteQueue(String key) {
    List<?> out = crawlScript("delete queue " + key, DELETE_QUEUE, key);
    salts.remove(key);
    return out == null ? -1 : asLong(out.get(0));
  }

  @Override
  public boolean control(String key, byte op, long value) {
    if (op == CrawlStore.DELETE_QUEUE) {
      return deleteQueue(key) >= 0;
    }
    String field = switch (op) {
      case CrawlStore.BLOCK -> "blocked";
      case CrawlStore.DELAY -> "delay";
      default -> "limit";
    };
    List<?> out = crawlScript("change queue " + key, CONTROL, key, field, Long.toString(value));
    return out != null && asLong(out.get(0)) == 1;
  }

  @Override
  public List<String> queueKeys(boolean includeInactive, long now) {
    List<?> out = crawlScript("list queues", QUEUE_KEYS, includeInactive ? "1" : "0",
        Long.toString(now));
    List<String> keys = new ArrayList<>();
    if (out != null) {
      out.forEach(key -> keys.add(asString(key)));
    }
    keys.sort(null);
    return keys;
  }

  @Override
  public List<QueuedUrl> list(String key, String filter, boolean ignoreCase, long start, long size) {
    List<QueuedUrl> urls = new ArrayList<>();
    List<?> out = crawlScript("list URLs", LIST, key == null ? "" : key,
        filter.isBlank() ? "" : filter, ignoreCase ? "1" : "0", Long.toString(start),
        Long.toString(size), "0");
    if (out != null) {
      readUrls(out, 0, urls);
    }
    return urls;
  }

  @Override
  public long count(String key, String filter, boolean ignoreCase) {
    List<?> out = crawlScript("count URLs", LIST, key == null ? "" : key,
        filter.isBlank() ? "" : filter, ignoreCase ? "1" : "0", "0", "0", "1");
    return out == null ? 0 : asLong(out.get(0));
  }

  /** Reads key, URL, due, metadata quadruples from {@code out[from]} on. */
  private static void readUrls(List<?> out, int from, List<QueuedUrl> urls) {
    for (int i = from; i + 3 < out.size(); i += 4) {
      urls.add(new QueuedUrl(asString(out.get(i)), asString(out.get(i + 1)),
          asLong(out.get(i + 2)), metadata(out.get(i + 3))));
    }
  }

  private static byte[] metadata(Object stored) {
    return stored == null ? null : Base64.getDecoder().decode(asString(stored));
  }

  @Override
  public Map<String, Long> filterStats() {
    return filterStats(sieve.approximateSeen(), sieve.fpp(), sieve.targetFpp(), sieve.bits(),
        sieve.layers());
  }

  @Override
  public Map<String, Long> counters() {
    Map<String, String> stored;
    try {
      stored = redis.redis.hgetAll(prefix + "stats");
    } catch (JedisException e) {
      throw redis.failure("read the counters of crawl " + id, e);
    }
    Map<String, Long> out = new TreeMap<>();
    stored.forEach((name, value) -> out.put(name, Long.parseLong(value)));
    return out;
  }

  @Override
  public CrawlSnapshot snapshot(long now) {
    QueueStats totals = stats(null, now);
    return new CrawlSnapshot(id, totals.size(), totals.inFlight(), totals.queues(),
        totals.activeQueues(), totals.completed(), sieve.approximateSeen(), sieve.fpp(),
        counters());
  }
}
