package dev.sieve.sitemap;

import java.time.Instant;
import java.util.List;

/**
 * What one sitemap file held, as {@link SitemapReader} read it.
 *
 * @param urls the page URLs it lists, in order, at most the reader's cap (empty for an index)
 * @param sitemaps the sitemaps an index lists (empty for a plain sitemap)
 * @param overCap the URLs past the cap, not kept
 * @param cut whether the file was cut (at the byte cap, or by the fetcher's body cap) and only its
 *     first part was read
 * @param failure why nothing could be read ({@code malformed-xml: …}, {@code bad-gzip: …}), or
 *     null when it was read
 */
public record SitemapContent(
    List<Entry> urls, List<Entry> sitemaps, int overCap, boolean cut, String failure) {
  public SitemapContent {
    urls = List.copyOf(urls);
    sitemaps = List.copyOf(sitemaps);
  }

  static SitemapContent failed(String failure, boolean cut) {
    return new SitemapContent(List.of(), List.of(), 0, cut, failure);
  }

  /**
   * One URL a sitemap lists: its {@code loc} as written (not yet normalized) and its {@code
   * lastmod}, or null when it gives none or an unreadable one.
   */
  public record Entry(String url, Instant lastmod) {}
}
