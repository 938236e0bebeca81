package dev.sieve.frontier.redis;

import dev.sieve.frontier.redis.RedisConnection.Script;

/**
 * The Lua scripts of {@link RedisFrontier}, of its seen filter and of the service's {@link
 * RedisStore}, each run atomically by Redis
 * (EVALSHA, EVAL when the server has lost its script cache): resources {@code
 * dev/sieve/frontier/redis/*.lua} (each file says what it takes and answers), loaded once here.
 *
 * <p>Queue scripts take the crawl's key prefix {@code sieve:{id}:} as ARGV[1] and its stats hash
 * as KEYS[1]; every key they touch starts with the prefix, so in Redis Cluster they all lie in the
 * slot of the hash tag {@code {id}}. Filter scripts touch one segment of a filter layer and its
 * set-bit counter, seal and intents, all tagged {@code {id:seg:i}} (layer 0) or {@code
 * {id:lL:seg:i}}. Times are Redis's own ({@code TIME}, epoch millis), so
 * every process schedules against one clock.
 *
 * <p>Keys under the prefix: {@code meta} (settings), {@code stats} (pending, leased, hosts,
 * droppedBudget, droppedSkipped, expired), {@code sched} (hosts that can be leased from, by the
 * time they may be), {@code h:HOST} (inflight, next, delay, admitted, skipped), {@code q:HOST}
 * (pending entries, oldest first), {@code leases} (lease ids by expiry), {@code lh}/{@code le}
 * (lease id to host and entry), {@code seq} (lease ids), {@code warn:I} (capacity thresholds
 * logged), {@code layers} (the filter's layers), {@code recovered} (push ids whose intents were
 * recovered, a day).
 *
 * <p>The service store's scripts ({@code STORE_*}, for {@link RedisStore} and {@link
 * RedisCrawlStore}): resources {@code serve-*.lua}, each one atomic step over one slot, sharing
 * the seen filter's functions with the crawl's scripts ({@code lib-sieve.lua}). Times are the service's
 * clock (epoch seconds, passed in), so every node must keep its clock in sync (NTP), as leases and
 * refetch dates are compared across nodes.
 *
 * <p>Keys: in the slot of {@code {serve}}, {@code serve:{serve}:crawls} (the set of crawl
 * namespaces), {@code serve:{serve}:crawl:NS} (a crawl: its {@code gen}eration, {@code id} and
 * {@code shards}), {@code serve:{serve}:generations}. A crawl generation's queues are spread over
 * its shards by their key ({@link RedisCrawlStore#shardOf}); shard S's keys start with {@code P =
 * serve:{serve.NS.GEN.S}:} and its Sieve is the {@link dev.sieve.frontier.redis.SharedSieve}
 * {@code serve.NS.GEN.S}, kept in the same slot, so one script both checks a URL and queues it.
 * {@code lib-serve-shard.lua} lists a shard's keys.
 */
final class RedisScripts {
  private RedisScripts() {}

  /** Older-layer check (Cluster). */
  static final Script CHECK = Script.load("filter-check");
  /** Newest-layer filter step of a cluster push, recording its intents. */
  static final Script FILTER = Script.load("filter-set-newest");
  /** Queue step of a cluster push, or of the recovery of a dead one. */
  static final Script ENQUEUE = Script.load("crawl-enqueue");
  /** Filter and queue in one atomic step (a single server). */
  static final Script PUSH = Script.load("crawl-push");
  /** Appends a filter layer unless another process did. */
  static final Script GROW = Script.load("filter-grow");
  /** Re-queues expired leases, then leases from the host ready soonest. */
  static final Script TAKE = Script.load("crawl-take");
  /** Leases the pending URLs of one host now. */
  static final Script TAKE_ALL = Script.load("crawl-take-host");
  /** Gives a lease back. */
  static final Script RELEASE = Script.load("crawl-release");
  /** Per-host settings (delay, spacing, skip). */
  static final Script HOST = Script.load("crawl-host");
  /** Creates a filter's settings and first layer, or returns those it was created with. */
  static final Script INIT = Script.load("filter-init");

  /** The service store's scripts, by what they do. */
  static final Script STORE_CREATE = Script.load("serve-create-crawl");
  static final Script STORE_DELETE_CRAWL = Script.load("serve-delete-crawl");
  static final Script STORE_DROP_SHARD = Script.load("serve-drop-shard");
  static final Script STORE_QUEUE = Script.load("serve-queue");
  static final Script STORE_PUT = Script.load("serve-put");
  static final Script STORE_STATUS = Script.load("serve-status");
  static final Script STORE_TAKE = Script.load("serve-take");
  static final Script STORE_STATS = Script.load("serve-stats");
  static final Script STORE_DELETE_QUEUE = Script.load("serve-delete-queue");
  static final Script STORE_CONTROL = Script.load("serve-control");
  static final Script STORE_QUEUE_KEYS = Script.load("serve-queue-keys");
  static final Script STORE_LIST = Script.load("serve-list");
  static final Script STORE_PURGE = Script.load("serve-purge");
}
