/**
 * {@code serve}: the URL Frontier API 2.6 over gRPC, translated onto the frontier engine's calls
 * ({@link dev.sieve.frontier.queue}), with the service's settings, limits and metrics. The queues,
 * the Sieve and the durable state live in {@code frontier/}; this package keeps no state of its
 * own beyond counters. Its Redis store shares the crawls between serve nodes.
 */
package dev.sieve.serve;
