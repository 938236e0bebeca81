package dev.sieve.sitemap;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sieve.url.Url;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;

/** Sitemap files as the web serves them, good and bad, read into URLs with bounded memory. */
class SitemapReaderTest {
  private static final Url AT = Url.parse("http://example.com/sitemap.xml").orElseThrow();
  private final SitemapReader reader = new SitemapReader(1 << 20, 100);

  @Test
  void xmlSitemap_listsUrlsWithTheirLastmod() {
    SitemapContent content = reader.read(AT, bytes(urlset(
        "<url><loc>http://example.com/a</loc><lastmod>2024-05-01T10:00:00Z</lastmod></url>"
            + "<url><loc>http://example.com/b</loc></url>")), false);

    assertThat(content.failure()).isNull();
    assertThat(content.urls()).containsExactly(
        new SitemapContent.Entry("http://example.com/a", Instant.parse("2024-05-01T10:00:00Z")),
        new SitemapContent.Entry("http://example.com/b", null));
    assertThat(content.sitemaps()).isEmpty();
    assertThat(content.cut()).isFalse();
  }

  @Test
  void sitemapIndex_listsItsSitemaps() {
    String index = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>"
        + "<sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">"
        + "<sitemap><loc>http://example.com/s1.xml.gz</loc><lastmod>2024-01-02</lastmod></sitemap>"
        + "</sitemapindex>";

    SitemapContent content = reader.read(AT, bytes(index), false);

    assertThat(content.urls()).isEmpty();
    assertThat(content.sitemaps()).extracting(SitemapContent.Entry::url)
        .containsExactly("http://example.com/s1.xml.gz");
    assertThat(content.sitemaps().get(0).lastmod()).isNotNull();
  }

  @Test
  void gzippedSitemap_readByItsMagicBytes() throws IOException {
    byte[] gz = gzip(bytes(urlset("<url><loc>http://example.com/gz</loc></url>")));

    SitemapContent content = reader.read(AT, gz, false);

    assertThat(content.urls()).extracting(SitemapContent.Entry::url)
        .containsExactly("http://example.com/gz");
  }

  @Test
  void textSitemap_oneUrlALine() {
    SitemapContent content = reader.read(AT,
        bytes("http://example.com/t1\n\nhttp://example.com/t2\r\n"), false);

    assertThat(content.failure()).isNull();
    assertThat(content.urls()).extracting(SitemapContent.Entry::url)
        .containsExactly("http://example.com/t1", "http://example.com/t2");
  }

  @Test
  void malformedXml_failsWithACauseAndNoUrls() {
    SitemapContent content = reader.read(AT,
        bytes("<urlset><url><loc>http://example.com/a</loc></url><url><loc>"), false);

    assertThat(content.failure()).startsWith("malformed-xml");
    assertThat(content.urls()).isEmpty();
  }

  @Test
  void moreUrlsThanTheCap_firstOnesKeptRestCounted() {
    StringBuilder urls = new StringBuilder();
    for (int i = 0; i < 250; i++) {
      urls.append("<url><loc>http://example.com/p").append(i).append("</loc></url>");
    }

    SitemapContent content = reader.read(AT, bytes(urlset(urls.toString())), false);

    assertThat(content.urls()).hasSize(100);
    assertThat(content.urls().get(99).url()).isEqualTo("http://example.com/p99");
    assertThat(content.overCap()).isEqualTo(150);
  }

  @Test
  void largerThanTheByteCap_cutAndTheWholeUrlsBeforeTheCutRead() throws IOException {
    StringBuilder urls = new StringBuilder();
    for (int i = 0; i < 50; i++) {
      urls.append("<url><loc>http://example.com/p").append(i).append("</loc></url>");
    }
    byte[] xml = bytes(urlset(urls.toString()));
    SitemapReader small = new SitemapReader(xml.length / 2, 100);

    SitemapContent plain = small.read(AT, xml, false);
    SitemapContent gzipped = small.read(AT, gzip(xml), false);

    assertThat(plain.cut()).isTrue();
    assertThat(plain.failure()).isNull();
    assertThat(plain.urls()).hasSizeBetween(15, 25);
    assertThat(gzipped.cut()).isTrue();
    assertThat(gzipped.urls()).isEqualTo(plain.urls());
  }

  @Test
  void gzipCutByTheFetcher_readUpToTheCut() throws IOException {
    StringBuilder urls = new StringBuilder();
    for (int i = 0; i < 2000; i++) {
      urls.append("<url><loc>http://example.com/page-").append(i * 7919L).append("</loc></url>");
    }
    byte[] gz = gzip(bytes(urlset(urls.toString())));

    SitemapContent content = reader.read(AT, Arrays.copyOf(gz, gz.length / 2), true);

    assertThat(content.cut()).isTrue();
    assertThat(content.urls()).isNotEmpty().hasSizeLessThanOrEqualTo(100);
  }

  @Test
  void garbageGzip_failsWithACause() {
    SitemapContent content = reader.read(AT, new byte[] {0x1f, (byte) 0x8b, 1, 2, 3}, false);

    assertThat(content.failure()).startsWith("bad-gzip");
  }

  private static String urlset(String urls) {
    return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>"
        + "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">" + urls + "</urlset>";
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] gzip(byte[] data) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
      gz.write(data);
    }
    return out.toByteArray();
  }
}
