package dev.sieve.fetch;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetAddress;
import java.time.Duration;
import java.util.Set;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.SocketEffect;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** One fetch is one request: nothing is retried or followed behind the caller's back. */
class FetchOneRequestTest {
  private final MockWebServer server = new MockWebServer();
  private final Fetcher fetcher = Fetcher.builder().build();

  @BeforeEach
  void start() throws IOException {
    server.start(InetAddress.getByName("127.0.0.1"), 0);
  }

  @AfterEach
  void stop() {
    fetcher.close();
    server.close();
  }

  private String url() {
    return "http://127.0.0.1:" + server.getPort() + "/";
  }

  /** Queues {@code first}, then a 200 that a silent retry would get. */
  private void serve(MockResponse first) {
    server.enqueue(first);
    server.enqueue(new MockResponse.Builder().code(200).body("retried").build());
  }

  @Test
  void fetch_serverDropsTheConnection_failsAfterOneRequest() {
    serve(new MockResponse.Builder().onResponseStart(new SocketEffect.CloseSocket()).build());

    FetchResult result = fetcher.fetch(url());

    assertThat(result.status()).isZero();
    assertThat(result.error()).isEqualTo(FetchError.IO);
    assertThat(server.getRequestCount()).isEqualTo(1);
  }

  @Test
  void fetch_serverDropsAReusedConnection_sentAgainOnceOnANewOne() {
    server.enqueue(new MockResponse.Builder().code(200).body("first").build());
    server.enqueue(new MockResponse.Builder().onResponseStart(new SocketEffect.CloseSocket()).build());
    serve(new MockResponse.Builder().onResponseStart(new SocketEffect.CloseSocket()).build());
    assertThat(fetcher.fetch(url()).status()).isEqualTo(200);

    FetchResult result = fetcher.fetch(url());

    // Unanswered on the kept connection, so sent again on a new one, unanswered again: no more.
    assertThat(result.error()).isEqualTo(FetchError.IO);
    assertThat(server.getRequestCount()).isEqualTo(3);
    assertThat(fetcher.connectionsStale()).isEqualTo(1);
  }

  @Test
  void fetch_503WithRetryAfterZero_notRepeated() {
    serve(new MockResponse.Builder().code(503).setHeader("Retry-After", "0").build());

    FetchResult result = fetcher.fetch(url());

    assertThat(result.status()).isEqualTo(503);
    assertThat(result.retryAfter()).contains(Duration.ZERO);
    assertThat(server.getRequestCount()).isEqualTo(1);
  }

  @Test
  void fetch_408_notRepeated() {
    serve(new MockResponse.Builder().code(408).build());

    assertThat(fetcher.fetch(url()).status()).isEqualTo(408);
    assertThat(server.getRequestCount()).isEqualTo(1);
  }

  @Test
  void fetch_retryAfterOf2Pow31Seconds_isDataNotAnException() {
    server.enqueue(new MockResponse.Builder().code(503).setHeader("Retry-After", "2147483648").build());

    FetchResult result = fetcher.fetch(url());

    assertThat(result.status()).isEqualTo(503);
    assertThat(result.retryAfter()).contains(Duration.ofSeconds(2147483648L));
  }

  @Test
  void fetch_retryAfterOfManyDigits_saturates() {
    server.enqueue(new MockResponse.Builder().code(429).setHeader("Retry-After", "9".repeat(100)).build());

    assertThat(fetcher.fetch(url()).retryAfter()).contains(RetryAfter.MAX);
  }

  @Test
  void fetch_retryAfterWithBytesOutsideAscii_ignored() {
    server.enqueue(new MockResponse.Builder().code(503)
        .addHeaderLenient("Retry-After", "\u00e9\u0001 soon").build());

    FetchResult result = fetcher.fetch(url());

    assertThat(result.status()).isEqualTo(503);
    assertThat(result.retryAfter()).isEmpty();
  }

  @Test
  void fetch_blankLocation_isNotARedirect() {
    server.enqueue(new MockResponse.Builder().code(302).addHeaderLenient("Location", " ").build());

    FetchResult result = fetcher.fetch(url());

    assertThat(result.isRedirect()).isFalse();
    assertThat(result.redirectLocation()).isEmpty();
  }

  @Test
  void fetch_privateIpLiteral_refusedWithoutARequest() {
    try (Fetcher guarded = Fetcher.builder().addressPolicy(AddressPolicy.publicOnlyExcept(Set.of())).build()) {
      FetchResult result = guarded.fetch(url());

      assertThat(result.error()).isEqualTo(FetchError.PRIVATE_ADDRESS);
      assertThat(result.errorMessage()).isEqualTo("127.0.0.1 is a private address");
      assertThat(server.getRequestCount()).isZero();
    }
  }

  @Test
  void fetch_nameOfALoopbackAddress_refusedWithoutARequest() {
    // "127.1" is no IP literal to a URL, but the resolver reads it as 127.0.0.1.
    try (Fetcher guarded = Fetcher.builder()
        .addressPolicy(AddressPolicy.publicOnlyExcept(Set.of("127.0.0.1"))).build()) {
      FetchResult result = guarded.fetch("http://127.1:" + server.getPort() + "/");

      assertThat(result.error()).isEqualTo(FetchError.PRIVATE_ADDRESS);
      assertThat(server.getRequestCount()).isZero();
      assertThat(guarded.refusesAddress("127.1")).isTrue();
      assertThat(guarded.refusesAddress("2130706433")).isTrue();
      assertThat(guarded.refusesAddress("127.0.0.1")).isFalse();
    }
  }

  @Test
  void addressPolicy_ipv6LiteralExemptWithOrWithoutBrackets() {
    AddressPolicy policy = AddressPolicy.publicOnlyExcept(Set.of("[::1]"));

    assertThat(policy.exempts("::1")).isTrue();
    assertThat(policy.refuses("[::1]")).isFalse();
    assertThat(AddressPolicy.publicOnlyExcept(Set.of()).refuses("[::1]")).isTrue();
  }
}
