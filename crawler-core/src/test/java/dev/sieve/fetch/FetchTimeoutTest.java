package dev.sieve.fetch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.io.IOException;
import java.net.InetAddress;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.SocketEffect;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Timeouts; the preemptive bounds are safety nets against hangs, not performance checks. */
class FetchTimeoutTest {
  private static final Duration SAFETY_NET = Duration.ofSeconds(20);

  private final MockWebServer server = new MockWebServer();

  @BeforeEach
  void setUp() throws IOException {
    server.start(InetAddress.getByName("127.0.0.1"), 0);
  }

  @AfterEach
  void tearDown() {
    server.close();
  }

  private String url() {
    return "http://127.0.0.1:" + server.getPort() + "/";
  }

  @Test
  void fetch_slowDripBody_cutByCallTimeoutKeepingPartialBody() {
    // One byte every 100 ms: each read succeeds well within readTimeout, the whole body never
    // arrives within callTimeout.
    server.enqueue(
        new MockResponse.Builder()
            .code(200)
            .body("x".repeat(10_000))
            .throttleBody(1, 100, TimeUnit.MILLISECONDS)
            .build());
    Fetcher fetcher =
        Fetcher.builder()
            .readTimeout(Duration.ofSeconds(10))
            .callTimeout(Duration.ofSeconds(1))
            .build();

    try (fetcher) {
      FetchResult result = assertTimeoutPreemptively(SAFETY_NET, () -> fetcher.fetch(url()));

      assertThat(result.status()).isEqualTo(200);
      assertThat(result.error()).isEqualTo(FetchError.TIMEOUT);
      assertThat(result.errorMessage()).isEqualTo("call timed out");
      assertThat(result.truncated()).isTrue();
      assertThat(result.bytes()).isBetween(0L, 9_999L);
    }
  }

  @Test
  void fetch_headersNeverSent_readTimeout() {
    server.enqueue(
        new MockResponse.Builder().onResponseStart(SocketEffect.Stall.INSTANCE).build());
    Fetcher fetcher =
        Fetcher.builder()
            .readTimeout(Duration.ofMillis(300))
            .callTimeout(Duration.ofSeconds(15))
            .build();

    try (fetcher) {
      FetchResult result = assertTimeoutPreemptively(SAFETY_NET, () -> fetcher.fetch(url()));

      assertThat(result.status()).isZero();
      assertThat(result.error()).isEqualTo(FetchError.TIMEOUT);
      assertThat(result.errorMessage()).isEqualTo("read timed out");
      assertThat(result.body()).isEmpty();
    }
  }

  @Test
  void fetch_bodyStallsOnKeptConnection_readTimeoutKeepsHeadersAndCutsBody() {
    // The second fetch reuses the first one's connection, whose read timeout OkHttp sets anew.
    server.enqueue(new MockResponse.Builder().body("first").build());
    server.enqueue(new MockResponse.Builder().body("x".repeat(10_000))
        .onResponseBody(SocketEffect.Stall.INSTANCE).build());
    Fetcher fetcher =
        Fetcher.builder()
            .readTimeout(Duration.ofMillis(300))
            .callTimeout(Duration.ofSeconds(15))
            .build();

    try (fetcher) {
      assertThat(fetcher.fetch(url()).status()).isEqualTo(200);
      FetchResult result = assertTimeoutPreemptively(SAFETY_NET, () -> fetcher.fetch(url()));

      assertThat(fetcher.connectionsReused()).isEqualTo(1);
      assertThat(result.status()).isEqualTo(200);
      assertThat(result.error()).isEqualTo(FetchError.TIMEOUT);
      assertThat(result.errorMessage()).isEqualTo("read timed out");
      assertThat(result.truncated()).isTrue();
    }
  }

  @Test
  void fetch_headersNeverSent_callTimeoutWhenShorterThanReadTimeout() {
    server.enqueue(
        new MockResponse.Builder().onResponseStart(SocketEffect.Stall.INSTANCE).build());
    Fetcher fetcher =
        Fetcher.builder()
            .readTimeout(Duration.ofSeconds(15))
            .callTimeout(Duration.ofMillis(300))
            .build();

    try (fetcher) {
      FetchResult result = assertTimeoutPreemptively(SAFETY_NET, () -> fetcher.fetch(url()));

      assertThat(result.status()).isZero();
      assertThat(result.error()).isEqualTo(FetchError.TIMEOUT);
      assertThat(result.errorMessage()).isEqualTo("call timed out");
    }
  }
}
