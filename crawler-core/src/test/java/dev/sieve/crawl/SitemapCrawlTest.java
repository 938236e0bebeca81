package dev.sieve.crawl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sieve.sitemap.ReadSitemaps;
import dev.sieve.testing.CapturedLogs;
import dev.sieve.testing.Routes;
import dev.sieve.url.Url;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.UnaryOperator;
import java.util.zip.GZIPOutputStream;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import okio.Buffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Sitemaps on a loopback server: robots.txt names an index, the index gzipped and text sitemaps,
 * and the pages only they list are crawled, each with a link fate; bad and oversized sitemaps are
 * one counted line each.
 */
class SitemapCrawlTest {
  private final Routes routes = new Routes();
  private final MockWebServer server = new MockWebServer();
  private final Map<String, PageRecord> byUrl = new ConcurrentHashMap<>();
  private CrawlProgress summary;

  @BeforeEach
  void start() throws IOException {
    server.setDispatcher(routes);
    server.start(InetAddress.getByName("127.0.0.1"), 0);
    routes.html("/", "<p>No links: the other pages are in the sitemaps only.</p>");
  }

  @AfterEach
  void stop() {
    server.close();
  }

  @Test
  void robotsSitemapLine_indexGzAndTextSitemaps_pagesOnlyTheyListAreFetched() throws Exception {
    robots("User-agent: *\nDisallow: /private/\nSitemap: " + url("/sitemap-index.xml") + "\n");
    xml("/sitemap-index.xml", index(url("/maps/pages.xml.gz"), url("/maps/more.txt")));
    byte[] pages = gzip(urlset(url("/only-in-sitemap.html"), url("/"), url("/private/secret.html")));
    routes.on("/maps/pages.xml.gz", () -> new MockResponse.Builder().code(200)
        .setHeader("Content-Type", "application/x-gzip").body(new Buffer().write(pages)).build());
    byte[] text = gzip(url("/from-text.html") + "\n");
    routes.on("/maps/more.txt", () -> new MockResponse.Builder().code(200)
        .setHeader("Content-Type", "text/plain").setHeader("Content-Encoding", "gzip")
        .body(new Buffer().write(text)).build());
    routes.html("/only-in-sitemap.html", "<p>found through the sitemap</p>");
    routes.html("/from-text.html", "<p>found through the text sitemap</p>");

    crawl(b -> b);

    assertThat(byUrl).containsOnlyKeys(url("/"), url("/only-in-sitemap.html"), url("/from-text.html"));
    assertThat(byUrl.get(url("/only-in-sitemap.html")).status()).isEqualTo(200);
    assertThat(byUrl.get(url("/only-in-sitemap.html")).depth()).isEqualTo(1);
    // The sitemap is its referrer, and the lastmod it gives is kept in the page's record.
    assertThat(byUrl.get(url("/only-in-sitemap.html")).via()).isEqualTo(url("/maps/pages.xml.gz"));
    assertThat(byUrl.get(url("/only-in-sitemap.html")).lastmod())
        .isEqualTo(java.time.Instant.parse("2024-05-01T00:00:00Z"));
    assertThat(byUrl.get(url("/from-text.html")).via()).isEqualTo(url("/maps/more.txt"));
    assertThat(byUrl.get(url("/from-text.html")).lastmod()).isNull();
    assertThat(summary.sitemaps()).containsExactlyInAnyOrderEntriesOf(Map.of(
        "fetched", 3L, "from-sitemap", 4L));
    // Each listed URL got a fate: two new, the seed seen, the disallowed one robots-denied.
    assertThat(summary.links()).containsExactly(Map.entry("found", 4L), Map.entry("new", 2L),
        Map.entry("seen", 1L), Map.entry("robots-denied", 1L));
    assertThat(routes.hits("/sitemap-index.xml")).isEqualTo(1);
    assertThat(routes.hits("/maps/pages.xml.gz")).isEqualTo(1);
  }

  @Test
  void sitemapsFetchedInTheAuthoritysPolitenessSlots_notAlongsideItsPages() throws Exception {
    robots("Sitemap: " + url("/a.xml") + "\nSitemap: " + url("/b.xml") + "\n");
    xml("/a.xml", urlset(url("/p1.html")));
    xml("/b.xml", urlset(url("/p2.html")));

    crawl(b -> b.politenessDelay(Duration.ofMillis(100)));

    List<Long> times = routes.log().stream().map(r -> r.nanoTime()).toList();
    assertThat(routes.log()).extracting(r -> r.path()).containsExactly(
        "/robots.txt", "/a.xml", "/b.xml", "/", "/p1.html", "/p2.html");
    for (int i = 1; i < times.size(); i++) {
      assertThat(times.get(i) - times.get(i - 1)).isGreaterThanOrEqualTo(Duration.ofMillis(90).toNanos());
    }
  }

  @Test
  void sitemapGivenByTheUser_readWithoutRobotsNamingIt() throws Exception {
    xml("/listed.xml", urlset(url("/p1.html")));

    crawl(b -> b.sitemaps(s -> s.sitemaps(List.of(Url.parse(url("/listed.xml")).orElseThrow()))));

    assertThat(byUrl).containsKey(url("/p1.html"));
    assertThat(summary.sitemaps()).containsEntry("fetched", 1L).containsEntry("from-sitemap", 1L);
  }

  @Test
  void sitemapGivenByTheUserOnAnAuthorityWithoutSeed_refusedNamingIt() {
    assertThatThrownBy(() -> CrawlConfig.builder()
            .seeds(List.of(Url.parse(url("/")).orElseThrow()))
            .sitemaps(s -> s.sitemaps(List.of(Url.parse("http://localhost:1/s.xml").orElseThrow())))
            .build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("sitemaps (http://localhost:1/s.xml) must be on the authority");
  }

  @Test
  void moreUrlsThanTheCap_firstOnesFollowedRestCountedWithOneLine() throws Exception {
    robots("Sitemap: " + url("/many.xml") + "\n");
    xml("/many.xml", urlset(url("/m1.html"), url("/m2.html"), url("/m3.html"), url("/m4.html")));

    try (CapturedLogs logs = new CapturedLogs(SitemapStep.class.getName())) {
      crawl(b -> b.sitemaps(s -> s.maxUrls(2)));

      assertThat(logs.messages()).containsExactly("Sitemap " + url("/many.xml")
          + " lists more URLs than --max-sitemap-urls: 2 not followed, counted over-url-cap");
    }
    assertThat(summary.sitemaps()).containsExactlyInAnyOrderEntriesOf(Map.of(
        "fetched", 1L, "from-sitemap", 2L, "over-url-cap", 2L));
    assertThat(byUrl).containsOnlyKeys(url("/"), url("/m1.html"), url("/m2.html"));
  }

  @Test
  void largerThanTheByteCap_cutWithOneLineAndItsFirstPartFollowed() throws Exception {
    robots("Sitemap: " + url("/big.xml") + "\n");
    StringBuilder big = new StringBuilder();
    for (int i = 0; i < 200; i++) {
      big.append("<url><loc>").append(url("/big/" + i + ".html")).append("</loc></url>");
    }
    xml("/big.xml", "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">" + big + "</urlset>");

    try (CapturedLogs logs = new CapturedLogs(SitemapStep.class.getName())) {
      crawl(b -> b.sitemaps(s -> s.maxBytes(2_000)));

      assertThat(logs.messages()).containsExactly("Sitemap " + url("/big.xml")
          + " is larger than the caps (--max-sitemap-bytes after gunzip, --max-body-bytes as"
          + " fetched): reading its first part only");
    }
    assertThat(summary.sitemaps()).containsEntry("fetched", 1L).containsEntry("cut", 1L);
    // About 50 bytes a URL: the ones whole in the first 2,000 bytes.
    long listed = summary.sitemaps().get("from-sitemap");
    assertThat(listed).isBetween(30L, 45L);
    assertThat(byUrl).hasSize((int) listed + 1).containsKey(url("/big/0.html"))
        .doesNotContainKey(url("/big/199.html"));
  }

  @Test
  void malformedAndMissingSitemaps_oneLineEachNamingItAndCounted() throws Exception {
    robots("Sitemap: " + url("/broken.xml") + "\nSitemap: " + url("/gone.xml") + "\n"
        + "Sitemap: http://localhost:" + server.getPort() + "/elsewhere.xml\n");
    xml("/broken.xml", "<urlset><url><loc>" + url("/x.html") + "</loc></url><url>");

    try (CapturedLogs logs = new CapturedLogs(SitemapStep.class.getName())) {
      crawl(b -> b);

      assertThat(logs.messages()).anyMatch(m -> m.startsWith(
          "Sitemap " + url("/broken.xml") + " not read: malformed-xml"));
      assertThat(logs.messages()).contains("Sitemap " + url("/gone.xml") + " not read: http-404");
      assertThat(logs.messages()).contains("Sitemap http://localhost:" + server.getPort()
          + "/elsewhere.xml named by robots.txt of " + url("") + " is on another authority:"
          + " not read, counted cross-authority");
      assertThat(logs.events()).allMatch(e -> e.getThrowableProxy() == null);
    }
    assertThat(summary.sitemaps()).containsExactlyInAnyOrderEntriesOf(Map.of(
        "failed", 2L, "cross-authority", 1L));
    assertThat(routes.hits("/elsewhere.xml")).isZero();
    assertThat(byUrl).containsOnlyKeys(url("/"));
  }

  @Test
  void resumedCrawl_doesNotReadItsSitemapsAgain(@TempDir Path state) throws Exception {
    robots("Sitemap: " + url("/pages.xml") + "\n");
    xml("/pages.xml", urlset(url("/p1.html"), url("/p2.html"), url("/p3.html")));

    crawl(b -> b.stateDir(state).maxPages(2));
    Map<String, PageRecord> first = Map.copyOf(byUrl);
    crawl(b -> b.stateDir(state));

    assertThat(first).hasSize(2);
    assertThat(byUrl).containsOnlyKeys(url("/"), url("/p1.html"), url("/p2.html"), url("/p3.html"));
    assertThat(routes.hits("/robots.txt")).as("fetched again by the new run").isEqualTo(2);
    assertThat(routes.hits("/pages.xml")).isEqualTo(1);
    assertThat(Files.readAllLines(state.resolve(ReadSitemaps.FILE))).singleElement().asString()
        .startsWith(url("/pages.xml") + "\t");
    // What the first run's reading counted is counted on, not lost with its live counters.
    assertThat(summary.sitemaps()).containsEntry("fetched", 1L).containsEntry("from-sitemap", 3L);
    assertThat(summary.links()).containsEntry("new", 3L);
  }

  @Test
  void newCrawlInTheStateOfAnother_readsItsSitemapsAgain(@TempDir Path state) throws Exception {
    robots("Sitemap: " + url("/pages.xml") + "\n");
    xml("/pages.xml", urlset(url("/p1.html")));

    crawl(b -> b.stateDir(state));
    crawl(b -> b.stateDir(state).freshState(true));

    assertThat(routes.hits("/pages.xml")).isEqualTo(2);
    assertThat(summary.sitemaps()).containsEntry("fetched", 1L);
  }

  @Test
  void sitemapRobotsTxtDisallows_notFetched_countedFailedWithTheCause() throws Exception {
    robots("User-agent: *\nDisallow: /hidden/\nSitemap: " + url("/hidden/map.xml") + "\n");
    xml("/hidden/map.xml", urlset(url("/p1.html")));

    try (CapturedLogs logs = new CapturedLogs(SitemapStep.class.getName())) {
      crawl(b -> b);

      assertThat(logs.messages()).containsExactly(
          "Sitemap " + url("/hidden/map.xml") + " not read: robots-denied");
    }
    assertThat(routes.hits("/hidden/map.xml")).isZero();
    assertThat(summary.sitemaps()).containsExactly(Map.entry("failed", 1L));
  }

  @Test
  void moreSitemapsThanTheCapPerAuthority_restCountedWithOneLine() throws Exception {
    robots("Sitemap: " + url("/index.xml") + "\n");
    xml("/index.xml", index(url("/s1.xml"), url("/s2.xml"), url("/s3.xml")));
    xml("/s1.xml", urlset(url("/p1.html")));

    try (CapturedLogs logs = new CapturedLogs(SitemapStep.class.getName())) {
      crawl(b -> b.sitemaps(s -> s.maxPerAuthority(2)));

      assertThat(logs.messages()).containsExactly(url("") + " names more than 2 sitemaps"
          + " (--max-sitemaps-per-authority): " + url("/s2.xml") + " and further ones are not"
          + " read, counted over-authority-cap");
    }
    assertThat(summary.sitemaps()).containsExactlyInAnyOrderEntriesOf(Map.of(
        "fetched", 2L, "from-sitemap", 1L, "over-authority-cap", 2L));
    assertThat(routes.hits("/s2.xml") + routes.hits("/s3.xml")).isZero();
    assertThat(byUrl).containsKey(url("/p1.html"));
  }

  @Test
  void sitemapIndexListingItself_readOnce() throws Exception {
    robots("Sitemap: " + url("/loop.xml") + "\n");
    xml("/loop.xml", index(url("/loop.xml")));

    crawl(b -> b);

    assertThat(routes.hits("/loop.xml")).isEqualTo(1);
    assertThat(summary.sitemaps()).containsExactly(Map.entry("fetched", 1L));
  }

  private void crawl(UnaryOperator<CrawlConfig.Builder> settings) throws InterruptedException {
    CrawlConfig config = settings.apply(CrawlConfig.builder()
            .seeds(List.of(Url.parse(url("/")).orElseThrow()))
            .threads(2)
            .politenessDelay(Duration.ZERO)
            .expectedUrls(10_000))
        .build();
    summary = Crawler.open(config, new CrawlListener() {
      @Override
      public void onPage(PageRecord record) {
        byUrl.put(record.url(), record);
      }
    }).run();
  }

  private void robots(String body) {
    routes.on("/robots.txt", () -> new MockResponse.Builder().code(200)
        .setHeader("Content-Type", "text/plain").body(body).build());
  }

  private void xml(String path, String body) {
    routes.on(path, () -> new MockResponse.Builder().code(200)
        .setHeader("Content-Type", "application/xml").body(body).build());
  }

  private static String urlset(String... urls) {
    StringBuilder xml = new StringBuilder(
        "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">");
    for (String url : urls) {
      xml.append("<url><loc>").append(url).append("</loc><lastmod>2024-05-01</lastmod></url>");
    }
    return xml.append("</urlset>").toString();
  }

  private static String index(String... sitemaps) {
    StringBuilder xml = new StringBuilder(
        "<sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">");
    for (String sitemap : sitemaps) {
      xml.append("<sitemap><loc>").append(sitemap).append("</loc></sitemap>");
    }
    return xml.append("</sitemapindex>").toString();
  }

  private static byte[] gzip(String s) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
      gz.write(s.getBytes(StandardCharsets.UTF_8));
    }
    return out.toByteArray();
  }

  private String url(String path) {
    return "http://127.0.0.1:" + server.getPort() + path;
  }
}
