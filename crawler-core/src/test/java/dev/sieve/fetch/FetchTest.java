package dev.sieve.fetch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.google.common.base.Ticker;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

class FetchTest {
  private final MockWebServer server = new MockWebServer();
  private Fetcher fetcher;

  @BeforeEach
  void setUp() throws IOException {
    server.start(InetAddress.getByName("127.0.0.1"), 0);
    fetcher = Fetcher.builder().userAgent("SieveTest/1.0").build();
  }

  @AfterEach
  void tearDown() {
    fetcher.close();
    server.close();
  }

  private String url(String path) {
    return "http://127.0.0.1:" + server.getPort() + path;
  }

  @Test
  void fetch_html200_returnsStatusTypeAndBody() throws InterruptedException {
    String html = "<html><body>hi</body></html>";
    server.enqueue(
        new MockResponse.Builder()
            .code(200)
            .setHeader("Content-Type", "text/html; charset=utf-8")
            .body(html)
            .build());

    FetchResult result = fetcher.fetch(url("/page"));

    assertThat(result.url()).isEqualTo(url("/page"));
    assertThat(result.status()).isEqualTo(200);
    assertThat(result.isSuccess()).isTrue();
    assertThat(result.isHtml()).isTrue();
    assertThat(result.contentType()).isEqualTo("text/html; charset=utf-8");
    assertThat(new String(result.body(), StandardCharsets.UTF_8)).isEqualTo(html);
    assertThat(result.bytes()).isEqualTo(html.length());
    assertThat(result.truncated()).isFalse();
    assertThat(result.error()).isNull();
    assertThat(result.errorMessage()).isNull();
    assertThat(result.redirectLocation()).isEmpty();
    assertThat(result.retryAfter()).isEmpty();

    RecordedRequest request = server.takeRequest(5, TimeUnit.SECONDS);
    assertThat(request).isNotNull();
    assertThat(request.getMethod()).isEqualTo("GET");
    assertThat(request.getHeaders().get("User-Agent")).isEqualTo("SieveTest/1.0");
    assertThat(request.getHeaders().get("Accept")).startsWith("text/html");
  }

  @Test
  void fetch_defaultUserAgent_isSent() throws InterruptedException {
    server.enqueue(new MockResponse.Builder().code(204).build());

    try (Fetcher defaults = Fetcher.builder().build()) {
      defaults.fetch(url("/"));
    }

    RecordedRequest request = server.takeRequest(5, TimeUnit.SECONDS);
    assertThat(request.getHeaders().get("User-Agent")).isEqualTo(Fetcher.DEFAULT_USER_AGENT);
  }

  @Test
  void fetch_404_isResultWithBody() {
    server.enqueue(new MockResponse.Builder().code(404).body("not here").build());

    FetchResult result = fetcher.fetch(url("/missing"));

    assertThat(result.status()).isEqualTo(404);
    assertThat(result.isSuccess()).isFalse();
    assertThat(result.error()).isNull();
    assertThat(result.body()).isEqualTo("not here".getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void fetch_500_isResultNotException() {
    server.enqueue(new MockResponse.Builder().code(500).body("oops").build());

    FetchResult result = fetcher.fetch(url("/"));

    assertThat(result.status()).isEqualTo(500);
    assertThat(result.isSuccess()).isFalse();
    assertThat(result.error()).isNull();
    assertThat(result.retryAfter()).isEmpty();
  }

  @Test
  void fetch_301_notFollowedAndLocationKeptRaw() {
    server.enqueue(
        new MockResponse.Builder().code(301).setHeader("Location", "../next?a=1").build());
    server.enqueue(new MockResponse.Builder().code(200).body("followed").build());

    FetchResult result = fetcher.fetch(url("/dir/old"));

    assertThat(result.status()).isEqualTo(301);
    assertThat(result.isRedirect()).isTrue();
    assertThat(result.redirectLocation()).contains("../next?a=1");
    assertThat(server.getRequestCount()).isEqualTo(1);
  }

  @Test
  void fetch_302WithoutLocation_isNotRedirect() {
    server.enqueue(new MockResponse.Builder().code(302).build());

    FetchResult result = fetcher.fetch(url("/"));

    assertThat(result.status()).isEqualTo(302);
    assertThat(result.isRedirect()).isFalse();
    assertThat(result.redirectLocation()).isEmpty();
  }

  @Test
  void fetch_429WithDeltaSeconds_retryAfterParsed() {
    server.enqueue(new MockResponse.Builder().code(429).setHeader("Retry-After", "120").build());

    FetchResult result = fetcher.fetch(url("/"));

    assertThat(result.status()).isEqualTo(429);
    assertThat(result.retryAfter()).contains(Duration.ofSeconds(120));
  }

  @Test
  void fetch_503WithHttpDate_retryAfterRelativeToClock() {
    Clock clock = Clock.fixed(Instant.parse("2025-01-01T00:00:00Z"), ZoneOffset.UTC);
    server.enqueue(
        new MockResponse.Builder()
            .code(503)
            .setHeader("Retry-After", "Wed, 01 Jan 2025 00:02:30 GMT")
            .build());

    try (Fetcher clocked = Fetcher.builder().clock(clock).build()) {
      FetchResult result = clocked.fetch(url("/"));

      assertThat(result.status()).isEqualTo(503);
      assertThat(result.retryAfter()).contains(Duration.ofSeconds(150));
    }
  }

  @Test
  void fetch_retryAfterDateInPast_isZero() {
    Clock clock = Clock.fixed(Instant.parse("2025-01-01T00:00:00Z"), ZoneOffset.UTC);
    server.enqueue(
        new MockResponse.Builder()
            .code(429)
            .setHeader("Retry-After", "Tue, 31 Dec 2024 23:00:00 GMT")
            .build());

    try (Fetcher clocked = Fetcher.builder().clock(clock).build()) {
      assertThat(clocked.fetch(url("/")).retryAfter()).contains(Duration.ZERO);
    }
  }

  @Test
  void fetch_malformedRetryAfter_isEmpty() {
    server.enqueue(new MockResponse.Builder().code(429).setHeader("Retry-After", "soon").build());

    assertThat(fetcher.fetch(url("/")).retryAfter()).isEmpty();
  }

  @Test
  void fetch_retryAfterOn200_isIgnored() {
    server.enqueue(new MockResponse.Builder().code(200).setHeader("Retry-After", "5").build());

    assertThat(fetcher.fetch(url("/")).retryAfter()).isEmpty();
  }

  @Test
  void fetch_elapsedTime_measuredWithInjectedTicker() {
    AtomicLong nanos = new AtomicLong();
    Ticker ticker =
        new Ticker() {
          @Override
          public long read() {
            return nanos.getAndAdd(TimeUnit.MILLISECONDS.toNanos(42));
          }
        };
    server.enqueue(new MockResponse.Builder().code(200).body("x").build());

    try (Fetcher ticking = Fetcher.builder().ticker(ticker).build()) {
      assertThat(ticking.fetch(url("/")).fetchMs()).isEqualTo(42);
    }
  }

  @Test
  void fetch_connectionRefused_isConnectErrorWithoutWarnLogs() throws IOException {
    int port;
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
      port = socket.getLocalPort();
    }
    Logger logger = (Logger) LoggerFactory.getLogger("dev.sieve.fetch");
    ListAppender<ILoggingEvent> appender = new ListAppender<>();
    appender.start();
    logger.addAppender(appender);
    try {
      FetchResult result = fetcher.fetch("http://127.0.0.1:" + port + "/");

      assertThat(result.status()).isZero();
      assertThat(result.error()).isEqualTo(FetchError.CONNECT);
      assertThat(result.errorMessage()).isEqualTo("connection refused");
      assertThat(result.body()).isEmpty();
      assertThat(result.isSuccess()).isFalse();
      assertThat(appender.list)
          .allSatisfy(e -> assertThat(e.getLevel().isGreaterOrEqual(Level.WARN)).isFalse());
    } finally {
      logger.detachAppender(appender);
    }
  }

  @Test
  void fetch_notHttpUrl_throwsIllegalArgument() {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> fetcher.fetch("ftp://127.0.0.1/x"))
        .withMessage("url (ftp://127.0.0.1/x) must be an absolute http(s) URL");
  }

  @Test
  void fetch_afterClose_throwsIllegalState() {
    fetcher.close();

    assertThatIllegalStateException()
        .isThrownBy(() -> fetcher.fetch(url("/")));
  }
}
