package dev.sieve.frontier.redis;

import static dev.sieve.frontier.redis.RedisConnection.asLong;
import static dev.sieve.frontier.redis.RedisConnection.asString;

import dev.sieve.frontier.FrontierTime;
import dev.sieve.frontier.queue.CrawlStore;
import dev.sieve.frontier.queue.FrontierStore;
import dev.sieve.frontier.queue.QueueSettings;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Every crawl in one Redis or Redis Cluster ({@code serve --frontier redis://…} or {@code
 * redis-cluster://…}), shared by the serve nodes given it: a crawl ID is a namespace ({@code NS}:
 * the ID itself when it is letters, digits and {@code ._-}, else {@code ~} and its UTF-8 in hex)
 * whose current generation is a {@link RedisCrawlStore} of {@link RedisShard}s; DeleteCrawl ends the
 * generation, and the next put under the ID starts a new one with fresh Sieves. SetActive and the
 * default delay are shared too. Durability is Redis's (its RDB/AOF settings). Times are the
 * engine's epoch milliseconds ({@link FrontierTime}); a crawl that a Sieve counting seconds
 * created (its hash has no {@code ms} field) is refused, when the store opens and when a call
 * meets it, naming it and what to do. Thread-safe.
 */
public final class RedisStore extends FrontierStore {
  private static final Pattern PLAIN_ID = Pattern.compile("[A-Za-z0-9._-]{1,100}");
  /** Shards of a crawl created on one Redis server: its puts and gets cost one call each. */
  static final int SERVER_SHARDS = 1;
  /** Shards of a crawl created on Redis Cluster: its queues spread over the masters. */
  static final int CLUSTER_SHARDS = 16;
  private static final String SERVICE = "serve:{serve}:service";
  private static final String CRAWLS = "serve:{serve}:crawls";
  private static final String GENERATIONS = "serve:{serve}:generations";

  private final RedisConnection redis;
  private final QueueSettings settings;
  /** Runs a put batch's per-shard scripts side by side, for every crawl. */
  private final ShardCalls shardCalls = new ShardCalls();
  /** Shards of the crawls this node creates; a crawl keeps those it was created with. */
  private final int shards;
  /** The crawls this node knows, by ID, in the order its GetURLs visits them. */
  private final Map<String, RedisCrawlStore> known = new LinkedHashMap<>();

  private RedisStore(RedisConnection redis, QueueSettings settings, int shards) {
    this.redis = redis;
    this.settings = settings;
    this.shards = shards;
  }

  /**
   * Connects to {@code uri} ({@code redis://…} or {@code redis-cluster://…}) with a pool of {@code
   * connections}; new crawls' Sieves are sized and their queues delayed by {@code settings} (its
   * spill directory is unused: Redis holds every pending URL).
   *
   * @throws IllegalArgumentException if the URI is malformed (the message names it)
   * @throws RedisFrontierException if Redis cannot be reached, or holds a crawl in seconds
   */
  public static FrontierStore open(String uri, QueueSettings settings, int connections) {
    RedisConnection redis = RedisConnection.open(uri, connections);
    try {
      for (String namespace : redis.command("list crawls", r -> r.smembers(CRAWLS))) {
        List<String> crawl = redis.command("read crawl " + namespace,
            r -> r.hmget(crawlKey(namespace), "gen", "id", "ms"));
        if (crawl.get(0) != null && crawl.get(2) == null) {
          throw new RedisFrontierException(inSeconds(redis.where, crawl.get(1)));
        }
      }
    } catch (RuntimeException e) {
      redis.close();
      throw e instanceof UncheckedIOException u
          ? new RedisFrontierException(u.getCause().getMessage(), u) : e;
    }
    return new RedisStore(redis, settings, redis.cluster() ? CLUSTER_SHARDS : SERVER_SHARDS);
  }

  /**
   * Crawl {@code crawlId} of the store at {@code uri} (created if new, with {@code settings}'
   * Sieve), for a crawl process: its calls ride out an outage for up to {@code patience}, unless
   * {@code abandon} says to stop waiting; closing it closes the connections.
   *
   * @throws IllegalArgumentException if the URI is malformed (the message names it)
   * @throws RedisFrontierException if Redis cannot be reached, or holds a crawl in seconds
   */
  public static PatientCrawlStore openCrawl(String uri, QueueSettings settings, int connections,
      String crawlId, Duration patience, java.util.function.BooleanSupplier abandon) {
    RedisStore store = (RedisStore) open(uri, settings, connections);
    try {
      return new PatientCrawlStore(store, store.getOrCreate(crawlId), store.redis.where, patience,
          abandon);
    } catch (UncheckedIOException e) {
      store.close();
      throw new RedisFrontierException(e.getCause().getMessage(), e);
    } catch (RuntimeException e) {
      store.close();
      throw e;
    }
  }

  /** Why a crawl created by a Sieve that counted time in seconds is refused, and what to do. */
  private static String inSeconds(String where, String id) {
    return "Redis at " + where + " holds serve crawl '" + id + "' written by an older Sieve, whose"
        + " times were seconds (this one counts milliseconds): finish or delete it (DeleteCrawl)"
        + " with the Sieve that wrote it, then start again";
  }

  /** Refuses a crawl that a Sieve counting seconds created ({@code ms} is its hash's field). */
  private void checkMillis(String id, String ms) {
    if (!"1".equals(ms)) {
      throw new UncheckedIOException(new java.io.IOException(inSeconds(redis.where, id)));
    }
  }

  @Override
  public boolean batchesPuts() {
    return true;
  }

  /** Registers the node in Redis, where every node sharing the store lists it ({@link RedisNodes}). */
  @Override
  public Nodes join(String address, Clock clock, long ttlMillis) {
    RedisNodes nodes = new RedisNodes(redis, address, clock, ttlMillis);
    nodes.beat();
    return nodes;
  }

  static String namespace(String crawlId) {
    return PLAIN_ID.matcher(crawlId).matches() ? crawlId
        : "~" + HexFormat.of().formatHex(crawlId.getBytes(StandardCharsets.UTF_8));
  }

  static String crawlKey(String namespace) {
    return "serve:{serve}:crawl:" + namespace;
  }

  @Override
  public CrawlStore getOrCreate(String crawlId) {
    String id = FrontierStore.normalise(crawlId);
    synchronized (this) {
      RedisCrawlStore crawl = known.get(id);
      if (crawl != null && !crawl.stale()) {
        return crawl;
      }
    }
    String namespace = namespace(id);
    List<?> created = (List<?>) redis.run("create crawl " + id, RedisScripts.STORE_CREATE,
        List.of(crawlKey(namespace), GENERATIONS, CRAWLS),
        List.of(namespace, id, Integer.toString(shards)));
    checkMillis(id, asString(created.get(2)));
    return adopt(id, namespace, asString(created.get(0)), (int) asLong(created.get(1)));
  }

  /** The handle of generation {@code generation} of crawl {@code id}, made once per node. */
  private RedisCrawlStore adopt(String id, String namespace, String generation, int shardCount) {
    synchronized (this) {
      RedisCrawlStore crawl = known.get(id);
      if (crawl != null && crawl.generation.equals(generation)) {
        return crawl;
      }
    }
    RedisCrawlStore opened = open(id, namespace, generation, shardCount);
    synchronized (this) {
      RedisCrawlStore crawl = known.get(id);
      if (crawl == null || !crawl.generation.equals(generation)) {
        crawl = opened;
        known.put(id, crawl);
      }
      return crawl;
    }
  }

  /** Generation {@code generation} of crawl {@code id}: its shards, each with its Sieve. */
  private RedisCrawlStore open(String id, String namespace, String generation, int shardCount) {
    long expected = Math.max(1, (settings.expectedUrls() + shardCount - 1) / shardCount);
    List<RedisShard> parts = new ArrayList<>(shardCount);
    for (int s = 0; s < shardCount; s++) {
      String sieveId = "serve." + namespace + "." + generation + "." + s;
      parts.add(new RedisShard(redis, sieveId,
          SharedSieve.open(redis, sieveId, expected, settings.falsePositiveRate())));
    }
    return new RedisCrawlStore(id, generation, parts, shardCalls);
  }

  /** The crawl if this node met it (and saw it not deleted): no round trip. */
  @Override
  public Optional<RedisCrawlStore> local(String crawlId) {
    RedisCrawlStore crawl;
    synchronized (this) {
      crawl = known.get(FrontierStore.normalise(crawlId));
    }
    return crawl == null || crawl.stale() ? Optional.empty() : Optional.of(crawl);
  }

  /** The crawls in Redis, created by any node: one round trip. */
  @Override
  public int crawlCount() {
    return redis.command("count crawls", r -> r.scard(CRAWLS)).intValue();
  }

  @Override
  public Optional<RedisCrawlStore> get(String crawlId) {
    String id = FrontierStore.normalise(crawlId);
    String namespace = namespace(id);
    List<String> crawl = redis.command("read crawl " + id,
        r -> r.hmget(crawlKey(namespace), "gen", "shards", "ms"));
    if (crawl.get(0) == null) {
      forget(id);
      return Optional.empty();
    }
    checkMillis(id, crawl.get(2));
    return Optional.of(adopt(id, namespace, crawl.get(0), shardCount(crawl.get(1))));
  }

  private synchronized void forget(String id) {
    RedisCrawlStore crawl = known.remove(id);
    if (crawl != null) {
      crawl.markStale();
    }
  }

  @Override
  public long delete(String crawlId) {
    String id = FrontierStore.normalise(crawlId);
    String namespace = namespace(id);
    List<?> out = (List<?>) redis.run("delete crawl " + id, RedisScripts.STORE_DELETE_CRAWL,
        List.of(crawlKey(namespace), CRAWLS), List.of(namespace));
    forget(id);
    if (out.get(0) instanceof Long none && none < 0) {
      return -1;
    }
    long pending = 0;
    for (RedisShard shard : open(id, namespace, asString(out.get(0)),
        (int) asLong(out.get(1))).shards()) {
      pending += shard.drop();
    }
    return pending;
  }

  @Override
  public List<RedisCrawlStore> all() {
    List<String> members = new ArrayList<>(redis.command("list crawls", r -> r.smembers(CRAWLS)));
    for (String namespace : members) {
      Map<String, String> crawl = redis.command("read crawl " + namespace,
          r -> r.hgetAll(crawlKey(namespace)));
      if (crawl.get("gen") != null) {
        checkMillis(crawl.get("id"), crawl.get("ms"));
        adopt(crawl.get("id"), namespace, crawl.get("gen"), shardCount(crawl.get("shards")));
      }
    }
    synchronized (this) {
      List<RedisCrawlStore> out = new ArrayList<>();
      known.values().removeIf(crawl -> !members.contains(namespace(crawl.id())));
      out.addAll(known.values());
      return out;
    }
  }

  @Override
  public synchronized void served(List<? extends CrawlStore> produced) {
    for (CrawlStore crawl : produced) {
      RedisCrawlStore handle = known.remove(crawl.id());
      if (handle != null) {
        known.put(handle.id(), handle);
      }
    }
  }

  @Override
  public List<String> ids() {
    List<String> ids = redis.command("list crawls", r -> {
      List<String> found = new ArrayList<>();
      for (String namespace : r.smembers(CRAWLS)) {
        List<String> crawl = r.hmget(crawlKey(namespace), "gen", "id", "shards");
        for (int s = 0; crawl.get(0) != null && s < shardCount(crawl.get(2)); s++) {
          if (r.zcard("serve:{serve." + namespace + "." + crawl.get(0) + "." + s + "}:queues")
              > 0) {
            found.add(crawl.get(1));
            break;
          }
        }
      }
      return found;
    });
    ids.sort(null);
    return ids;
  }

  private static int shardCount(String stored) {
    return stored == null ? 1 : Integer.parseInt(stored);
  }

  @Override
  public boolean active() {
    return !"0".equals(service("active"));
  }

  @Override
  public void active(boolean state) {
    setService("active", state ? "1" : "0");
  }

  /**
   * The service's default delay: its {@code delay-ms} field, else (as a store written before the
   * engine counted milliseconds left it) its {@code delay} field in seconds, else the settings'.
   */
  @Override
  public Duration defaultDelay() {
    List<String> delay = redis.command("read the service's delay",
        r -> r.hmget(SERVICE, "delay-ms", "delay"));
    return delay.get(0) != null ? Duration.ofMillis(Long.parseLong(delay.get(0)))
        : delay.get(1) != null ? Duration.ofSeconds(Long.parseLong(delay.get(1)))
        : settings.queueDelay();
  }

  @Override
  public void defaultDelay(Duration delay) {
    setService("delay-ms", Long.toString(FrontierTime.millis(delay)));
  }

  private String service(String field) {
    return redis.command("read the service's " + field, r -> r.hget(SERVICE, field));
  }

  private void setService(String field, String value) {
    redis.command("set the service's " + field, r -> r.hset(SERVICE, field, value));
  }

  @Override
  public void close() {
    shardCalls.close();
    redis.close();
  }
}
