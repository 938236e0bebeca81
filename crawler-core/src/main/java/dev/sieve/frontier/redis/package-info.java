/**
 * Frontiers kept in Redis or Redis Cluster, over one {@link dev.sieve.frontier.redis.RedisConnection}
 * and one set of Lua scripts (resources {@code dev/sieve/frontier/redis/*.lua}): the crawl's
 * ({@link dev.sieve.frontier.redis.RedisFrontier}), shared by every crawler process given the same
 * crawl ID, its seen filter as bitmaps, its queues and leases, each change one script, and a
 * crawl's shared status ({@link dev.sieve.frontier.redis.CrawlStatus}); and a frontier service's
 * ({@link dev.sieve.frontier.redis.RedisStore}), every crawl ID shared by the serve nodes given it.
 */
package dev.sieve.frontier.redis;
