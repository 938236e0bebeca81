package dev.sieve.frontier.redis;

import dev.sieve.frontier.queue.FrontierStore;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.clients.jedis.exceptions.JedisException;

/**
 * The serve nodes sharing one Redis, for ListNodes: each node's address ({@code host:port}) in the
 * sorted set {@code serve:nodes}, scored by when its heartbeat expires (the service's clock, epoch
 * millis). A node beats every third of the TTL; one that stops beating (killed) drops out of the
 * list once the TTL has passed, one that stops cleanly leaves at once. Thread-safe.
 */
final class RedisNodes implements FrontierStore.Nodes {
  static final String KEY = "serve:nodes";
  private static final Logger log = LoggerFactory.getLogger(RedisNodes.class);

  private final RedisConnection redis;
  private final String address;
  private final Clock clock;
  private final long ttlMillis;
  private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread thread = new Thread(r, "serve-heartbeat");
    thread.setDaemon(true);
    return thread;
  });

  RedisNodes(RedisConnection redis, String address, Clock clock, long ttlMillis) {
    this.redis = redis;
    this.address = address;
    this.clock = clock;
    this.ttlMillis = ttlMillis;
  }

  @Override
  public void keepBeating() {
    long period = Math.max(1, ttlMillis / 3);
    timer.scheduleAtFixedRate(() -> {
      try {
        beat();
      } catch (RuntimeException e) {
        log.warn("serve: heartbeat of {} to Redis failed: {}", address, e.getMessage());
      }
    }, period, period, TimeUnit.MILLISECONDS);
  }

  /** Marks this node alive until a TTL from now. */
  @Override
  public void beat() {
    redis.command("register serve node " + address,
        r -> r.zadd(KEY, clock.millis() + ttlMillis, address));
  }

  /** The live nodes' addresses, sorted; forgets the expired ones. */
  @Override
  public List<String> live() {
    long now = clock.millis();
    List<String> nodes = redis.command("list serve nodes", r -> {
      r.zremrangeByScore(KEY, Double.NEGATIVE_INFINITY, now);
      return new ArrayList<>(r.zrangeByScore(KEY, "(" + now, "+inf"));
    });
    nodes.sort(null);
    return nodes;
  }

  /** Stops beating and leaves the list. */
  @Override
  public void close() {
    timer.shutdownNow();
    try {
      redis.redis.zrem(KEY, address);
    } catch (JedisException e) {
      log.warn("serve: could not remove node {} from Redis: {}", address, e.getMessage());
    }
  }
}
