/**
 * {@code serve}: the URL Frontier API 2.6 over gRPC, translated onto the calls of the frontier
 * engine it opens with {@link dev.sieve.frontier.Frontiers#open} ({@link
 * dev.sieve.frontier.OpenFrontier#crawls()}), with the service's settings, limits and metrics. The
 * queues, the Sieve, the durable state and the Redis store live in {@code frontier/}; this package
 * keeps no state of its own beyond counters.
 */
package dev.sieve.serve;
