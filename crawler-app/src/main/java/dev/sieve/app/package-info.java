/**
 * The {@code sieve} command line (picocli): {@code crawl}, {@code serve}, {@code demo}, {@code
 * size} and their options, each default taken from the settings class it feeds; logging,
 * Prometheus metrics endpoints, reports and the files a crawl writes. It turns options into
 * {@code dev.sieve.*} settings and runs the library; the crawling, the frontier and the service
 * live in crawler-core. Each failure the user can cause is one line and a documented exit code.
 */
package dev.sieve.app;
