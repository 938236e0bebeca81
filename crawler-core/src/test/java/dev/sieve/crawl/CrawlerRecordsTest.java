package dev.sieve.crawl;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sieve.frontier.Lease;
import dev.sieve.frontier.Sieve;
import dev.sieve.frontier.local.LocalFrontier;
import dev.sieve.testing.Routes;
import dev.sieve.url.Url;
import java.io.IOException;
import java.net.InetAddress;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import mockwebserver3.MockWebServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Each record tells how its URL was reached and what it led to: the referrer ({@code via}), a
 * redirect's resolved target, the sitemap's {@code lastmod}, and where its response was archived.
 */
class CrawlerRecordsTest {
  private final Routes routes = new Routes();
  private final MockWebServer server = new MockWebServer();
  private final Map<String, PageRecord> byUrl = new ConcurrentHashMap<>();

  @BeforeEach
  void start() throws IOException {
    routes.html("/", "<a href=\"/a.html\">a</a> <a href=\"/old\">old</a>");
    routes.html("/a.html", "<p>no links</p>");
    routes.on("/old", () -> new mockwebserver3.MockResponse.Builder().code(301)
        .setHeader("Location", "docs/new.html?x=1#top").build());
    routes.html("/docs/new.html", "<a href=\"/a.html\">back</a>");
    server.setDispatcher(routes);
    server.start(InetAddress.getByName("127.0.0.1"), 0);
  }

  @AfterEach
  void stop() {
    server.close();
  }

  @Test
  void crawl_seed_hasNoVia() throws Exception {
    crawl();

    assertThat(record("/").via()).isNull();
    assertThat(record("/").redirect()).isNull();
    assertThat(record("/").lastmod()).isNull();
  }

  @Test
  void crawl_linkedPage_viaIsThePageItWasFirstFoundOn() throws Exception {
    crawl();

    assertThat(record("/a.html").via()).isEqualTo(url("/"));
    assertThat(record("/a.html").depth()).isEqualTo(1);
  }

  @Test
  void crawl_redirect_recordsTheLocationResolvedAndTheTargetsViaIsTheRedirect() throws Exception {
    crawl();

    PageRecord redirect = record("/old");
    assertThat(redirect.status()).isEqualTo(301);
    assertThat(redirect.redirect()).isEqualTo(url("/docs/new.html?x=1"));
    assertThat(redirect.via()).isEqualTo(url("/"));
    PageRecord target = record("/docs/new.html?x=1");
    assertThat(target.via()).isEqualTo(url("/old"));
    assertThat(target.redirect()).as("not a redirect").isNull();
    assertThat(target.depth()).isEqualTo(redirect.depth());
  }

  @Test
  void record_leaseFromASitemap_carriesItsLastmodAndViaAndWhereItWasArchived() {
    Instant lastmod = Instant.parse("2025-05-05T05:05:05Z");
    LocalFrontier frontier = LocalFrontier.builder(Sieve.create(100, 1e-6))
        .politenessDelay(Duration.ZERO).build();
    frontier.push(Url.parse(url("/listed")).orElseThrow(), 1, url("/sitemap.xml"), lastmod);
    Lease lease = frontier.poll();
    Clock clock = Clock.fixed(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC);
    Recorder recorder = new Recorder(new CrawlListener() {
      @Override
      public void onPage(PageRecord record) {
        byUrl.put(record.url(), record);
      }
    }, frontier, frontier::flushLog, new CrawlStats(), clock);

    Recorder.Outcome outcome = recorder.of(lease);
    outcome.archived("SIEVE-1.warc.gz", 4096, null, null);
    outcome.record(null, 0, 0, "http-404");
    outcome.finish();

    PageRecord record = record("/listed");
    assertThat(record.lastmod()).isEqualTo(lastmod);
    assertThat(record.via()).isEqualTo(url("/sitemap.xml"));
    assertThat(record.warc()).isEqualTo(new PageRecord.WarcLocation("SIEVE-1.warc.gz", 4096));
    assertThat(record.fetchedAt()).isEqualTo(clock.instant());
    assertThat(frontier.isFinished()).isTrue();
  }

  private void crawl() throws InterruptedException {
    CrawlConfig config = CrawlConfig.builder()
        .seeds(List.of(Url.parse(url("/")).orElseThrow()))
        .threads(2)
        .politenessDelay(Duration.ZERO)
        .expectedUrls(1000)
        .build();
    Crawler.open(config, new CrawlListener() {
      @Override
      public void onPage(PageRecord record) {
        byUrl.put(record.url(), record);
      }
    }).run();
  }

  private String url(String pathAndQuery) {
    return "http://127.0.0.1:" + server.getPort() + pathAndQuery;
  }

  private PageRecord record(String pathAndQuery) {
    PageRecord record = byUrl.get(url(pathAndQuery));
    assertThat(record).as("the record of %s", pathAndQuery).isNotNull();
    return record;
  }
}
