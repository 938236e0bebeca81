package dev.sieve.crawl;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sieve.testing.CapturedLogs;
import dev.sieve.testing.Routes;
import dev.sieve.url.Url;
import java.io.IOException;
import java.net.InetAddress;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.UnaryOperator;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Every link a page holds ends with one counted fate, on a loopback server: the page's record and
 * the crawl's totals say what became of each, and the caps on outlinks and query strings hold.
 */
class LinkFatesTest {
  private final Routes routes = new Routes();
  private final MockWebServer server = new MockWebServer();
  private final List<PageRecord> records = new CopyOnWriteArrayList<>();
  private final Map<String, PageRecord> byUrl = new ConcurrentHashMap<>();
  private CrawlProgress summary;

  @BeforeEach
  void start() throws IOException {
    server.setDispatcher(new Calendar(routes));
    server.start(InetAddress.getByName("127.0.0.1"), 0);
  }

  @AfterEach
  void stop() {
    server.close();
  }

  @Test
  void pageWith20000Links_everyOneCrawledUnderTheDefaultCap() throws Exception {
    routes.html("/", links(20_000));

    try (CapturedLogs warnings = new CapturedLogs(LinkClassifier.class.getName())) {
      crawl(b -> b.maxInFlightPerHost(4));

      assertThat(warnings.messages()).isEmpty();
    }
    assertThat(records).hasSize(20_001);
    assertThat(record("/").links().asMap()).containsExactly(
        Map.entry("found", 20_000), Map.entry("new", 20_000));
    assertThat(routes.hits("/p/19999.html")).isEqualTo(1);
  }

  @Test
  void pageWith20000Links_overALowerCap_cappedWithOneWarningAndCounted() throws Exception {
    routes.html("/", links(20_000));

    try (CapturedLogs warnings = new CapturedLogs(LinkClassifier.class.getName())) {
      crawl(b -> b.scope(s -> s.maxOutlinks(5_000)).maxInFlightPerHost(4));

      assertThat(warnings.messages()).containsExactly(url("/")
          + " has more than 5000 distinct links (--max-outlinks): 15000 not followed,"
          + " counted over-outlinks-cap");
    }
    assertThat(records).hasSize(5_001);
    assertThat(record("/").links().asMap()).containsExactly(
        Map.entry("found", 20_000), Map.entry("new", 5_000),
        Map.entry("over-outlinks-cap", 15_000));
    assertThat(summary.links()).containsEntry("over-outlinks-cap", 15_000L);
    assertThat(routes.hits("/p/4999.html")).isEqualTo(1);
    assertThat(routes.hits("/p/5000.html")).isZero();
  }

  @Test
  void calendarTrap_stopsAtTheQueryVariantCapWithOneWarning() throws Exception {
    routes.html("/", "<a href=\"/calendar?month=1\">calendar</a>");

    try (CapturedLogs warnings = new CapturedLogs(QueryVariants.class.getName())) {
      crawl(b -> b);

      assertThat(warnings.messages()).containsExactly("Query trap: " + url("/calendar")
          + " has more than 100 distinct query strings (--max-query-variants);"
          + " further ones are not followed, counted query-trap");
    }
    assertThat(records).hasSize(1 + 100);
    assertThat(urls()).contains(url("/calendar?month=100")).doesNotContain(url("/calendar?month=101"));
    assertThat(summary.links()).containsEntry("query-trap", 1L);
    // Month 100's link back to month 99 was admitted before: seen, not a trap.
    assertThat(record("/calendar?month=100").links().asMap()).containsExactly(
        Map.entry("found", 2), Map.entry("seen", 1), Map.entry("query-trap", 1));
  }

  @Test
  void pageOfEveryKind_eachLinkHasOneFateAndTheyAddUpToTheLinksFound() throws Exception {
    routes.on("/robots.txt", () -> new MockResponse.Builder().code(200)
        .setHeader("Content-Type", "text/plain").body("User-agent: *\nDisallow: /private/\n").build());
    routes.html("/", "<a href=\"/a.html\">new</a>"
        + "<a href=\"/a.html#part\">seen on the page</a>"
        + "<a href=\"/\">seen by the Sieve</a>"
        + "<a rel=\"nofollow\" href=\"/b.html\">nofollow</a>"
        + "<a href=\"mailto:owner@example.com\">invalid</a><a href=\"javascript:void(0)\">invalid</a>"
        + "<a href=\"/" + "x".repeat(200) + ".html\">too long</a>"
        + "<a href=\"http://localhost:" + server.getPort() + "/\">out of scope</a>"
        + "<a href=\"/a/a/a/a/\">path trap</a>"
        + "<a href=\"/private/x.html\">robots-denied</a>"
        + "<a href=\"/q?v=1\">new</a><a href=\"/q?v=2\">query trap</a>");
    routes.html("/a.html", "<a href=\"/deeper.html\">over depth</a>");

    crawl(b -> b.scope(s -> s.maxUrlLength(150).maxQueryVariants(1).maxDepth(1)));

    PageRecord home = record("/");
    assertThat(home.links().asMap()).containsExactly(
        Map.entry("found", 12), Map.entry("new", 2), Map.entry("seen", 2),
        Map.entry("out-of-scope", 1), Map.entry("robots-denied", 1), Map.entry("nofollow", 1),
        Map.entry("invalid", 2), Map.entry("too-long", 1), Map.entry("path-trap", 1),
        Map.entry("query-trap", 1));
    assertThat(home.outlinks()).isEqualTo(12);
    assertThat(home.newLinks()).isEqualTo(2);
    assertThat(record("/a.html").links().asMap()).containsExactly(
        Map.entry("found", 1), Map.entry("over-depth", 1));
    assertThat(urls()).containsExactlyInAnyOrder(url("/"), url("/a.html"), url("/q?v=1"));
    assertThat(summary.links()).containsEntry("found", 13L).containsEntry("new", 2L);
    assertThat(summary.links().entrySet().stream().filter(e -> !e.getKey().equals("found"))
        .mapToLong(Map.Entry::getValue).sum()).isEqualTo(13L);
  }

  @Test
  void notParsed_recordHasNoLinkFates() throws Exception {
    routes.html("/", "<a href=\"/gone.html\">404</a>");

    crawl(b -> b);

    assertThat(record("/").links()).isNotNull();
    assertThat(record("/gone.html").error()).isEqualTo("http-404");
    assertThat(record("/gone.html").links()).isNull();
  }

  private void crawl(UnaryOperator<CrawlConfig.Builder> settings) throws InterruptedException {
    CrawlConfig config = settings.apply(CrawlConfig.builder()
            .seeds(List.of(Url.parse(url("/")).orElseThrow()))
            .threads(4)
            .politenessDelay(Duration.ZERO)
            .expectedUrls(100_000))
        .build();
    summary = Crawler.open(config, new CrawlListener() {
      @Override
      public void onPage(PageRecord record) {
        records.add(record);
        byUrl.put(record.url(), record);
      }
    }).run();
  }

  private String url(String pathAndQuery) {
    return "http://127.0.0.1:" + server.getPort() + pathAndQuery;
  }

  private Set<String> urls() {
    return byUrl.keySet();
  }

  private PageRecord record(String pathAndQuery) {
    PageRecord record = byUrl.get(url(pathAndQuery));
    assertThat(record).as("the record of %s", pathAndQuery).isNotNull();
    return record;
  }

  /** A page linking {@code /p/0.html} … {@code /p/(n-1).html}, which are not served (404). */
  private static String links(int n) {
    StringBuilder html = new StringBuilder("<html><body>\n");
    for (int i = 0; i < n; i++) {
      html.append("<a href=\"/p/").append(i).append(".html\">").append(i).append("</a>\n");
    }
    return html.append("</body></html>").toString();
  }

  /**
   * A calendar trap: {@code /calendar?month=N} links to the next month, for any N, and to the
   * previous one after the first; other paths go to the routes.
   */
  private static final class Calendar extends Dispatcher {
    private final Routes routes;

    Calendar(Routes routes) {
      this.routes = routes;
    }

    @Override
    public MockResponse dispatch(RecordedRequest request) throws InterruptedException {
      String month = request.getUrl().queryParameter("month");
      if (!request.getUrl().encodedPath().equals("/calendar") || month == null) {
        return routes.dispatch(request);
      }
      int n = Integer.parseInt(month);
      return new MockResponse.Builder().code(200).setHeader("Content-Type", "text/html")
          .body("<a href=\"?month=" + (n + 1) + "\">next</a>"
              + (n > 1 ? "<a href=\"?month=" + (n - 1) + "\">previous</a>" : ""))
          .build();
    }
  }
}
