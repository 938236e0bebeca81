/**
 * The crawl: {@link dev.sieve.crawl.Crawler} takes leases from the frontier and runs each URL
 * through one pipeline (address policy, host health, robots.txt, fetch, retries, parse, sieve,
 * enqueue), ending in exactly one {@link dev.sieve.crawl.PageRecord} per fetch and the lease given
 * back; {@link dev.sieve.crawl.CrawlConfig} holds its settings.
 */
package dev.sieve.crawl;
