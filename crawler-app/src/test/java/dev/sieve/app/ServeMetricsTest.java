package dev.sieve.app;

import static dev.sieve.serve.FrontierClient.discovered;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import crawlercommons.urlfrontier.URLFrontierGrpc;
import crawlercommons.urlfrontier.Urlfrontier.AckMessage;
import crawlercommons.urlfrontier.Urlfrontier.GetParams;
import crawlercommons.urlfrontier.Urlfrontier.QueueWithinCrawlParams;
import crawlercommons.urlfrontier.Urlfrontier.URLItem;
import dev.sieve.serve.FrontierClient;
import dev.sieve.serve.FrontierServer;
import dev.sieve.serve.ServeSettings;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.StatusRuntimeException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code serve}'s metrics: a real in-process server on a loopback port, a real gRPC client, and
 * the metrics endpoint scraped over loopback HTTP.
 */
class ServeMetricsTest {
  private static final String CRAWL = "{crawl=\"DEFAULT\"";

  private ServeMetrics metrics;
  private MetricsEndpoint endpoint;
  private FrontierServer server;
  private ManagedChannel channel;

  @BeforeEach
  void start() throws Exception {
    metrics = new ServeMetrics();
    endpoint = MetricsEndpoint.start("127.0.0.1", 0, metrics.registry());
    server = FrontierServer.start(ServeSettings.builder().port(0).build(), Clock.systemUTC(), null,
        metrics);
    metrics.watch(server);
    channel = ManagedChannelBuilder.forAddress("127.0.0.1", server.port()).usePlaintext().build();
  }

  @AfterEach
  void stop() throws Exception {
    channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    server.close();
    endpoint.close();
  }

  @Test
  void scrape_afterPutsGetsAndCompletions_countsEachAsTheServiceDid() {
    assertThat(Scrape.of(endpoint.port()).value("sieve_serve_put_items_total")).isZero();
    List<URLItem> items = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      items.add(discovered("http://h" + i % 4 + ".test/p/" + i));
    }
    for (int i = 0; i < 20; i++) {
      items.add(discovered("http://h" + i % 4 + ".test/p/" + i)); // seen: dropped by the Sieve
    }
    items.add(discovered("not a url"));
    List<AckMessage> acks = FrontierClient.put(channel, items);
    assertThat(acks).hasSize(121);

    List<String> got = new ArrayList<>();
    URLFrontierGrpc.newBlockingStub(channel).withDeadlineAfter(30, TimeUnit.SECONDS)
        .getURLs(GetParams.newBuilder().setMaxUrlsPerQueue(5).setMaxQueues(2)
            .setDelayRequestable(600).build())
        .forEachRemaining(info -> got.add(info.getUrl()));
    assertThat(got).hasSize(10);
    FrontierClient.put(channel, got.subList(0, 3).stream()
        .map(url -> FrontierClient.known(url, 0)).toList());

    assertThatThrownBy(() -> URLFrontierGrpc.newBlockingStub(channel)
        .deleteQueue(QueueWithinCrawlParams.getDefaultInstance()))
        .isInstanceOf(StatusRuntimeException.class); // no key: INVALID_ARGUMENT

    Scrape scrape = Scrape.of(endpoint.port());
    assertThat(scrape.value("sieve_serve_put_items_total")).isEqualTo(124);
    assertThat(scrape.value("sieve_serve_urls_put_total" + CRAWL + ",result=\"created\"}"))
        .isEqualTo(100);
    assertThat(scrape.value("sieve_serve_urls_put_total" + CRAWL + ",result=\"seen\"}"))
        .isEqualTo(20);
    assertThat(scrape.value("sieve_serve_urls_put_total" + CRAWL + ",result=\"completed\"}"))
        .isEqualTo(3);
    assertThat(scrape.value("sieve_serve_put_rejected_total{reason=\"malformed_url\"}"))
        .isEqualTo(1);
    assertThat(scrape.value("sieve_serve_acks_total{status=\"ok\"}")).isEqualTo(103);
    assertThat(scrape.value("sieve_serve_acks_total{status=\"skipped\"}")).isEqualTo(21);
    assertThat(scrape.value("sieve_serve_urls_got_total" + CRAWL + "}")).isEqualTo(10);
    assertThat(scrape.value("sieve_serve_in_flight_urls" + CRAWL + "}")).isEqualTo(7);
    assertThat(scrape.value("sieve_serve_pending_urls" + CRAWL + "}")).isEqualTo(97);
    assertThat(scrape.value("sieve_serve_completed_urls" + CRAWL + "}")).isEqualTo(3);
    assertThat(scrape.value("sieve_serve_queues" + CRAWL + "}")).isEqualTo(4);
    assertThat(scrape.value("sieve_filter_estimated_urls" + CRAWL + "}")).isCloseTo(100, within(5.0));
    assertThat(scrape.value("sieve_filter_estimated_fpp" + CRAWL + "}")).isBetween(0.0, 1e-6);
    assertThat(scrape.value("sieve_serve_rpc_seconds_count{code=\"OK\",method=\"PutURLs\"}"))
        .isEqualTo(2);
    assertThat(scrape.value("sieve_serve_rpc_seconds_count{code=\"OK\",method=\"GetURLs\"}"))
        .isEqualTo(1);
    assertThat(scrape.value("sieve_serve_rpc_seconds_bucket{code=\"OK\",method=\"GetURLs\",le=\"+Inf\"}"))
        .isEqualTo(1);
    assertThat(scrape.value("sieve_serve_errors_total{code=\"invalid_argument\"}")).isEqualTo(1);
    assertThat(scrape.value(
        "sieve_serve_rpc_seconds_count{code=\"INVALID_ARGUMENT\",method=\"DeleteQueue\"}"))
        .isEqualTo(1);
  }

  @Test
  void start_onAPortInUse_failsWithOneLineNamingTheAddress() throws Exception {
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
      assertThatThrownBy(() -> MetricsEndpoint.start("127.0.0.1", taken.getLocalPort(),
          new ServeMetrics().registry()))
          .isInstanceOf(UncheckedIOException.class)
          .hasMessage("metrics: cannot listen on 127.0.0.1:" + taken.getLocalPort()
              + ": Address already in use");
    }
  }
}
