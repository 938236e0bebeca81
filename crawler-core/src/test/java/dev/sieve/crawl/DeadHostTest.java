package dev.sieve.crawl;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import dev.sieve.testing.CapturedLogs;
import dev.sieve.testing.Routes;
import dev.sieve.testing.SilentServer;
import dev.sieve.url.Url;
import java.io.IOException;
import java.net.InetAddress;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.UnaryOperator;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Dead hosts fail fast and alone: what each records, and what the live servers saw meanwhile. */
class DeadHostTest {
  private final Routes routes = new Routes();
  private final MockWebServer live = new MockWebServer();
  private final List<PageRecord> records = new CopyOnWriteArrayList<>();
  private CrawlProgress summary;

  @BeforeEach
  void start() throws IOException {
    live.setDispatcher(routes);
    live.start(InetAddress.getByName("127.0.0.1"), 0);
  }

  @AfterEach
  void stop() {
    live.close();
  }

  @Test
  void refusingPort_afterLimitFailures_everyUrlRecordedHostUnreachableWithCauseAndOneWarn()
      throws Exception {
    int port = SilentServer.refusingPort();
    List<Url> seeds = urls("http://127.0.0.1:" + port, 50);

    try (CapturedLogs logs = new CapturedLogs(HostHealth.class.getName())) {
      crawl(b -> b.seeds(seeds).fetch(f -> f.hostFailureLimit(3)));

      assertThat(logs.events()).filteredOn(e -> e.getLevel() == Level.WARN).singleElement()
          .satisfies(e -> assertThat(e.getFormattedMessage())
              .contains("http://127.0.0.1:" + port).contains("connection refused"));
    }
    assertThat(records).hasSize(50).allSatisfy(r -> {
      assertThat(r.error()).isEqualTo("host-unreachable");
      assertThat(r.cause()).isEqualTo("connection refused");
      assertThat(r.status()).isZero();
    });
    assertThat(summary.errors()).containsEntry("host-unreachable", 50L);
    assertThat(summary.retries()).isZero();
  }

  @Test
  void refusingPortWithoutRobots_pageFailuresCountToo_restRecordedWithoutFetching()
      throws Exception {
    int port = SilentServer.refusingPort();
    List<Url> seeds = urls("http://127.0.0.1:" + port, 20);

    crawl(b -> b.seeds(seeds).robots(r -> r.respect(false)).fetch(f -> f.retries(5).hostFailureLimit(4)));

    assertThat(records).hasSize(20).allSatisfy(r -> {
      assertThat(r.error()).isEqualTo("host-unreachable");
      assertThat(r.cause()).isEqualTo("connection refused");
    });
    assertThat(summary.retries()).as("three retries of the first URL, then the limit").isEqualTo(3);
  }

  @Test
  void neverAnsweringServer_robotsFetchedLimitTimes_urlsRecordedWithReadTimeout()
      throws Exception {
    try (SilentServer silent = SilentServer.start()) {
      List<Url> seeds = urls(silent.url(""), 30);

      crawl(b -> b.seeds(seeds).fetch(f -> f.readTimeout(Duration.ofMillis(300)).hostFailureLimit(3)));

      assertThat(silent.connections()).as("robots.txt only, once per failure").isEqualTo(3);
    }
    assertThat(records).hasSize(30).allSatisfy(r -> {
      assertThat(r.error()).isEqualTo("host-unreachable");
      assertThat(r.cause()).isEqualTo("read timeout");
    });
  }

  @Test
  void deadPort_neverHoldsUpALivePortOnTheSameAddress() throws Exception {
    routes.html("/", links(10));
    for (int i = 0; i < 10; i++) {
      routes.html("/" + i + ".html", "<p>" + i + "</p>");
    }
    try (SilentServer silent = SilentServer.start()) {
      List<Url> seeds = new ArrayList<>(urls(silent.url(""), 10));
      seeds.add(Url.parse(url("/")).orElseThrow());

      // Three read timeouts of the dead port (3 s at least) against ~0.5 s for the live port.
      crawl(b -> b.seeds(seeds).threads(2).fetch(f -> f.readTimeout(Duration.ofSeconds(1))));
    }
    List<PageRecord> livePages = records.stream().filter(r -> r.url().startsWith(url(""))).toList();
    List<PageRecord> dead = records.stream().filter(r -> !r.url().startsWith(url(""))).toList();
    assertThat(livePages).hasSize(11).allSatisfy(r -> assertThat(r.status()).isEqualTo(200));
    assertThat(dead).hasSize(10).allSatisfy(r -> assertThat(r.error()).isEqualTo("host-unreachable"));
    Instant lastLive = livePages.stream().map(PageRecord::fetchedAt).max(Instant::compareTo).orElseThrow();
    Instant firstDead = dead.stream().map(PageRecord::fetchedAt).min(Instant::compareTo).orElseThrow();
    assertThat(lastLive).as("the live port is done while the dead one still times out").isBefore(firstDead);
  }

  @Test
  void robots503_fetchedOncePerRetryForTheHost_notPerUrl_thenUrlsRecordedWithCause()
      throws Exception {
    routes.on("/robots.txt", () -> new MockResponse.Builder().code(503).build());
    List<Url> seeds = urls(url(""), 100);

    crawl(b -> b.seeds(seeds).fetch(f -> f.retries(2)).robots(r -> r.retryInterval(Duration.ofMillis(50))));

    assertThat(routes.hits("/robots.txt")).isEqualTo(3);
    assertThat(routes.log()).allSatisfy(r -> assertThat(r.path()).isEqualTo("/robots.txt"));
    assertThat(records).hasSize(100).allSatisfy(r -> {
      assertThat(r.error()).isEqualTo("robots-unreachable");
      assertThat(r.cause()).isEqualTo("http-503");
    });
    assertThat(summary.errors()).containsEntry("robots-unreachable", 100L);
  }

  @Test
  void robotsTxt_isPerAuthority_twoPortsOfOneAddressEachObeyTheirOwn() throws Exception {
    Routes otherRoutes = new Routes();
    try (MockWebServer other = new MockWebServer()) {
      other.setDispatcher(otherRoutes);
      other.start(InetAddress.getByName("127.0.0.1"), 0);
      routes.on("/robots.txt", text("User-agent: *\nDisallow: /\n"));
      otherRoutes.on("/robots.txt", text("User-agent: *\nAllow: /\n"));
      otherRoutes.html("/a.html", "<p>a</p>");
      String otherOrigin = "http://127.0.0.1:" + other.getPort();

      crawl(b -> b.seeds(List.of(Url.parse(url("/a.html")).orElseThrow(),
          Url.parse(otherOrigin + "/a.html").orElseThrow())));

      assertThat(routes.hits("/robots.txt")).isEqualTo(1);
      assertThat(otherRoutes.hits("/robots.txt")).isEqualTo(1);
      assertThat(routes.hits("/a.html")).isZero();
      assertThat(otherRoutes.hits("/a.html")).isEqualTo(1);
      assertThat(records).extracting(PageRecord::url).containsExactly(otherOrigin + "/a.html");
      assertThat(summary.skipped()).containsEntry("robots-denied", 1L);
    }
  }

  private void crawl(UnaryOperator<CrawlConfig.Builder> settings) throws InterruptedException {
    summary = RecordedCrawl.run(settings.apply(RecordedCrawl.defaults(url("/"))).build(), records,
        new ArrayList<>());
  }

  private String url(String path) {
    return "http://127.0.0.1:" + live.getPort() + path;
  }

  private static List<Url> urls(String origin, int count) {
    List<Url> urls = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      urls.add(Url.parse(origin + "/page/" + i + ".html").orElseThrow());
    }
    return urls;
  }

  private static String links(int count) {
    StringBuilder html = new StringBuilder("<html><body>");
    for (int i = 0; i < count; i++) {
      html.append("<a href=\"/").append(i).append(".html\">").append(i).append("</a>\n");
    }
    return html.append("</body></html>").toString();
  }

  private static java.util.function.Supplier<MockResponse> text(String body) {
    return () -> new MockResponse.Builder().code(200).setHeader("Content-Type", "text/plain")
        .body(body).build();
  }
}
