package dev.sieve.frontier.redis;

import dev.sieve.frontier.redis.RedisConnection.Script;

/**
 * The Lua scripts of the frontier engine's {@link RedisStore}, which {@code serve --frontier
 * redis://} and {@code crawl --frontier redis://} both run, and of its Sieves, each run
 * atomically by Redis (EVALSHA, EVAL when the server has lost its script cache): resources {@code
 * dev/sieve/frontier/redis/*.lua} (each file says what it takes and answers), loaded once here.
 *
 * <p>The store's scripts ({@code STORE_*}, for {@link RedisStore} and {@link RedisCrawlStore}):
 * resources {@code serve-*.lua}, each one atomic step over one slot, checking URLs against the
 * shard's Sieve inside the step ({@code lib-sieve.lua}). Times are the caller's clock (epoch
 * milliseconds, passed in), so every node and crawl process must keep its clock in sync (NTP), as
 * leases and refetch dates are compared across them. The Sieve's own scripts ({@code filter-*})
 * create its settings and first layer, and add a layer.
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

  /** Appends a filter layer unless another process did. */
  static final Script GROW = Script.load("filter-grow");
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
  static final Script STORE_SKIP = Script.load("serve-skip");
}
