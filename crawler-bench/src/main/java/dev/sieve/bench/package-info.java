/**
 * {@code sieve bench}: the benchmarks of docs/benchmarks.md (the Sieve, the frontier, link
 * extraction, crawling against local nginx sites, {@code serve} and Redis, and wget for
 * comparison), each printing a table with ratios against a baseline measured in the same run.
 * Module crawler-bench: uses the library (crawler-core, with {@code dev.sieve.loopback} from its
 * test sources) and picocli, never the command line {@code dev.sieve.app}, which adds {@link
 * dev.sieve.bench.BenchCommand} as {@code sieve bench} when this jar is on its class path and hands
 * it the crawl's record output. Starts its servers on loopback only.
 */
package dev.sieve.bench;
