/**
 * The frontier kept in Redis or Redis Cluster ({@link dev.sieve.frontier.redis.RedisFrontier}),
 * shared by every crawler process given the same crawl ID: its seen filter as bitmaps, its queues
 * and leases, each change one Lua script; and a crawl's shared status ({@link
 * dev.sieve.frontier.redis.CrawlStatus}).
 */
package dev.sieve.frontier.redis;
