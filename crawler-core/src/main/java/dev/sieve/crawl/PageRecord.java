package dev.sieve.crawl;

import java.time.Instant;
import java.util.Objects;

/**
 * The outcome of one URL the crawl is done with: one record per URL, written after its last
 * attempt. Made with {@link #builder}; the components are what the JSON Lines output writes, in
 * this order.
 *
 * @param url the URL
 * @param status the HTTP status, 0 when no response arrived
 * @param depth links followed from a seed (seeds are 0)
 * @param via the URL it was found through: the page linking to it, the URL that redirected to it,
 *     or the sitemap listing it; null for a seed
 * @param contentType the raw Content-Type header, or null
 * @param bytes body bytes kept (after decompression, at most the body cap)
 * @param fetchMs the fetch's wall time in milliseconds
 * @param outlinks links found on the page (every href, or 1 for a redirect's target)
 * @param newLinks links the Sieve let through into the frontier
 * @param redirect for a 3xx with a usable Location, its target resolved against the URL; else null
 * @param error null, or a short reason: {@code http-404}, {@code timeout}, {@code truncated},
 *     {@code robots-denied}, {@code redirect-loop}, {@code too-many-redirects}…
 * @param cause null, or what lies behind a connection-level {@code error}: {@code connection
 *     refused}, {@code connect timeout}, {@code read timeout}, {@code connection reset}…, or for
 *     {@code robots-unreachable} also {@code http-503} and the like
 * @param ip the address the response came from, or null when none did or it came through a proxy
 * @param protocol the HTTP protocol of the response, {@code h2}, {@code http/1.1} or {@code
 *     http/1.0}, or null when none arrived
 * @param sha1 the payload's SHA-1, base32, or null when no response arrived
 * @param warc where the response (or revisit) record went when archiving, or null
 * @param lastmod when the sitemap listing the URL says it last changed, or null
 * @param fetchedAt when the fetch ended
 * @param links the fates of the page's links, adding up to {@code outlinks}; null when the
 *     response was not parsed for links (not a 2xx HTML page, a redirect, a failure, {@code
 *     not-modified})
 * @param refetch 0 for the URL's first record, then 1, 2… for each refetch of a recrawl
 */
public record PageRecord(
    String url,
    int status,
    int depth,
    String via,
    String contentType,
    long bytes,
    long fetchMs,
    int outlinks,
    int newLinks,
    String redirect,
    String error,
    String cause,
    String ip,
    String protocol,
    String sha1,
    WarcLocation warc,
    Instant lastmod,
    Instant fetchedAt,
    LinkCounts links,
    int refetch) {

  public PageRecord {
    Objects.requireNonNull(url, "url");
    Objects.requireNonNull(fetchedAt, "fetchedAt");
  }

  /**
   * Where a URL's response (or revisit) record lies in a WARC archive.
   *
   * @param file the WARC file's name (no directory)
   * @param offset the byte offset of the record's gzip member in the file
   */
  public record WarcLocation(String file, long offset) {
    public WarcLocation {
      Objects.requireNonNull(file, "file");
    }
  }

  /** A builder for the record of {@code url}, fetched at {@code fetchedAt}; the rest null or 0. */
  public static Builder builder(String url, Instant fetchedAt) {
    return new Builder(url, fetchedAt);
  }

  /** Builds a {@link PageRecord}: every component not set is null or 0. Not thread-safe. */
  public static final class Builder {
    private final String url;
    private final Instant fetchedAt;
    private int status;
    private int depth;
    private String via;
    private String contentType;
    private long bytes;
    private long fetchMs;
    private int outlinks;
    private int newLinks;
    private String redirect;
    private String error;
    private String cause;
    private String ip;
    private String protocol;
    private String sha1;
    private WarcLocation warc;
    private Instant lastmod;
    private LinkCounts links;
    private int refetch;

    private Builder(String url, Instant fetchedAt) {
      this.url = url;
      this.fetchedAt = fetchedAt;
    }

    /** Where the URL came from: its depth, referrer and sitemap lastmod. */
    public Builder found(int depth, String via, Instant lastmod) {
      this.depth = depth;
      this.via = via;
      this.lastmod = lastmod;
      return this;
    }

    /** What the response was: status, Content-Type, body bytes kept, fetch time. */
    public Builder response(int status, String contentType, long bytes, long fetchMs) {
      this.status = status;
      this.contentType = contentType;
      this.bytes = bytes;
      this.fetchMs = fetchMs;
      return this;
    }

    /** Links found, links new, and their fates (null when the page was not parsed). */
    public Builder links(int outlinks, int newLinks, LinkCounts links) {
      this.outlinks = outlinks;
      this.newLinks = newLinks;
      this.links = links;
      return this;
    }

    public Builder redirect(String redirect) {
      this.redirect = redirect;
      return this;
    }

    /** The error and its cause, each null when there is none. */
    public Builder error(String error, String cause) {
      this.error = error;
      this.cause = cause;
      return this;
    }

    /** The response's remote address and payload digest, each null when unknown. */
    public Builder payload(String ip, String sha1) {
      this.ip = ip;
      this.sha1 = sha1;
      return this;
    }

    /** The response's HTTP protocol ({@code h2}, {@code http/1.1}), or null when none arrived. */
    public Builder protocol(String protocol) {
      this.protocol = protocol;
      return this;
    }

    /** Which fetch of the URL this is: 0 the first, then 1, 2… for each refetch. */
    public Builder refetch(int refetch) {
      this.refetch = refetch;
      return this;
    }

    public Builder warc(WarcLocation warc) {
      this.warc = warc;
      return this;
    }

    public PageRecord build() {
      return new PageRecord(url, status, depth, via, contentType, bytes, fetchMs, outlinks,
          newLinks, redirect, error, cause, ip, protocol, sha1, warc, lastmod, fetchedAt, links,
          refetch);
    }
  }
}
