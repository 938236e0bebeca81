package dev.sieve.serve;

import dev.sieve.frontier.redis.RedisConnection.Script;

/**
 * The Lua scripts of the Redis store ({@link RedisStore}, {@link RedisCrawl}): resources {@code
 * dev/sieve/frontier/redis/serve-*.lua}, each one atomic step over one slot, sharing the seen
 * filter's functions with the crawl's scripts ({@code lib-sieve.lua}). Times are the service's
 * clock (epoch seconds, passed in), so every node must keep its clock in sync (NTP), as leases and
 * refetch dates are compared across nodes.
 *
 * <p>Keys: in the slot of {@code {serve}}, {@code serve:{serve}:crawls} (the set of crawl
 * namespaces), {@code serve:{serve}:crawl:NS} (a crawl: its {@code gen}eration, {@code id} and
 * {@code shards}), {@code serve:{serve}:generations}. A crawl generation's queues are spread over
 * its shards by their key ({@link RedisCrawl#shardOf}); shard S's keys start with {@code P =
 * serve:{serve.NS.GEN.S}:} and its Sieve is the {@link dev.sieve.frontier.redis.SharedSieve}
 * {@code serve.NS.GEN.S}, kept in the same slot, so one script both checks a URL and queues it.
 * {@code lib-serve-shard.lua} lists a shard's keys.
 */
final class RedisServeScripts {
  private RedisServeScripts() {}

  static final Script CREATE = Script.load("serve-create-crawl");
  static final Script DELETE_CRAWL = Script.load("serve-delete-crawl");
  static final Script DROP_SHARD = Script.load("serve-drop-shard");
  static final Script QUEUE = Script.load("serve-queue");
  static final Script PUT = Script.load("serve-put");
  static final Script STATUS = Script.load("serve-status");
  static final Script TAKE = Script.load("serve-take");
  static final Script STATS = Script.load("serve-stats");
  static final Script DELETE_QUEUE = Script.load("serve-delete-queue");
  static final Script CONTROL = Script.load("serve-control");
  static final Script QUEUE_KEYS = Script.load("serve-queue-keys");
  static final Script LIST = Script.load("serve-list");
}
