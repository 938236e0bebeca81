package dev.sieve.crawl;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sieve.testing.Routes;
import dev.sieve.testing.TestSite;
import dev.sieve.url.Scope;
import dev.sieve.url.Url;
import java.io.IOException;
import java.net.InetAddress;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.SocketEffect;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Retry-After of every size, redirects without a target or to private addresses, and dropped
 * connections: what the server saw and what was recorded.
 */
class CrawlerHostileHttpTest {
  private final List<PageRecord> records = new CopyOnWriteArrayList<>();
  private final Routes routes = new Routes();
  private final MockWebServer server = new MockWebServer();
  private CrawlProgress summary;

  /** JUnit makes one instance per test: each test has its own server. */
  CrawlerHostileHttpTest() throws IOException {
    server.setDispatcher(routes);
    server.start(InetAddress.getByName("127.0.0.1"), 0);
  }

  @AfterEach
  void stopServer() {
    server.close();
  }

  @Test
  void retryAfterOf2Pow31Seconds_urlFailsAtOnceAsTooLong() throws Exception {
    routes.on("/", unavailable("2147483648"));

    run(settings());

    assertFailedOnceAsTooLong();
  }

  @Test
  void retryAfterDateFarInTheFuture_urlFailsAtOnceAsTooLong() throws Exception {
    routes.on("/", unavailable("Fri, 31 Dec 9999 23:59:59 GMT"));

    run(settings());

    assertFailedOnceAsTooLong();
  }

  @Test
  void retryAfterAboveTheCap_failsAtOnceAndTheHostIsNotHeld() throws Exception {
    routes.on("/", unavailable("301")); // the default cap is 300 s
    routes.html("/next.html", "<p>next</p>");

    long start = System.nanoTime();
    run(settings().seeds(urls("/", "/next.html")));

    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(60));
    assertThat(record("/").error()).isEqualTo("retry-after-too-long");
    assertThat(record("/next.html").status()).isEqualTo(200);
    assertThat(routes.hits("/")).isEqualTo(1);
  }

  @Test
  void retryAfterAtTheCap_honouredAndAboveIt_not() throws Exception {
    int[] calls = {0};
    routes.on("/", () -> ++calls[0] == 1 ? unavailable("1").get() : ok());
    routes.on("/later.html", unavailable("2"));

    run(settings().fetch(f -> f.maxRetryAfter(Duration.ofSeconds(1))).seeds(urls("/", "/later.html")));

    assertThat(record("/").status()).isEqualTo(200);
    assertThat(routes.hits("/")).isEqualTo(2);
    assertThat(record("/later.html").error()).isEqualTo("retry-after-too-long");
    assertThat(routes.hits("/later.html")).isEqualTo(1);
  }

  @Test
  void retryAfterZero_nextRequestStillWaitsThePolitenessDelay() throws Exception {
    Duration delay = Duration.ofMillis(300);
    routes.on("/", unavailable("0"));

    run(settings().politenessDelay(delay).fetch(f -> f.retryBackoff(Duration.ZERO).retries(2)));

    assertThat(routes.hits("/")).isEqualTo(3);
    assertThat(record("/").error()).isEqualTo("http-503");
    assertGapsAtLeast(routes.log(), delay, delay, delay); // robots.txt, then 3 tries
  }

  @Test
  void retryAfterZero_retryStillWaitsItsBackoff() throws Exception {
    Duration backoff = Duration.ofMillis(200);
    routes.on("/", unavailable("0"));

    run(settings().fetch(f -> f.retryBackoff(backoff).retries(2)).robots(r -> r.respect(false)));

    assertThat(routes.hits("/")).isEqualTo(3);
    assertGapsAtLeast(routes.log(), backoff, backoff.multipliedBy(2));
  }

  @Test
  void serverDropsEveryConnection_requestedOncePlusItsStaleResendPlusRetries() throws Exception {
    // robots.txt first, so "/" goes out on a reused connection: unanswered there, it is sent
    // again once on a new connection (counted stale, not a retry); then each retry once.
    routes.on("/", () -> new MockResponse.Builder().onResponseStart(new SocketEffect.CloseSocket()).build());

    // A failure limit above the attempts, so the host is not given up as unreachable first.
    run(settings().fetch(f -> f.retries(3).hostFailureLimit(10)));

    assertThat(routes.hits("/")).isEqualTo(5);
    assertThat(record("/").error()).isEqualTo("io");
    assertThat(summary.retries()).isEqualTo(3);
    assertThat(summary.connections().stale()).isEqualTo(1);
  }

  @Test
  void redirectWithoutLocation_recordedAsAnError() throws Exception {
    routes.on("/", () -> new MockResponse.Builder().code(302).build());
    routes.on("/blank", () -> new MockResponse.Builder().code(301).addHeaderLenient("Location", "").build());

    run(settings().seeds(urls("/", "/blank")));

    assertThat(records).hasSize(2).allSatisfy(r -> {
      assertThat(r.status()).isBetween(301, 302);
      assertThat(r.error()).isEqualTo("redirect-without-location");
    });
    assertThat(summary.errors()).containsEntry("redirect-without-location", 2L);
    assertThat(routes.hits("/")).isEqualTo(1);
  }

  @Test
  void redirectToANameOfLoopback_recordedAsPrivateAddressAtOnce() throws Exception {
    int port = server.getPort();
    routes.redirect("/a", "http://127.1:" + port + "/inside");
    routes.redirect("/b", "http://2130706433:" + port + "/inside");
    routes.redirect("/c", "http://localhost:" + port + "/inside");

    long start = System.nanoTime();
    run(settings().seeds(urls("/a", "/b", "/c")).robots(r -> r.retryInterval(Duration.ofMillis(100))));

    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(30));
    assertThat(records).extracting(PageRecord::url).containsExactlyInAnyOrder(url("/a"), url("/b"), url("/c"));
    assertThat(records).allSatisfy(r -> assertThat(r.error()).isEqualTo("private-address"));
    assertThat(summary.skipped()).containsEntry("private-address", 3L);
    assertThat(routes.hits("/inside")).isZero();
    assertThat(routes.log()).extracting(TestSite.Request::host).containsOnly("127.0.0.1");
  }

  @Test
  void linkToANameOfLoopback_recordedAsPrivateAddressWithoutARequest() throws Exception {
    String inside = "http://127.1:" + server.getPort() + "/inside";
    routes.html("/", "<a href=\"" + inside + "\">x</a>");

    run(settings().scope(s -> s.scope(Scope.ANY)).robots(r -> r.retryInterval(Duration.ofMillis(100))));

    assertThat(records).filteredOn(r -> r.url().equals(inside)).singleElement().satisfies(r -> {
      assertThat(r.status()).isZero();
      assertThat(r.error()).isEqualTo("private-address");
    });
    assertThat(summary.retries()).isZero();
    assertThat(routes.hits("/inside")).isZero();
    assertThat(routes.hits("/robots.txt")).isEqualTo(1);
  }

  @Test
  void robotsTxtRedirectedToANameOfLoopback_treatedAsNoRobotsTxt() throws Exception {
    routes.redirect("/robots.txt", "http://127.1:" + server.getPort() + "/robots.txt");
    routes.html("/", "<p>home</p>");

    run(settings().robots(r -> r.retryInterval(Duration.ofMillis(100))));

    assertThat(records).singleElement().satisfies(r -> {
      assertThat(r.status()).isEqualTo(200);
      assertThat(r.error()).isNull();
    });
    assertThat(routes.hits("/robots.txt")).isEqualTo(1);
    assertThat(routes.log()).extracting(TestSite.Request::host).containsOnly("127.0.0.1");
  }

  private CrawlConfig.Builder settings() {
    return CrawlConfig.builder()
        .seeds(urls("/"))
        .threads(2)
        .politenessDelay(Duration.ZERO)
        .expectedUrls(1_000)
        .fetch(f -> f.retries(1).retryBackoff(Duration.ofMillis(10)));
  }

  private void run(CrawlConfig.Builder settings) throws InterruptedException {
    summary = Crawler.open(settings.build(), new CrawlListener() {
      @Override
      public void onPage(PageRecord record) {
        records.add(record);
      }
    }).run();
    assertThat(summary.pages()).isEqualTo(records.size());
  }

  private void assertFailedOnceAsTooLong() {
    assertThat(records).singleElement().satisfies(r -> {
      assertThat(r.status()).isEqualTo(503);
      assertThat(r.error()).isEqualTo("retry-after-too-long");
    });
    assertThat(routes.hits("/")).isEqualTo(1);
    assertThat(summary.retries()).isZero();
    assertThat(summary.errors()).containsEntry("retry-after-too-long", 1L);
    assertThat(summary.errors()).doesNotContainKey("internal-error");
  }

  /** The gaps between consecutive requests are at least {@code gaps}, in order. */
  private static void assertGapsAtLeast(List<TestSite.Request> log, Duration... gaps) {
    assertThat(log).hasSize(gaps.length + 1);
    for (int i = 0; i < gaps.length; i++) {
      Duration gap = Duration.ofNanos(log.get(i + 1).nanoTime() - log.get(i).nanoTime());
      assertThat(gap).as("gap before request %d of %s", i + 1, log).isGreaterThanOrEqualTo(gaps[i]);
    }
  }

  private static Supplier<MockResponse> unavailable(String retryAfter) {
    return () -> new MockResponse.Builder().code(503).setHeader("Retry-After", retryAfter).build();
  }

  private static MockResponse ok() {
    return new MockResponse.Builder().code(200).setHeader("Content-Type", "text/html").body("ok").build();
  }

  private List<Url> urls(String... paths) {
    return Arrays.stream(paths).map(p -> Url.parse(url(p)).orElseThrow()).toList();
  }

  private String url(String path) {
    return "http://127.0.0.1:" + server.getPort() + path;
  }

  private PageRecord record(String path) {
    return records.stream().filter(r -> r.url().equals(url(path))).findFirst()
        .orElseThrow(() -> new AssertionError("no record for " + path + " in " + records));
  }
}
