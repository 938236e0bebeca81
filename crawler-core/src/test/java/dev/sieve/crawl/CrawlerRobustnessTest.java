package dev.sieve.crawl;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sieve.testing.Routes;
import dev.sieve.testing.TestSite;
import dev.sieve.url.Scope;
import dev.sieve.url.Url;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;
import java.util.zip.GZIPOutputStream;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import okio.Buffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The crawl against the web's bad days: each test asserts what the server saw and what was recorded. */
class CrawlerRobustnessTest {
  private static final int MIB = 1 << 20;
  private final Routes routes = new Routes();
  private final MockWebServer server = new MockWebServer();
  private final List<PageRecord> records = new CopyOnWriteArrayList<>();
  private final List<String> skippedHosts = new CopyOnWriteArrayList<>();
  private CrawlProgress summary;

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
  void robotsDisallow_disallowedUrlNeverFetchedAndCounted() throws Exception {
    routes.on("/robots.txt", text("User-agent: *\nDisallow: /private/\n"));
    routes.html("/", links("/private/secret.html", "/public/page.html"));
    routes.html("/public/page.html", "<p>hello</p>");

    crawl(b -> b);

    assertThat(routes.hits("/private/secret.html")).isZero();
    assertThat(routes.hits("/public/page.html")).isEqualTo(1);
    assertThat(routes.hits("/robots.txt")).isEqualTo(1);
    // robots.txt was fetched before "/", so the link is refused when found: a link fate.
    assertThat(summary.links()).containsEntry("robots-denied", 1L);
    assertThat(urls()).containsExactlyInAnyOrder(url("/"), url("/public/page.html"));
  }

  @Test
  void robotsAgentGroup_rulesForOurTokenApply() throws Exception {
    routes.on("/robots.txt", text("User-agent: sievebot\nDisallow: /\n\nUser-agent: *\nAllow: /\n"));
    routes.html("/", links("/a.html"));

    crawl(b -> b.fetch(f -> f.userAgent("SieveBot/0.1 (+https://example.invalid/sieve)")));

    assertThat(routes.hits("/")).isZero();
    assertThat(summary.skipped()).containsEntry("robots-denied", 1L);
  }

  @Test
  void crawlDelay_serverNeverSeesTwoPageRequestsCloserThanIt() throws Exception {
    routes.on("/robots.txt", text("User-agent: *\nCrawl-delay: 0.3\n"));
    routes.html("/", links("/1.html", "/2.html", "/3.html"));

    crawl(b -> b.politenessDelay(Duration.ZERO));

    assertThat(records).hasSize(4);
    assertSpacing(routes.log(), Duration.ofMillis(300));
  }

  @Test
  void crawlDelayAboveMaximum_hostSkippedAndCounted() throws Exception {
    routes.on("/robots.txt", text("User-agent: *\nCrawl-delay: 120\n"));
    routes.html("/", links("/1.html"));

    crawl(b -> b.robots(r -> r.maxCrawlDelay(Duration.ofSeconds(30))));

    assertThat(routes.hits("/")).isZero();
    assertThat(records).isEmpty();
    assertThat(summary.skipped()).containsEntry("host-skipped", 1L);
    assertThat(skippedHosts).containsExactly(url(""));
  }

  @Test
  void robots5xx_hostWaitsThenCrawlsWhenRobotsRecovers() throws Exception {
    int[] robotsCalls = {0};
    routes.on("/robots.txt", () -> ++robotsCalls[0] == 1
        ? new MockResponse.Builder().code(503).build()
        : new MockResponse.Builder().code(404).build());
    routes.html("/", "<p>home</p>");

    crawl(b -> b.robots(r -> r.retryInterval(Duration.ofMillis(200))));

    assertThat(routes.hits("/robots.txt")).isEqualTo(2);
    assertThat(routes.hits("/")).isEqualTo(1);
    assertThat(records).singleElement().satisfies(r -> assertThat(r.status()).isEqualTo(200));
  }

  @Test
  void politenessDelay_serverNeverSeesTwoRequestsToOneHostCloserThanIt() throws Exception {
    routes.html("/", links("/1.html", "/2.html", "/3.html", "/4.html"));

    crawl(b -> b.politenessDelay(Duration.ofMillis(250)).threads(4));

    assertThat(records).hasSize(5);
    assertSpacing(routes.log(), Duration.ofMillis(250));
  }

  @Test
  void manyHosts_fetchedInParallelWhileEachKeepsItsSpacing() throws Exception {
    Duration delay = Duration.ofMillis(300);
    List<MockWebServer> others = new ArrayList<>();
    try {
      List<Url> seeds = new ArrayList<>();
      for (int h = 1; h <= 4; h++) {
        MockWebServer host = h == 1 ? server : new MockWebServer();
        if (h > 1) {
          host.setDispatcher(routes);
          host.start(InetAddress.getByName("127.0.0." + h), server.getPort());
          others.add(host);
        }
        seeds.add(Url.parse("http://127.0.0." + h + ":" + server.getPort() + "/").orElseThrow());
      }
      routes.html("/", links("/1.html", "/2.html", "/3.html", "/4.html"));

      long start = System.nanoTime();
      crawl(b -> b.seeds(seeds).politenessDelay(delay).threads(4));
      long elapsed = System.nanoTime() - start;

      assertThat(records).hasSize(20);
      assertSpacing(routes.log(), delay);
      // One host at a time would need at least 19 delays between its 20 requests.
      assertThat(Duration.ofNanos(elapsed)).isLessThan(delay.multipliedBy(19));
    } finally {
      others.forEach(MockWebServer::close);
    }
  }

  @Test
  void maxPagesPerHost_budgetHoldsAndTheRestIsCounted() throws Exception {
    routes.html("/", links("/1.html", "/2.html", "/3.html", "/4.html"));

    crawl(b -> b.maxPagesPerHost(3));

    assertThat(records).hasSize(3);
    assertThat(summary.skipped()).containsEntry("host-budget", 2L);
  }

  @Test
  void retryAfter_hostWaitsThenTheUrlIsFetchedAgain() throws Exception {
    int[] calls = {0};
    routes.on("/", () -> ++calls[0] == 1
        ? new MockResponse.Builder().code(503).setHeader("Retry-After", "1").build()
        : new MockResponse.Builder().code(200).setHeader("Content-Type", "text/html").body("ok").build());

    crawl(b -> b);

    List<TestSite.Request> pages = pageRequests();
    assertThat(pages).hasSize(2);
    assertThat(Duration.ofNanos(pages.get(1).nanoTime() - pages.get(0).nanoTime()))
        .isGreaterThanOrEqualTo(Duration.ofSeconds(1));
    assertThat(records).singleElement().satisfies(r -> assertThat(r.status()).isEqualTo(200));
    assertThat(summary.retries()).isEqualTo(1);
  }

  @Test
  void serverErrors_retriedThenRecordedOnce() throws Exception {
    routes.on("/", () -> new MockResponse.Builder().code(500).build());

    crawl(b -> b.fetch(f -> f.retries(2)));

    assertThat(routes.hits("/")).isEqualTo(3);
    assertThat(records).singleElement().satisfies(r -> {
      assertThat(r.status()).isEqualTo(500);
      assertThat(r.error()).isEqualTo("http-500");
    });
    assertThat(summary.retries()).isEqualTo(2);
    assertThat(summary.errors()).containsEntry("http-5xx", 1L);
  }

  @Test
  void deadHost_robotsUnreachableRetriedPerHostThenRecordedWithCause() throws Exception {
    int deadPort;
    try (java.net.ServerSocket socket = new java.net.ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
      deadPort = socket.getLocalPort();
    }
    Url dead = Url.parse("http://127.0.0.1:" + deadPort + "/").orElseThrow();

    crawl(b -> b.seeds(List.of(dead)).fetch(f -> f.retries(1)).robots(r -> r.retryInterval(Duration.ofMillis(100))));

    assertThat(records).singleElement().satisfies(r -> {
      assertThat(r.status()).isZero();
      assertThat(r.error()).isEqualTo("robots-unreachable");
      assertThat(r.cause()).isEqualTo("connection refused");
    });
    assertThat(summary.retries()).as("robots.txt is retried for the host, not the URL").isZero();
  }

  @Test
  void deadHostWithoutRobots_connectionRefusedRetriedThenRecorded() throws Exception {
    int deadPort;
    try (java.net.ServerSocket socket = new java.net.ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
      deadPort = socket.getLocalPort();
    }
    Url dead = Url.parse("http://127.0.0.1:" + deadPort + "/").orElseThrow();

    crawl(b -> b.seeds(List.of(dead)).fetch(f -> f.retries(2)).robots(r -> r.respect(false)).fetch(f -> f.hostFailureLimit(5)));

    assertThat(records).singleElement().satisfies(r -> {
      assertThat(r.status()).isZero();
      assertThat(r.error()).isEqualTo("connect");
      assertThat(r.cause()).isEqualTo("connection refused");
    });
    assertThat(summary.retries()).isEqualTo(2);
    assertThat(summary.errors()).containsEntry("connect", 1L);
  }

  @Test
  void redirectLoop_endsWithAnErrorRecordAndEachUrlFetchedOnce() throws Exception {
    routes.redirect("/", "/a").redirect("/a", "/b").redirect("/b", "/a");

    crawl(b -> b);

    assertThat(routes.hits("/a")).isEqualTo(1);
    assertThat(routes.hits("/b")).isEqualTo(1);
    assertThat(record("/b").error()).isEqualTo("redirect-loop");
    assertThat(records).hasSize(3);
  }

  @Test
  void longRedirectChain_endsAfterFiveRedirectsWithAnError() throws Exception {
    routes.redirect("/", "/r1");
    for (int i = 1; i <= 8; i++) {
      routes.redirect("/r" + i, "/r" + (i + 1));
    }

    crawl(b -> b);

    assertThat(routes.hits("/r5")).isEqualTo(1);
    assertThat(routes.hits("/r6")).isZero();
    assertThat(record("/r5").error()).isEqualTo("too-many-redirects");
  }

  @Test
  void fiveMegabytePage_truncatedAtTheCapAndItsLinksUsed() throws Exception {
    StringBuilder html = new StringBuilder(links("/early.html"));
    while (html.length() < 5 * MIB) {
      html.append("<p>filler filler filler filler filler filler filler filler</p>\n");
    }
    html.append(links("/late.html"));
    routes.html("/", html.toString());

    crawl(b -> b.fetch(f -> f.maxBodyBytes(MIB)));

    PageRecord page = record("/");
    assertThat(page.bytes()).isEqualTo(MIB);
    assertThat(page.error()).isEqualTo("truncated");
    assertThat(routes.hits("/early.html")).isEqualTo(1);
    assertThat(routes.hits("/late.html")).isZero();
  }

  @Test
  void gzipBomb_cutAtTheCapAfterDecompressionAndItsLinksUsed() throws Exception {
    Buffer bomb = new Buffer();
    try (OutputStream gzip = new GZIPOutputStream(bomb.outputStream(), 64 * 1024)) {
      gzip.write(links("/inside.html").getBytes(java.nio.charset.StandardCharsets.UTF_8));
      byte[] zeros = new byte[MIB];
      for (int i = 0; i < 1024; i++) {
        gzip.write(zeros);
      }
    }
    routes.on("/", () -> new MockResponse.Builder().code(200)
        .setHeader("Content-Type", "text/html").setHeader("Content-Encoding", "gzip")
        .body(bomb.clone()).build());

    crawl(b -> b.fetch(f -> f.maxBodyBytes(MIB)));

    assertThat(bomb.size()).isLessThan(2L * MIB);
    PageRecord page = record("/");
    assertThat(page.bytes()).isEqualTo(MIB);
    assertThat(page.error()).isEqualTo("truncated");
    assertThat(routes.hits("/inside.html")).isEqualTo(1);
  }

  @Test
  void nonHtml_recordedButNotParsed() throws Exception {
    routes.html("/", links("/doc.pdf"));
    routes.on("/doc.pdf", () -> new MockResponse.Builder().code(200)
        .setHeader("Content-Type", "application/pdf").body(links("/hidden.html")).build());

    crawl(b -> b);

    PageRecord pdf = record("/doc.pdf");
    assertThat(pdf.contentType()).isEqualTo("application/pdf");
    assertThat(pdf.outlinks()).isZero();
    assertThat(routes.hits("/hidden.html")).isZero();
  }

  @Test
  void malformedBinaryAndEmptyHtml_recordedAndTheCrawlGoesOn() throws Exception {
    routes.html("/", links("/broken.html", "/binary.html", "/empty.html", "/after.html"));
    routes.html("/broken.html", "<html><a href='/from-broken.html'>x<div><<<>>></b></table><a href=\"");
    byte[] garbage = new byte[64 * 1024];
    new java.util.Random(3).nextBytes(garbage);
    routes.on("/binary.html", () -> new MockResponse.Builder().code(200)
        .setHeader("Content-Type", "text/html; charset=utf-8").body(new Buffer().write(garbage)).build());
    routes.on("/empty.html", () -> new MockResponse.Builder().code(200)
        .setHeader("Content-Type", "text/html; charset=bogus-charset").build());
    routes.html("/after.html", "<p>fine</p>");

    crawl(b -> b);

    assertThat(urls()).contains(url("/broken.html"), url("/binary.html"), url("/empty.html"), url("/after.html"));
    assertThat(routes.hits("/from-broken.html")).isEqualTo(1);
    assertThat(record("/empty.html").bytes()).isZero();
    assertThat(summary.errors()).doesNotContainKey("internal-error");
  }

  @Test
  void slowDripServer_cannotHoldAWorkerPastTheCallTimeout() throws Exception {
    routes.html("/", links("/slow.html", "/fast.html"));
    routes.on("/slow.html", () -> new MockResponse.Builder().code(200).setHeader("Content-Type", "text/html")
        .body("x".repeat(10_000)).throttleBody(1, 100, TimeUnit.MILLISECONDS).build());
    routes.html("/fast.html", "<p>fast</p>");

    crawl(b -> b.fetch(f -> f.callTimeout(Duration.ofSeconds(1)).retries(0)));

    assertThat(record("/slow.html").error()).isEqualTo("timeout");
    assertThat(record("/fast.html").status()).isEqualTo(200);
  }

  @Test
  void repeatedPathSegments_trapStopsGrowing() throws Exception {
    routes.html("/", links("/a/"));
    routes.on("/a/", () -> new MockResponse.Builder().code(200).setHeader("Content-Type", "text/html")
        .body(links("a/")).build());
    for (String p = "/a/a/"; p.length() < 60; p = p + "a/") {
      String path = p;
      routes.on(path, () -> new MockResponse.Builder().code(200).setHeader("Content-Type", "text/html")
          .body(links("a/")).build());
    }

    crawl(b -> b.scope(s -> s.maxRepeatedSegments(3)));

    assertThat(urls()).containsExactlyInAnyOrder(url("/"), url("/a/"), url("/a/a/"), url("/a/a/a/"));
    assertThat(summary.links()).containsEntry("path-trap", 1L);
  }

  @Test
  void linksToPrivateAddresses_notFollowedFromAnotherHostAndCounted() throws Exception {
    routes.html("/", links(
        "http://10.0.0.1/internal",
        "http://169.254.169.254/latest/meta-data/",
        "http://192.168.1.1/",
        "http://[::1]:" + server.getPort() + "/",
        "http://localhost:" + server.getPort() + "/",
        "/own-host.html"));

    crawl(b -> b.scope(s -> s.scope(Scope.ANY)));

    assertThat(urls()).containsExactlyInAnyOrder(url("/"), url("/own-host.html"));
    assertThat(summary.links()).containsEntry("private-address", 5L);
    assertThat(routes.log()).extracting(TestSite.Request::host).containsOnly("127.0.0.1");
  }

  @Test
  void nofollow_linksAndPagesMarkedNofollowNotFollowedUnlessIgnored() throws Exception {
    routes.html("/", "<a href=\"/followed.html\">a</a><a rel=\"nofollow\" href=\"/not.html\">b</a>"
        + "<a href=\"/meta.html\">c</a>");
    routes.html("/meta.html", "<meta name=\"robots\" content=\"noindex, nofollow\"><a href=\"/behind-meta.html\">d</a>");

    crawl(b -> b);
    assertThat(routes.hits("/followed.html")).isEqualTo(1);
    assertThat(routes.hits("/not.html")).isZero();
    assertThat(routes.hits("/behind-meta.html")).isZero();
  }

  private void crawl(UnaryOperator<CrawlConfig.Builder> settings) throws InterruptedException {
    summary = RecordedCrawl.run(settings.apply(RecordedCrawl.defaults(url("/"))).build(), records, skippedHosts);
  }

  private String url(String path) {
    return "http://127.0.0.1:" + server.getPort() + path;
  }

  private List<String> urls() {
    return records.stream().map(PageRecord::url).collect(Collectors.toList());
  }

  private PageRecord record(String path) {
    return records.stream().filter(r -> r.url().equals(url(path))).findFirst()
        .orElseThrow(() -> new AssertionError("no record for " + path + " in " + urls()));
  }

  private List<TestSite.Request> pageRequests() {
    return routes.log().stream().filter(r -> !r.path().equals("/robots.txt")).toList();
  }

  /** Requests to one host (robots.txt included) are at least {@code delay} apart. */
  private static void assertSpacing(List<TestSite.Request> log, Duration delay) {
    Map<String, List<TestSite.Request>> byHost =
        log.stream().collect(Collectors.groupingBy(TestSite.Request::host));
    byHost.forEach((host, requests) -> {
      for (int i = 1; i < requests.size(); i++) {
        long gap = requests.get(i).nanoTime() - requests.get(i - 1).nanoTime();
        assertThat(Duration.ofNanos(gap)).as("gap before %s on %s", requests.get(i).path(), host)
            .isGreaterThanOrEqualTo(delay);
      }
    });
  }

  private static java.util.function.Supplier<MockResponse> text(String body) {
    return () -> new MockResponse.Builder().code(200).setHeader("Content-Type", "text/plain").body(body).build();
  }

  private static String links(String... hrefs) {
    StringBuilder html = new StringBuilder("<html><body>");
    for (String href : hrefs) {
      html.append("<a href=\"").append(href).append("\">link</a>\n");
    }
    return html.append("</body></html>").toString();
  }
}
