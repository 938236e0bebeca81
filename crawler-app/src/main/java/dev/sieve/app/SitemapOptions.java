package dev.sieve.app;

import dev.sieve.crawl.CrawlConfig;
import dev.sieve.sitemap.SitemapSettings;
import dev.sieve.url.Url;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * {@code crawl}'s sitemap options: sitemaps to read besides those robots.txt names, and the caps
 * on how much of them is read.
 */
final class SitemapOptions {
  @Setting("sitemaps")
  @Option(names = "--sitemap", paramLabel = "URL", split = "\\s+",
      description = "Read this sitemap (XML, text, index, gzipped or not) besides those robots.txt"
          + " names; on a seed's authority; repeatable (default: none).")
  List<String> sitemaps = new ArrayList<>();

  @Setting("maxSitemapBytes")
  @Option(names = "--max-sitemap-bytes", defaultValue = "" + SitemapSettings.DEFAULT_MAX_BYTES, paramLabel = "BYTES",
      description = "A sitemap is read up to this size after gunzip and the rest counted cut; it"
          + " is also fetched under --max-body-bytes (default ${DEFAULT-VALUE}, sitemaps.org's 50 MB).")
  long maxSitemapBytes;

  @Setting("maxSitemapUrls")
  @Option(names = "--max-sitemap-urls", defaultValue = "" + SitemapSettings.DEFAULT_MAX_URLS, paramLabel = "N",
      description = "URLs taken from one sitemap at most; the rest are counted over-url-cap"
          + " (default ${DEFAULT-VALUE}, sitemaps.org's limit).")
  int maxSitemapUrls;

  @Setting("maxSitemapsPerAuthority")
  @Option(names = "--max-sitemaps-per-authority", defaultValue = "" + SitemapSettings.DEFAULT_MAX_PER_AUTHORITY, paramLabel = "N",
      description = "Sitemap files read per authority (scheme, host, port), indexes included;"
          + " 0 reads none (default ${DEFAULT-VALUE}).")
  int maxSitemapsPerAuthority;

  /**
   * Sets the sitemap settings of {@code config}.
   *
   * @throws IllegalArgumentException naming the setting, for a value that is not a URL
   */
  CrawlConfig.Builder applyTo(CrawlConfig.Builder config) {
    List<Url> urls = new ArrayList<>();
    for (String sitemap : sitemaps) {
      urls.add(Url.parse(sitemap).orElseThrow(() -> new IllegalArgumentException(
          "sitemaps (" + sitemap + ") is not an absolute http(s) URL")));
    }
    return config.sitemaps(s -> s.sitemaps(urls)
        .maxBytes(maxSitemapBytes)
        .maxUrls(maxSitemapUrls)
        .maxPerAuthority(maxSitemapsPerAuthority));
  }
}
