/**
 * The frontier engine kept in Redis or Redis Cluster, over one {@link
 * dev.sieve.frontier.redis.RedisConnection} and one set of Lua scripts (resources {@code
 * dev/sieve/frontier/redis/*.lua}): every crawl ID ({@link dev.sieve.frontier.redis.RedisStore}),
 * shared by the serve nodes and crawl processes given it, its queues spread over shards, each
 * shard's queues and Sieve ({@link dev.sieve.frontier.redis.SharedSieve}) in one slot so that a
 * change is one script; and one crawl as a crawl process uses it, riding out outages ({@link
 * dev.sieve.frontier.redis.PatientCrawlStore}). Uses {@code frontier.queue}'s store types; knows
 * nothing of crawling.
 */
package dev.sieve.frontier.redis;
