package dev.sieve.crawl;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sieve.fetch.FetchError;
import dev.sieve.fetch.FetchResult;
import dev.sieve.fetch.Fetcher;
import dev.sieve.fetch.ProxyServer;
import dev.sieve.fetch.ProxySettings;
import dev.sieve.loopback.LoopbackNginx;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * When a proxy counts as dead: results of real fetches through a refusing port and through a live
 * "proxy" (a loopback server answering the absolute-form requests an HTTP proxy gets).
 */
class ProxyHealthTest {
  private final MockWebServer live = new MockWebServer();
  private final List<String> deaths = new ArrayList<>();
  private ProxyServer dead;
  private ProxyServer working;
  private Fetcher viaDead;
  private Fetcher viaWorking;

  @BeforeEach
  void setUp() throws Exception {
    live.setDispatcher(new Dispatcher() {
      @Override
      public MockResponse dispatch(RecordedRequest request) {
        return new MockResponse.Builder().code(200).body("ok").build();
      }
    });
    live.start(InetAddress.getByName("127.0.0.1"), 0);
    dead = ProxyServer.parse("proxy", "http://127.0.0.1:" + LoopbackNginx.freePort());
    working = ProxyServer.parse("proxy", "http://127.0.0.1:" + live.getPort());
    viaDead = Fetcher.builder().proxies(ProxySettings.of(dead, null)).build();
    viaWorking = Fetcher.builder().proxies(ProxySettings.of(working, null)).build();
  }

  @AfterEach
  void tearDown() {
    viaDead.close();
    viaWorking.close();
    live.close();
  }

  private FetchResult failed() {
    FetchResult result = viaDead.fetch("http://a.example/");
    assertThat(result.error()).isEqualTo(FetchError.PROXY_UNREACHABLE);
    return result;
  }

  @Test
  void observe_firstFetchFailsBeforeAnyGotThrough_deadAtOnceWithOneLine() {
    ProxyHealth health = new ProxyHealth(3, deaths::add);

    health.observe(dead, failed());
    health.observe(dead, failed());

    assertThat(deaths).singleElement().isEqualTo("Proxy " + dead
        + " is unreachable (connection refused; 1 fetch(es) in a row, none through it yet):"
        + " stopping the crawl");
  }

  @Test
  void observe_afterAFetchGotThrough_deadOnlyAtTheLimitInARow() {
    ProxyHealth health = new ProxyHealth(3, deaths::add);
    FetchResult through = viaWorking.fetch("http://a.example/");
    assertThat(through.status()).isEqualTo(200);

    health.observe(working, through);
    health.observe(dead, failed());
    health.observe(dead, failed());
    health.observe(working, through);
    health.observe(dead, failed());
    health.observe(dead, failed());

    assertThat(deaths).as("a fetch through it in between resets the count").isEmpty();

    health.observe(dead, failed());

    assertThat(deaths).singleElement().asString().contains("3 fetch(es) in a row")
        .doesNotContain("none through it yet");
  }
}
