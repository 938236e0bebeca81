package dev.sieve.serve;

import static dev.sieve.frontier.redis.RedisConnection.asLong;
import static dev.sieve.frontier.redis.RedisConnection.asString;

import dev.sieve.frontier.queue.CrawlStore;
import dev.sieve.frontier.queue.FrontierStore;
import dev.sieve.frontier.redis.RedisConnection.Script;
import dev.sieve.frontier.redis.RedisConnection;
import dev.sieve.frontier.redis.SharedSieve;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import redis.clients.jedis.exceptions.JedisException;

/**
 * Every crawl in one Redis ({@code serve --frontier redis://…}), shared by the serve nodes given
 * it: a crawl ID is a namespace ({@code NS}: the ID itself when it is letters, digits and {@code
 * ._-}, else {@code ~} and its UTF-8 in hex) whose current generation is a {@link RedisCrawl};
 * DeleteCrawl ends the generation, and the next put under the ID starts a new one with a fresh
 * Sieve. SetActive and the default delay are shared too. Durability is Redis's (its RDB/AOF
 * settings). Thread-safe.
 */
final class RedisStore extends FrontierStore {
  private static final Pattern PLAIN_ID = Pattern.compile("[A-Za-z0-9._-]{1,100}");
  private static final String SERVICE = "serve:service";
  private static final Script CREATE = new Script(RedisServeScripts.CREATE);
  private static final Script DELETE = new Script(RedisServeScripts.DELETE_CRAWL);
  private static final Script IDS = new Script(RedisServeScripts.IDS);

  private final RedisConnection redis;
  private final ServeSettings settings;
  /** The crawls this node knows, by ID, in the order its GetURLs visits them. */
  private final Map<String, RedisCrawl> known = new LinkedHashMap<>();

  private RedisStore(RedisConnection redis, ServeSettings settings) {
    this.redis = redis;
    this.settings = settings;
  }

  /**
   * Connects to {@code settings.frontier}.
   *
   * @throws dev.sieve.frontier.redis.RedisFrontierException if Redis cannot be reached
   */
  static RedisStore open(ServeSettings settings) {
    return new RedisStore(RedisConnection.open(settings.frontier, 20), settings);
  }

  RedisConnection connection() {
    return redis;
  }

  static String namespace(String crawlId) {
    return PLAIN_ID.matcher(crawlId).matches() ? crawlId
        : "~" + HexFormat.of().formatHex(crawlId.getBytes(StandardCharsets.UTF_8));
  }

  static String crawlKey(String namespace) {
    return "serve:crawl:" + namespace;
  }

  ServeSettings settings() {
    return settings;
  }

  @Override
  public CrawlStore getOrCreate(String crawlId) {
    String id = FrontierStore.normalise(crawlId);
    synchronized (this) {
      RedisCrawl crawl = known.get(id);
      if (crawl != null && !crawl.stale) {
        return crawl;
      }
    }
    String namespace = namespace(id);
    String generation;
    try {
      generation = asString(redis.eval(CREATE, List.of(crawlKey(namespace)),
          List.of(namespace, id)));
    } catch (JedisException e) {
      throw redis.failure("create crawl " + id, e);
    }
    return adopt(id, namespace, generation);
  }

  /** The handle of generation {@code generation} of crawl {@code id}, made once per node. */
  private RedisCrawl adopt(String id, String namespace, String generation) {
    synchronized (this) {
      RedisCrawl crawl = known.get(id);
      if (crawl != null && crawl.generation.equals(generation)) {
        return crawl;
      }
    }
    SharedSieve sieve = SharedSieve.open(redis, filterId(namespace, generation),
        settings.expectedUrls, settings.falsePositiveRate);
    synchronized (this) {
      RedisCrawl crawl = known.get(id);
      if (crawl == null || !crawl.generation.equals(generation)) {
        crawl = new RedisCrawl(redis, id, namespace, generation, sieve);
        known.put(id, crawl);
      }
      return crawl;
    }
  }

  private static String filterId(String namespace, String generation) {
    return "serve." + namespace + "." + generation;
  }

  @Override
  public Optional<RedisCrawl> get(String crawlId) {
    String id = FrontierStore.normalise(crawlId);
    String namespace = namespace(id);
    String generation;
    try {
      generation = redis.redis.hget(crawlKey(namespace), "gen");
    } catch (JedisException e) {
      throw redis.failure("read crawl " + id, e);
    }
    if (generation == null) {
      forget(id);
      return Optional.empty();
    }
    return Optional.of(adopt(id, namespace, generation));
  }

  private synchronized void forget(String id) {
    RedisCrawl crawl = known.remove(id);
    if (crawl != null) {
      crawl.stale = true;
    }
  }

  @Override
  public long delete(String crawlId) {
    String id = FrontierStore.normalise(crawlId);
    String namespace = namespace(id);
    List<?> out;
    try {
      out = (List<?>) redis.eval(DELETE, List.of(crawlKey(namespace)), List.of(namespace));
    } catch (JedisException e) {
      throw redis.failure("delete crawl " + id, e);
    }
    forget(id);
    long pending = asLong(out.get(0));
    if (pending >= 0) {
      SharedSieve.open(redis, filterId(namespace, asString(out.get(1))), settings.expectedUrls,
          settings.falsePositiveRate).delete();
    }
    return pending;
  }

  @Override
  public List<RedisCrawl> all() {
    List<String> members;
    try {
      members = new ArrayList<>(redis.redis.smembers("serve:crawls"));
    } catch (JedisException e) {
      throw redis.failure("list crawls", e);
    }
    for (String namespace : members) {
      Map<String, String> crawl;
      try {
        crawl = redis.redis.hgetAll(crawlKey(namespace));
      } catch (JedisException e) {
        throw redis.failure("read crawl " + namespace, e);
      }
      if (crawl.get("gen") != null) {
        adopt(crawl.get("id"), namespace, crawl.get("gen"));
      }
    }
    synchronized (this) {
      List<RedisCrawl> out = new ArrayList<>();
      known.values().removeIf(crawl -> !members.contains(namespace(crawl.id())));
      out.addAll(known.values());
      return out;
    }
  }

  @Override
  public synchronized void served(List<? extends CrawlStore> produced) {
    for (CrawlStore crawl : produced) {
      RedisCrawl handle = known.remove(crawl.id());
      if (handle != null) {
        known.put(handle.id(), handle);
      }
    }
  }

  @Override
  public List<String> ids() {
    List<String> ids = new ArrayList<>();
    try {
      ((List<?>) redis.eval(IDS, List.of(), List.of())).forEach(id -> ids.add(asString(id)));
    } catch (JedisException e) {
      throw redis.failure("list crawls", e);
    }
    ids.sort(null);
    return ids;
  }

  @Override
  public boolean active() {
    return !"0".equals(service("active"));
  }

  @Override
  public void active(boolean state) {
    setService("active", state ? "1" : "0");
  }

  @Override
  public int defaultDelaySeconds() {
    String delay = service("delay");
    return delay == null ? settings.queueDelaySeconds : Integer.parseInt(delay);
  }

  @Override
  public void defaultDelaySeconds(int seconds) {
    setService("delay", Integer.toString(seconds));
  }

  private String service(String field) {
    try {
      return redis.redis.hget(SERVICE, field);
    } catch (JedisException e) {
      throw redis.failure("read the service's " + field, e);
    }
  }

  private void setService(String field, String value) {
    try {
      redis.redis.hset(SERVICE, field, value);
    } catch (JedisException e) {
      throw redis.failure("set the service's " + field, e);
    }
  }

  @Override
  public void close() {
    redis.close();
  }
}
