/**
 * The frontier engine behind {@code serve}: crawls (namespaces by crawl ID), each with its Sieve and
 * its keyed queues; URLs with due times, leases that expire, crawl limits, blocks, delays and
 * metadata, times in epoch milliseconds ({@link dev.sieve.frontier.FrontierTime}). {@link
 * dev.sieve.frontier.queue.FrontierStore} and {@link
 * dev.sieve.frontier.queue.CrawlStore} are the contract a store meets; {@link
 * dev.sieve.frontier.queue.Crawls} is the in-process store, {@link dev.sieve.frontier.redis.RedisStore}
 * the shared one. No files: durability is {@link
 * dev.sieve.frontier.durable}'s.
 */
package dev.sieve.frontier.queue;
