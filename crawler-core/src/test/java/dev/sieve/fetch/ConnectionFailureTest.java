package dev.sieve.fetch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sieve.testing.SilentServer;
import java.io.IOException;
import java.net.InetAddress;
import java.time.Duration;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The cause of a failed fetch, from real fetches on loopback. */
class ConnectionFailureTest {
  private final Fetcher fetcher = Fetcher.builder().addressPolicy(AddressPolicy.allowAll())
      .readTimeout(Duration.ofMillis(200)).build();

  @AfterEach
  void close() {
    fetcher.close();
  }

  @Test
  void cause_refusedPort_isConnectionRefused() throws IOException {
    FetchResult result = fetcher.fetch("http://127.0.0.1:" + SilentServer.refusingPort() + "/");

    assertThat(ConnectionFailure.cause(result)).contains("connection refused");
  }

  @Test
  void cause_serverThatNeverAnswers_isReadTimeout() throws IOException {
    try (SilentServer silent = SilentServer.start()) {
      assertThat(ConnectionFailure.cause(fetcher.fetch(silent.url("/")))).contains("read timeout");
    }
  }

  @Test
  void cause_anyResponseEvenA503_isNone() throws IOException {
    try (MockWebServer server = new MockWebServer()) {
      server.enqueue(new MockResponse.Builder().code(503).build());
      server.start(InetAddress.getByName("127.0.0.1"), 0);

      FetchResult result = fetcher.fetch("http://127.0.0.1:" + server.getPort() + "/");

      assertThat(result.status()).isEqualTo(503);
      assertThat(ConnectionFailure.cause(result)).isEmpty();
    }
  }
}
