package dev.sieve.sitemap;

import dev.sieve.settings.Check;
import dev.sieve.url.Url;
import java.util.List;
import java.util.Objects;

/**
 * Which sitemaps a crawl reads and how much of them. Immutable; built with {@link #builder()} and
 * validated once in {@link Builder#build()}. Each default is a constant here, read by the builder
 * and by the command line's option defaults.
 *
 * <p>The defaults follow the sitemaps.org protocol, which caps one sitemap file at 50,000 URLs and
 * 50 MB (52,428,800 bytes) uncompressed: a valid sitemap is read whole, and a larger one is cut
 * there. The protocol has no cap on the sitemaps of a site (an index may list 50,000), so the
 * per-authority cap is this crawler's: 1,000 sitemaps of 50,000 URLs are 50 million URLs, five
 * times the Sieve's default capacity, so it binds only where a site would flood the crawl anyway.
 */
public final class SitemapSettings {
  /** Default {@link Builder#maxBytes}: sitemaps.org's 50 MB, uncompressed. */
  public static final long DEFAULT_MAX_BYTES = 52_428_800L;
  /** Default {@link Builder#maxUrls}: sitemaps.org's 50,000 URLs per file. */
  public static final int DEFAULT_MAX_URLS = 50_000;
  /** Default {@link Builder#maxPerAuthority}. */
  public static final int DEFAULT_MAX_PER_AUTHORITY = 1_000;

  private final List<Url> sitemaps;
  private final long maxBytes;
  private final int maxUrls;
  private final int maxPerAuthority;

  private SitemapSettings(Builder b) {
    this.sitemaps = List.copyOf(b.sitemaps);
    this.maxBytes = b.maxBytes;
    this.maxUrls = b.maxUrls;
    this.maxPerAuthority = b.maxPerAuthority;
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Every setting at its default. */
  public static SitemapSettings defaults() {
    return builder().build();
  }

  /** The sitemaps given by the user ({@code --sitemap}), read besides robots.txt's. */
  public List<Url> sitemaps() {
    return sitemaps;
  }

  public long maxBytes() {
    return maxBytes;
  }

  public int maxUrls() {
    return maxUrls;
  }

  public int maxPerAuthority() {
    return maxPerAuthority;
  }

  /** Sitemap settings; every value has a default. */
  public static final class Builder {
    private List<Url> sitemaps = List.of();
    private long maxBytes = DEFAULT_MAX_BYTES;
    private int maxUrls = DEFAULT_MAX_URLS;
    private int maxPerAuthority = DEFAULT_MAX_PER_AUTHORITY;

    private Builder() {}

    /** Sitemaps to read besides those robots.txt names (default none). */
    public Builder sitemaps(List<Url> sitemaps) {
      this.sitemaps = Objects.requireNonNull(sitemaps, "sitemaps");
      return this;
    }

    /**
     * A sitemap is read up to this many bytes after gunzip; the rest is cut off, the part read is
     * used, and the sitemap counted {@code cut} (default 52,428,800).
     */
    public Builder maxBytes(long max) {
      this.maxBytes = max;
      return this;
    }

    /** URLs taken from one sitemap at most; the rest are counted {@code over-url-cap} (default 50,000). */
    public Builder maxUrls(int max) {
      this.maxUrls = max;
      return this;
    }

    /**
     * Sitemap files fetched per authority (scheme, host, port) at most, indexes included; further
     * ones are counted {@code over-authority-cap} (default 1,000); 0 reads no sitemap at all.
     */
    public Builder maxPerAuthority(int max) {
      this.maxPerAuthority = max;
      return this;
    }

    public SitemapSettings build() {
      Check.positive("maxSitemapBytes", maxBytes);
      Check.positive("maxSitemapUrls", maxUrls);
      Check.atLeast("maxSitemapsPerAuthority", maxPerAuthority, 0);
      return new SitemapSettings(this);
    }
  }
}
