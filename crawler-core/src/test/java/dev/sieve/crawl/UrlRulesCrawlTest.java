package dev.sieve.crawl;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sieve.testing.Routes;
import dev.sieve.url.Url;
import java.io.IOException;
import java.net.InetAddress;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code --include}/{@code --exclude} on a loopback site: links, redirect targets and sitemap URLs
 * that fail them are counted {@code excluded} and never fetched; the seed is fetched regardless.
 */
class UrlRulesCrawlTest {
  private final Routes routes = new Routes();
  private final MockWebServer server = new MockWebServer();
  private final Map<String, PageRecord> byUrl = new ConcurrentHashMap<>();

  @BeforeEach
  void start() throws IOException {
    server.setDispatcher(routes);
    server.start(InetAddress.getByName("127.0.0.1"), 0);
  }

  @AfterEach
  void stop() {
    server.close();
  }

  @Test
  void includeAndExclude_obeyedAndEveryRefusalCountedExcluded() throws Exception {
    routes.on("/robots.txt", () -> new MockResponse.Builder().code(200)
        .setHeader("Content-Type", "text/plain").body("Sitemap: " + url("/sitemap.xml")).build());
    routes.on("/sitemap.xml", () -> new MockResponse.Builder().code(200)
        .setHeader("Content-Type", "application/xml")
        .body("<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">"
            + "<url><loc>" + url("/docs/listed.html") + "</loc></url>"
            + "<url><loc>" + url("/blog/listed.html") + "</loc></url></urlset>").build());
    routes.html("/", "<a href=\"/docs/a.html\">included</a>"
        + "<a href=\"/docs/a.html?sort=asc\">excluded: exclude wins</a>"
        + "<a href=\"/blog/b.html\">excluded: no include matches</a>"
        + "<a href=\"/docs/moved\">included, redirects out</a>");
    routes.html("/docs/a.html", "<a href=\"/docs/c.html\">included</a>");
    routes.html("/docs/c.html", "");
    routes.html("/docs/listed.html", "");
    routes.redirect("/docs/moved", "/blog/target.html");

    CrawlProgress summary = Crawler.open(CrawlConfig.builder()
        .seeds(List.of(Url.parse(url("/")).orElseThrow()))
        .threads(2)
        .politenessDelay(Duration.ZERO)
        .expectedUrls(10_000)
        .scope(s -> s.include(List.of("/docs/")).exclude(List.of("[?&]sort=")))
        .build(), new CrawlListener() {
          @Override
          public void onPage(PageRecord record) {
            byUrl.put(record.url(), record);
          }
        }).run();

    // The seed does not match --include and is fetched all the same.
    assertThat(byUrl).containsOnlyKeys(url("/"), url("/docs/a.html"), url("/docs/c.html"),
        url("/docs/moved"), url("/docs/listed.html"));
    assertThat(byUrl.get(url("/")).links().asMap()).containsExactly(
        Map.entry("found", 4), Map.entry("new", 2), Map.entry("excluded", 2));
    assertThat(summary.skipped()).containsEntry("excluded", 1L);
    assertThat(routes.hits("/blog/target.html")).isZero();
    assertThat(routes.hits("/blog/b.html")).isZero();
    assertThat(routes.hits("/blog/listed.html")).isZero();
    // Page links (4 + 1) and sitemap URLs (2): every one with a fate, adding up to found.
    assertThat(summary.links()).containsExactly(Map.entry("found", 7L), Map.entry("new", 4L),
        Map.entry("excluded", 3L));
    assertThat(summary.sitemaps()).containsEntry("from-sitemap", 2L);
  }

  private String url(String path) {
    return "http://127.0.0.1:" + server.getPort() + path;
  }
}
