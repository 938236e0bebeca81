package dev.sieve.crawl;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sieve.fetch.AddressPolicy;
import dev.sieve.fetch.FetchResult;
import dev.sieve.fetch.Fetcher;
import dev.sieve.testing.SilentServer;
import dev.sieve.url.Url;
import java.io.IOException;
import java.net.InetAddress;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import org.junit.jupiter.api.Test;

/** Connection failures in a row, from real fetches against loopback servers. */
class HostHealthTest {
  @Test
  void observe_refusedInARow_unreachableAtTheLimit_aResponseResetsTheCount() throws IOException {
    int port = SilentServer.refusingPort();
    String dead = "http://127.0.0.1:" + port + "/x";
    try (MockWebServer live = new MockWebServer();
        Fetcher fetcher = Fetcher.builder().addressPolicy(AddressPolicy.allowAll()).build()) {
      live.enqueue(new MockResponse.Builder().code(503).build());
      live.start(InetAddress.getByName("127.0.0.1"), 0);
      String liveUrl = "http://127.0.0.1:" + live.getPort() + "/";
      FetchResult refused = fetcher.fetch(dead);
      FetchResult answered = fetcher.fetch(liveUrl);
      HostHealth health = new HostHealth(3);

      health.observe(url(dead), refused);
      health.observe(url(dead), refused);
      assertThat(health.unreachable(url(dead))).isEmpty();
      assertThat(answered.status()).isEqualTo(503);
      // Any answer, even a 503, shows the server is there; counted per authority, not per URL.
      health.observe(url(dead.replace("/x", "/y")), answered);
      health.observe(url(dead), refused);
      health.observe(url(dead), refused);
      assertThat(health.unreachable(url(dead))).isEmpty();
      health.observe(url(dead), refused);

      assertThat(health.unreachable(url(dead))).contains("connection refused");
      assertThat(health.unreachable(url(dead.replace("/x", "/other")))).contains("connection refused");
      assertThat(health.unreachable(url(liveUrl))).isEmpty();
    }
  }

  private static Url url(String url) {
    return Url.parse(url).orElseThrow();
  }
}
