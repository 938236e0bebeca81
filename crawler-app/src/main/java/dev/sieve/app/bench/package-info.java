/**
 * {@code sieve bench}: the benchmarks of docs/benchmarks.md (the Sieve, the frontier, link
 * extraction, crawling against local nginx sites, {@code serve} and Redis, and wget for
 * comparison), each printing a table with ratios against a baseline measured in the same run.
 * Uses the library and {@code dev.sieve.app}'s options; starts its servers on loopback only.
 */
package dev.sieve.app.bench;
