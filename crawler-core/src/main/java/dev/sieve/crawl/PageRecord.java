package dev.sieve.crawl;

import java.time.Instant;

/**
 * The outcome of one URL the crawl is done with: one record per URL, written after its last
 * attempt.
 *
 * @param url the URL
 * @param status the HTTP status, 0 when no response arrived
 * @param depth links followed from a seed (seeds are 0)
 * @param contentType the raw Content-Type header, or null
 * @param bytes body bytes kept (after decompression, at most the body cap)
 * @param fetchMs the fetch's wall time in milliseconds
 * @param outlinks links found on the page (every href, or 1 for a redirect's target)
 * @param newLinks links the Sieve let through into the frontier
 * @param error null, or a short reason: {@code http-404}, {@code timeout}, {@code truncated},
 *     {@code robots-denied}, {@code redirect-loop}, {@code too-many-redirects}…
 * @param fetchedAt when the fetch ended
 * @param cause null, or what lies behind a connection-level {@code error}: {@code connection
 *     refused}, {@code connect timeout}, {@code read timeout}, {@code connection reset}…, or for
 *     {@code robots-unreachable} also {@code http-503} and the like
 * @param links the fates of the page's links, adding up to {@code outlinks}; null when the
 *     response was not parsed for links (not a 2xx HTML page, a redirect, a failure)
 */
public record PageRecord(
    String url,
    int status,
    int depth,
    String contentType,
    long bytes,
    long fetchMs,
    int outlinks,
    int newLinks,
    String error,
    Instant fetchedAt,
    String cause,
    LinkCounts links) {

  /** A record without a cause or link fates. */
  public PageRecord(String url, int status, int depth, String contentType, long bytes,
      long fetchMs, int outlinks, int newLinks, String error, Instant fetchedAt) {
    this(url, status, depth, contentType, bytes, fetchMs, outlinks, newLinks, error, fetchedAt,
        null, null);
  }
}
