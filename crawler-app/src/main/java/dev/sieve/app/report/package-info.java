/**
 * The crawl report: one self-contained HTML page ({@code REPORT.html}) with the run's rates,
 * fates, top hosts and the Sieve's fill, drawn as inline SVG by the small chart writers here. Its
 * figures are the crawl's own counters, the ones the summary prints; its size is bounded whatever
 * the crawl's length (series downsampled, host tallies capped).
 */
package dev.sieve.app.report;
