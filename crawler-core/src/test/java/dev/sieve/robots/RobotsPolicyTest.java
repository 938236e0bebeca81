package dev.sieve.robots;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import dev.sieve.fetch.FetchResult;
import dev.sieve.fetch.Fetcher;
import dev.sieve.robots.RobotsRules.Source;
import dev.sieve.robots.RobotsVerdict.Decision;
import dev.sieve.testing.CapturedLogs;
import dev.sieve.url.Url;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.Function;
import java.util.function.Supplier;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import okio.Buffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class RobotsPolicyTest {
  private static final String UA = "SieveBot/0.1 (+https://example.invalid/sieve)";
  private static final String LOGGER = "dev.sieve.robots.RobotsPolicy";

  private final MockWebServer server = new MockWebServer();
  private final Routes routes = new Routes();
  private final TestClock clock = new TestClock(Instant.parse("2025-01-01T00:00:00Z"));
  private Fetcher fetcher;

  @BeforeEach
  void setUp() throws IOException {
    server.setDispatcher(routes);
    server.start(InetAddress.getByName("127.0.0.1"), 0);
    fetcher =
        Fetcher.builder()
            .userAgent(UA)
            .connectTimeout(Duration.ofSeconds(2))
            .readTimeout(Duration.ofSeconds(2))
            .callTimeout(Duration.ofSeconds(5))
            .build();
  }

  @AfterEach
  void tearDown() {
    fetcher.close();
    server.close();
  }

  /** Serves fixed responses by path, 404 for the rest, and counts requests by path. */
  private static final class Routes extends Dispatcher {
    private final Map<String, Supplier<MockResponse>> responses = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> hits = new ConcurrentHashMap<>();

    void set(String path, Supplier<MockResponse> response) {
      responses.put(path, response);
    }

    int hits(String path) {
      AtomicInteger n = hits.get(path);
      return n == null ? 0 : n.get();
    }

    @Override
    public MockResponse dispatch(RecordedRequest request) {
      String path = request.getUrl().encodedPath();
      hits.computeIfAbsent(path, p -> new AtomicInteger()).incrementAndGet();
      Supplier<MockResponse> response = responses.get(path);
      return response != null ? response.get() : new MockResponse.Builder().code(404).build();
    }
  }

  private static Supplier<MockResponse> text(String body) {
    return () ->
        new MockResponse.Builder()
            .code(200)
            .setHeader("Content-Type", "text/plain")
            .body(body)
            .build();
  }

  private static Supplier<MockResponse> status(int code) {
    return () -> new MockResponse.Builder().code(code).build();
  }

  private static Supplier<MockResponse> redirect(String location) {
    return () -> new MockResponse.Builder().code(301).setHeader("Location", location).build();
  }

  private void robots(String body) {
    routes.set("/robots.txt", text(body));
  }

  private RobotsPolicy.Builder policy() {
    return RobotsPolicy.builder().userAgent(UA).fetch(fetcher::fetch).clock(clock);
  }

  private Url url(String path) {
    return Url.parse("http://127.0.0.1:" + server.getPort() + path).orElseThrow();
  }

  private static List<ILoggingEvent> infos(CapturedLogs logs) {
    return logs.events().stream().filter(e -> e.getLevel() == Level.INFO).toList();
  }

  @Test
  void check_disallowRule_deniesMatchingPathsOnly() {
    robots("User-agent: *\nDisallow: /private\nAllow: /private/open\n");
    RobotsPolicy policy = policy().build();

    assertThat(policy.check(url("/private/x")).decision()).isEqualTo(Decision.DISALLOWED_BY_RULE);
    assertThat(policy.check(url("/private")).allowed()).isFalse();
    assertThat(policy.check(url("/private/open/page")).allowed()).isTrue();
    assertThat(policy.check(url("/public?q=private")).allowed()).isTrue();
    RobotsVerdict allowed = policy.check(url("/"));
    assertThat(allowed.decision()).isEqualTo(Decision.ALLOWED);
    assertThat(allowed.crawlDelay()).isEmpty();
    assertThat(allowed.skipHost()).isFalse();
    assertThat(policy.cached(url("/")).orElseThrow().source()).isEqualTo(Source.PARSED);
  }

  @Test
  void check_crawlDelay_isCarriedByVerdicts() {
    robots("User-agent: *\nCrawl-delay: 2.5\nDisallow: /no\n");
    RobotsPolicy policy = policy().build();

    RobotsVerdict yes = policy.check(url("/yes"));
    RobotsVerdict no = policy.check(url("/no"));

    assertThat(yes.allowed()).isTrue();
    assertThat(yes.crawlDelay()).contains(Duration.ofMillis(2500));
    assertThat(no.decision()).isEqualTo(Decision.DISALLOWED_BY_RULE);
    assertThat(no.crawlDelay()).contains(Duration.ofMillis(2500));
    assertThat(policy.cached(url("/")).orElseThrow().crawlDelay())
        .contains(Duration.ofMillis(2500));
  }

  @Test
  void check_crawlDelayAtMax_isObeyedNotSkipped() {
    robots("User-agent: *\nCrawl-delay: 30\n");
    RobotsPolicy policy = policy().maxCrawlDelay(Duration.ofSeconds(30)).build();

    RobotsVerdict verdict = policy.check(url("/"));

    assertThat(verdict.allowed()).isTrue();
    assertThat(verdict.crawlDelay()).contains(Duration.ofSeconds(30));
  }

  @Test
  void check_crawlDelayAboveMax_skipsHostAndLogsOneInfoLine() {
    robots("User-agent: *\nCrawl-delay: 3600\nAllow: /\n");
    RobotsPolicy policy = policy().maxCrawlDelay(Duration.ofSeconds(30)).build();

    try (CapturedLogs logs = new CapturedLogs(LOGGER)) {
      for (int i = 0; i < 20; i++) {
        RobotsVerdict verdict = policy.check(url("/page" + i));
        assertThat(verdict.decision()).isEqualTo(Decision.CRAWL_DELAY_TOO_LONG);
        assertThat(verdict.skipHost()).isTrue();
        assertThat(verdict.allowed()).isFalse();
        assertThat(verdict.crawlDelay()).contains(Duration.ofHours(1));
      }

      List<ILoggingEvent> infos = infos(logs);
      assertThat(infos).hasSize(1);
      assertThat(infos.get(0).getFormattedMessage())
          .contains("127.0.0.1:" + server.getPort())
          .contains("Crawl-delay 3600 s")
          .contains("maximum 30 s");
    }
    assertThat(policy.denials()).isEqualTo(20);
  }

  @Test
  void check_404_allowsAll() {
    routes.set("/robots.txt", status(404));
    RobotsPolicy policy = policy().build();

    assertThat(policy.check(url("/anything")).allowed()).isTrue();
    assertThat(policy.check(url("/admin")).allowed()).isTrue();
    assertThat(policy.cached(url("/")).orElseThrow().source()).isEqualTo(Source.UNAVAILABLE);
    assertThat(routes.hits("/robots.txt")).isEqualTo(1);
  }

  @Test
  void check_403_allowsAllAsRfc9309Says() {
    routes.set("/robots.txt", status(403));
    RobotsPolicy policy = policy().build();

    assertThat(policy.check(url("/")).allowed()).isTrue();
  }

  @Test
  void check_500_disallowsAllThenRefetchesAfterRetryInterval() {
    routes.set("/robots.txt", status(500));
    RobotsPolicy policy = policy().retryInterval(Duration.ofMinutes(1)).build();

    RobotsVerdict verdict = policy.check(url("/"));
    assertThat(verdict.decision()).isEqualTo(Decision.ROBOTS_UNREACHABLE);
    assertThat(verdict.crawlDelay()).isEmpty();
    assertThat(policy.cached(url("/")).orElseThrow().source()).isEqualTo(Source.UNREACHABLE);
    assertThat(policy.cached(url("/")).orElseThrow().expiresAt())
        .isEqualTo(clock.instant().plus(Duration.ofMinutes(1)));

    robots("User-agent: *\nDisallow: /private\n");
    clock.advance(Duration.ofSeconds(59));
    assertThat(policy.check(url("/")).decision()).isEqualTo(Decision.ROBOTS_UNREACHABLE);
    assertThat(routes.hits("/robots.txt")).isEqualTo(1);

    clock.advance(Duration.ofSeconds(1));
    assertThat(policy.check(url("/")).allowed()).isTrue();
    assertThat(policy.check(url("/private")).decision()).isEqualTo(Decision.DISALLOWED_BY_RULE);
    assertThat(routes.hits("/robots.txt")).isEqualTo(2);
  }

  @Test
  void check_503WithRetryAfter_waitsAsAskedWithinTtl() {
    routes.set(
        "/robots.txt",
        () -> new MockResponse.Builder().code(503).setHeader("Retry-After", "600").build());
    RobotsPolicy policy = policy().retryInterval(Duration.ofMinutes(1)).build();

    assertThat(policy.check(url("/")).decision()).isEqualTo(Decision.ROBOTS_UNREACHABLE);
    clock.advance(Duration.ofMinutes(5));
    assertThat(policy.check(url("/")).decision()).isEqualTo(Decision.ROBOTS_UNREACHABLE);
    assertThat(routes.hits("/robots.txt")).isEqualTo(1);

    clock.advance(Duration.ofMinutes(5));
    policy.check(url("/"));
    assertThat(routes.hits("/robots.txt")).isEqualTo(2);
  }

  @Test
  void check_500_namesTheCauseAndCountsFailuresInARowUntilASuccess() {
    routes.set("/robots.txt", status(500));
    RobotsPolicy policy = policy().retryInterval(Duration.ofMinutes(1)).build();

    RobotsVerdict first = policy.check(url("/"));
    clock.advance(Duration.ofMinutes(1));
    RobotsVerdict second = policy.check(url("/"));

    assertThat(first.failure()).contains("http-500");
    assertThat(first.failuresInARow()).isEqualTo(1);
    assertThat(second.failuresInARow()).isEqualTo(2);
    assertThat(second.retryAt()).contains(clock.instant().plus(Duration.ofMinutes(1)));
    robots("User-agent: *\nAllow: /\n");
    clock.advance(Duration.ofMinutes(1));
    assertThat(policy.check(url("/")).allowed()).isTrue();
    routes.set("/robots.txt", status(500));
    clock.advance(Duration.ofHours(25));
    assertThat(policy.check(url("/")).failuresInARow()).as("a success resets the count").isEqualTo(1);
  }

  @Test
  void check_connectionRefused_retriedSoonDoublingUpToTheRetryInterval() throws IOException {
    int port;
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
      port = socket.getLocalPort();
    }
    Url dead = Url.parse("http://127.0.0.1:" + port + "/").orElseThrow();
    RobotsPolicy policy = policy().retryInterval(Duration.ofSeconds(5))
        .connectionRetryInterval(Duration.ofSeconds(2)).build();

    List<Duration> waits = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      RobotsVerdict verdict = policy.check(dead);
      assertThat(verdict.failure()).contains("connection refused");
      assertThat(verdict.failuresInARow()).isEqualTo(i + 1);
      Duration wait = Duration.between(clock.instant(), verdict.retryAt().orElseThrow());
      waits.add(wait);
      clock.advance(wait);
    }

    assertThat(waits).containsExactly(Duration.ofSeconds(2), Duration.ofSeconds(4),
        Duration.ofSeconds(5), Duration.ofSeconds(5));
    assertThat(policy.robotsFetches()).isEqualTo(4);
  }

  @Test
  void check_twoPortsOfOneHost_eachHasItsOwnRobotsTxt() throws IOException {
    robots("User-agent: *\nDisallow: /\n");
    try (MockWebServer other = new MockWebServer()) {
      other.enqueue(new MockResponse.Builder().code(404).build());
      other.start(InetAddress.getByName("127.0.0.1"), 0);
      RobotsPolicy policy = policy().build();

      assertThat(policy.check(url("/a")).decision()).isEqualTo(Decision.DISALLOWED_BY_RULE);
      assertThat(policy.check(Url.parse("http://127.0.0.1:" + other.getPort() + "/a").orElseThrow())
          .allowed()).isTrue();
      assertThat(policy.robotsFetches()).isEqualTo(2);
    }
  }

  @Test
  void check_429_isUnreachableNotAllowAll() {
    routes.set("/robots.txt", status(429));
    RobotsPolicy policy = policy().build();

    assertThat(policy.check(url("/")).decision()).isEqualTo(Decision.ROBOTS_UNREACHABLE);
  }

  @Test
  void check_connectionRefused_disallowsAll() throws IOException {
    int port;
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
      port = socket.getLocalPort();
    }
    RobotsPolicy policy = policy().build();

    RobotsVerdict verdict = policy.check(Url.parse("http://127.0.0.1:" + port + "/").orElseThrow());

    assertThat(verdict.decision()).isEqualTo(Decision.ROBOTS_UNREACHABLE);
    assertThat(policy.robotsFetches()).isEqualTo(1);
    assertThat(policy.denials()).isEqualTo(1);
  }

  @Test
  void check_fiveRedirects_areFollowedAndTheirTargetObeyed() {
    routes.set("/robots.txt", redirect("/r1"));
    for (int i = 1; i < 5; i++) {
      routes.set("/r" + i, redirect("r" + (i + 1))); // relative, resolved against the hop
    }
    routes.set("/r5", text("User-agent: *\nDisallow: /private\n"));
    RobotsPolicy policy = policy().build();

    assertThat(policy.check(url("/private")).decision()).isEqualTo(Decision.DISALLOWED_BY_RULE);
    assertThat(policy.check(url("/public")).allowed()).isTrue();
    assertThat(server.getRequestCount()).isEqualTo(6);
    assertThat(policy.robotsFetches()).isEqualTo(6);
  }

  @Test
  void check_sixRedirects_allowAllAsNoRobotsTxt() {
    routes.set("/robots.txt", redirect("/r1"));
    for (int i = 1; i < 6; i++) {
      routes.set("/r" + i, redirect("/r" + (i + 1)));
    }
    routes.set("/r6", text("User-agent: *\nDisallow: /\n"));
    RobotsPolicy policy = policy().build();

    assertThat(policy.check(url("/private")).allowed()).isTrue();
    assertThat(policy.cached(url("/")).orElseThrow().source()).isEqualTo(Source.UNAVAILABLE);
    assertThat(server.getRequestCount()).isEqualTo(6);
    assertThat(routes.hits("/r6")).isZero();
  }

  @Test
  void check_redirectLoop_endsAndAllowsAll() {
    routes.set("/robots.txt", redirect("/robots.txt"));
    RobotsPolicy policy = policy().maxRedirects(2).build();

    assertThat(policy.check(url("/")).allowed()).isTrue();
    assertThat(server.getRequestCount()).isEqualTo(3);
  }

  @Test
  void check_redirectToUnusableLocation_allowsAll() {
    routes.set("/robots.txt", redirect("ftp://127.0.0.1/robots.txt"));
    RobotsPolicy policy = policy().build();

    assertThat(policy.check(url("/")).allowed()).isTrue();
    assertThat(server.getRequestCount()).isEqualTo(1);
  }

  @Test
  void check_redirectToOtherOrigin_isFollowedAndAppliesToTheFirstOrigin() throws IOException {
    try (MockWebServer other = new MockWebServer()) {
      Routes otherRoutes = new Routes();
      otherRoutes.set("/moved.txt", text("User-agent: *\nDisallow: /secret\n"));
      other.setDispatcher(otherRoutes);
      other.start(InetAddress.getByName("127.0.0.1"), 0);
      routes.set("/robots.txt", redirect("http://127.0.0.1:" + other.getPort() + "/moved.txt"));
      RobotsPolicy policy = policy().build();

      assertThat(policy.check(url("/secret")).decision())
          .isEqualTo(Decision.DISALLOWED_BY_RULE);
      assertThat(policy.check(url("/open")).allowed()).isTrue();
      assertThat(otherRoutes.hits("/moved.txt")).isEqualTo(1);
      assertThat(policy.cached(url("/"))).isPresent();
      Url otherUrl = Url.parse("http://127.0.0.1:" + other.getPort() + "/").orElseThrow();
      assertThat(policy.cached(otherUrl)).isEmpty();
    }
  }

  @Test
  void check_withinTtl_fetchesOnce() {
    robots("User-agent: *\nDisallow: /private\n");
    RobotsPolicy policy = policy().ttl(Duration.ofHours(24)).build();

    for (int i = 0; i < 100; i++) {
      policy.check(url("/page" + i));
      policy.check(url("/private/" + i));
    }
    clock.advance(Duration.ofHours(24).minusSeconds(1));
    policy.check(url("/"));

    assertThat(server.getRequestCount()).isEqualTo(1);
    assertThat(policy.robotsFetches()).isEqualTo(1);
    assertThat(policy.denials()).isEqualTo(100);
  }

  @Test
  void check_afterTtl_fetchesAgainAndObeysNewRules() {
    robots("User-agent: *\nDisallow: /old\n");
    RobotsPolicy policy = policy().ttl(Duration.ofHours(24)).build();
    assertThat(policy.check(url("/old")).allowed()).isFalse();

    robots("User-agent: *\nDisallow: /new\n");
    clock.advance(Duration.ofHours(24));

    assertThat(policy.check(url("/old")).allowed()).isTrue();
    assertThat(policy.check(url("/new")).allowed()).isFalse();
    assertThat(server.getRequestCount()).isEqualTo(2);
  }

  @Test
  void check_ownAgentGroup_winsOverWildcard() {
    robots(
        "User-agent: *\nDisallow: /wild\n\n"
            + "User-agent: sievebot\nDisallow: /mine\n\n"
            + "User-agent: otherbot\nDisallow: /\n");
    RobotsPolicy policy = policy().build();

    assertThat(policy.agentToken()).isEqualTo("sievebot");
    assertThat(policy.check(url("/mine")).allowed()).isFalse();
    assertThat(policy.check(url("/wild")).allowed()).isTrue();
  }

  @Test
  void check_agentGroupMatch_isCaseInsensitive() {
    robots("User-agent: SIEVEBOT\nDisallow: /mine\n");
    RobotsPolicy policy = policy().build();

    assertThat(policy.check(url("/mine")).allowed()).isFalse();
  }

  @Test
  void check_noOwnGroup_fallsBackToWildcard() {
    robots("User-agent: otherbot\nDisallow: /other\n\nUser-agent: *\nDisallow: /wild\n");
    RobotsPolicy policy = policy().build();

    assertThat(policy.check(url("/wild")).allowed()).isFalse();
    assertThat(policy.check(url("/other")).allowed()).isTrue();
  }

  @Test
  void check_concurrentCallersOfOneOrigin_fetchOnce() throws InterruptedException {
    robots("User-agent: *\nDisallow: /private\n");
    AtomicInteger calls = new AtomicInteger();
    CountDownLatch fetching = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    Function<String, FetchResult> gated =
        u -> {
          calls.incrementAndGet();
          fetching.countDown();
          try {
            release.await(10, TimeUnit.SECONDS);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
          return fetcher.fetch(u);
        };
    RobotsPolicy policy = policy().fetch(gated).build();

    int n = 8;
    CountDownLatch start = new CountDownLatch(1);
    AtomicReferenceArray<RobotsVerdict> verdicts = new AtomicReferenceArray<>(n);
    List<Thread> threads = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      int id = i;
      Thread t =
          new Thread(
              () -> {
                try {
                  start.await();
                } catch (InterruptedException e) {
                  return;
                }
                verdicts.set(id, policy.check(url(id % 2 == 0 ? "/private" : "/public")));
              },
              "robots-check-" + i);
      threads.add(t);
      t.start();
    }
    start.countDown();
    assertThat(fetching.await(10, TimeUnit.SECONDS)).isTrue();
    // Hold the fetch until every checker is parked: the fetcher on `release`, the others waiting
    // for its result. A thread seen parked too early only makes the test weaker, never flaky.
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (!threads.stream().allMatch(RobotsPolicyTest::isParked)
        && System.nanoTime() < deadline) {
      Thread.yield();
    }
    assertThat(threads).allMatch(RobotsPolicyTest::isParked, "parked");
    release.countDown();
    for (Thread t : threads) {
      t.join(10_000);
      assertThat(t.isAlive()).isFalse();
    }

    assertThat(calls.get()).isEqualTo(1);
    assertThat(server.getRequestCount()).isEqualTo(1);
    for (int i = 0; i < n; i++) {
      assertThat(verdicts.get(i).allowed()).as("verdict %d", i).isEqualTo(i % 2 == 1);
    }
  }

  private static boolean isParked(Thread t) {
    Thread.State state = t.getState();
    return state == Thread.State.WAITING || state == Thread.State.TIMED_WAITING;
  }

  @Test
  void check_differentOrigins_haveTheirOwnRules() throws IOException {
    robots("User-agent: *\nDisallow: /a\n");
    try (MockWebServer other = new MockWebServer()) {
      Routes otherRoutes = new Routes();
      otherRoutes.set("/robots.txt", text("User-agent: *\nDisallow: /b\n"));
      other.setDispatcher(otherRoutes);
      other.start(InetAddress.getByName("127.0.0.1"), 0);
      String otherOrigin = "http://127.0.0.1:" + other.getPort();
      RobotsPolicy policy = policy().build();

      assertThat(policy.check(url("/a")).allowed()).isFalse();
      assertThat(policy.check(url("/b")).allowed()).isTrue();
      assertThat(policy.check(Url.parse(otherOrigin + "/a").orElseThrow()).allowed()).isTrue();
      assertThat(policy.check(Url.parse(otherOrigin + "/b").orElseThrow()).allowed()).isFalse();
      assertThat(policy.robotsFetches()).isEqualTo(2);
    }
  }

  @Test
  void check_twoMegabytesOfGarbage_returnsVerdictAndLogsOnce() {
    byte[] garbage = new byte[2 * 1024 * 1024];
    new Random(42).nextBytes(garbage);
    routes.set(
        "/robots.txt",
        () ->
            new MockResponse.Builder()
                .code(200)
                .setHeader("Content-Type", "application/octet-stream")
                .body(new Buffer().write(garbage))
                .build());
    RobotsPolicy policy = policy().build();

    try (CapturedLogs logs = new CapturedLogs(LOGGER)) {
      for (int i = 0; i < 3; i++) {
        RobotsVerdict verdict = policy.check(url("/page" + i));
        assertThat(verdict.decision())
            .isIn(Decision.ALLOWED, Decision.DISALLOWED_BY_RULE);
      }

      List<ILoggingEvent> infos = infos(logs);
      assertThat(infos).hasSize(1);
      assertThat(infos.get(0).getFormattedMessage())
          .contains("oversized or malformed")
          .contains("2097152 bytes received");
    }
    assertThat(server.getRequestCount()).isEqualTo(1);
    assertThat(policy.cached(url("/")).orElseThrow().source()).isEqualTo(Source.PARSED);
  }

  @Test
  void check_robotsTxtOver500KiB_obeysTheFirst500KiBOnly() {
    StringBuilder body = new StringBuilder("User-agent: *\nDisallow: /early\n");
    String comment = "# " + "x".repeat(1000) + "\n";
    while (body.length() < RobotsTxt.MAX_BYTES + 10_000) {
      body.append(comment);
    }
    body.append("Disallow: /late\n");
    robots(body.toString());
    RobotsPolicy policy = policy().build();

    try (CapturedLogs logs = new CapturedLogs(LOGGER)) {
      assertThat(policy.check(url("/early")).allowed()).isFalse();
      assertThat(policy.check(url("/late")).allowed()).isTrue();
      assertThat(infos(logs)).hasSize(1);
    }
  }

  @Test
  void check_wellFormedRobotsTxt_logsNothingAtInfo() {
    robots("# hello\nUser-agent: *\nDisallow: /x\nSitemap: http://127.0.0.1/sitemap.xml\n");
    RobotsPolicy policy = policy().build();

    try (CapturedLogs logs = new CapturedLogs(LOGGER)) {
      policy.check(url("/"));
      assertThat(infos(logs)).isEmpty();
    }
  }

  @Test
  void check_htmlErrorPageServedAs200_allowsAll() {
    routes.set(
        "/robots.txt",
        () ->
            new MockResponse.Builder()
                .code(200)
                .setHeader("Content-Type", "text/html")
                .body("<html><body>Welcome! Disallow: / is not a rule here</body></html>")
                .build());
    RobotsPolicy policy = policy().build();

    try (CapturedLogs logs = new CapturedLogs(LOGGER)) {
      assertThat(policy.check(url("/anything")).allowed()).isTrue();
      assertThat(infos(logs)).isEmpty();
    }
    assertThat(policy.cached(url("/")).orElseThrow().source()).isEqualTo(Source.PARSED);
  }

  @Test
  void check_empty200_allowsAllQuietly() {
    robots("");
    RobotsPolicy policy = policy().build();

    try (CapturedLogs logs = new CapturedLogs(LOGGER)) {
      assertThat(policy.check(url("/anything")).allowed()).isTrue();
      assertThat(infos(logs)).isEmpty();
    }
  }

  @Test
  void check_fetchFunctionThrows_propagatesAndCachesNothing() {
    robots("User-agent: *\nDisallow: /private\n");
    AtomicInteger calls = new AtomicInteger();
    Function<String, FetchResult> flaky =
        u -> {
          if (calls.incrementAndGet() == 1) {
            throw new IllegalStateException("Fetcher is closed");
          }
          return fetcher.fetch(u);
        };
    RobotsPolicy policy = policy().fetch(flaky).build();

    assertThatIllegalStateException()
        .isThrownBy(() -> policy.check(url("/")))
        .withMessage("Fetcher is closed");
    assertThat(policy.cached(url("/"))).isEmpty();

    assertThat(policy.check(url("/private")).allowed()).isFalse();
    assertThat(calls.get()).isEqualTo(2);
  }

  @Test
  void check_fetchFunctionReturnsNull_isReportedNotCached() {
    RobotsPolicy policy = policy().fetch(u -> null).build();

    assertThatIllegalStateException()
        .isThrownBy(() -> policy.check(url("/")))
        .withMessageContaining("returned null");
    assertThat(policy.cached(url("/"))).isEmpty();
  }

  @Test
  void cached_isEmptyBeforeFirstCheckAndAfterExpiry() {
    robots("User-agent: *\nDisallow: /x\n");
    RobotsPolicy policy = policy().ttl(Duration.ofHours(1)).build();
    assertThat(policy.cached(url("/"))).isEmpty();
    assertThat(server.getRequestCount()).isZero();

    policy.check(url("/"));
    RobotsRules rules = policy.cached(url("/other")).orElseThrow();
    assertThat(rules.origin()).isEqualTo(url("/").origin());
    assertThat(rules.fetchedAt()).isEqualTo(clock.instant());
    assertThat(rules.expiresAt()).isEqualTo(clock.instant().plus(Duration.ofHours(1)));
    assertThat(rules.isAllowed(url("/x"))).isFalse();
    assertThat(rules.isAllowed(url("/y"))).isTrue();

    clock.advance(Duration.ofHours(1));
    assertThat(policy.cached(url("/"))).isEmpty();
    assertThat(server.getRequestCount()).isEqualTo(1);
  }

  @Test
  void check_sendsTheConfiguredUserAgent() throws InterruptedException {
    robots("User-agent: *\nAllow: /\n");
    RobotsPolicy policy = policy().build();

    policy.check(url("/"));

    RecordedRequest request = server.takeRequest(5, TimeUnit.SECONDS);
    assertThat(request.getUrl().encodedPath()).isEqualTo("/robots.txt");
    assertThat(request.getHeaders().get("User-Agent")).isEqualTo(UA);
    assertThat(request.getMethod()).isEqualTo("GET");
  }
}
