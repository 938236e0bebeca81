package dev.sieve.fetch;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetAddress;
import java.util.Set;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class FetchAddressPolicyTest {
  private final MockWebServer server = new MockWebServer();

  @BeforeEach
  void start() throws IOException {
    server.start(InetAddress.getByName("127.0.0.1"), 0);
  }

  @AfterEach
  void stop() {
    server.close();
  }

  @Test
  void fetch_hostNameResolvingToLoopback_refusedBeforeConnecting() {
    try (Fetcher fetcher = Fetcher.builder().addressPolicy(AddressPolicy.publicOnlyExcept(Set.of())).build()) {
      FetchResult result = fetcher.fetch("http://localhost:" + server.getPort() + "/");

      assertThat(result.error()).isEqualTo(FetchError.PRIVATE_ADDRESS);
      assertThat(result.errorMessage()).contains("localhost resolves only to private addresses");
      assertThat(result.status()).isZero();
      assertThat(server.getRequestCount()).isZero();
    }
  }

  @Test
  void fetch_exemptHost_allowedEvenIfPrivate() {
    server.enqueue(new MockResponse.Builder().code(200).body("ok").build());
    try (Fetcher fetcher = Fetcher.builder()
        .addressPolicy(AddressPolicy.publicOnlyExcept(Set.of("localhost"))).build()) {
      assertThat(fetcher.fetch("http://localhost:" + server.getPort() + "/").status()).isEqualTo(200);
    }
  }

  @Test
  void isPrivateHost_literalsAndLocalhost_classified() {
    assertThat(Set.of("127.0.0.1", "10.1.2.3", "172.16.0.1", "172.31.255.255", "192.168.0.1",
        "169.254.169.254", "0.0.0.0", "[::1]", "[fc00::1]", "[fd12:3456::1]", "[fe80::1]",
        "[::ffff:127.0.0.1]", "localhost", "a.localhost"))
        .allMatch(AddressPolicy::isPrivateHost);
    assertThat(Set.of("8.8.8.8", "172.32.0.1", "11.0.0.1", "[2001:db8::1]", "example.com", "localhost.example"))
        .noneMatch(AddressPolicy::isPrivateHost);
  }
}
