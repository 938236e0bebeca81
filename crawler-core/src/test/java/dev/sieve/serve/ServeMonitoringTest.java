package dev.sieve.serve;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import crawlercommons.urlfrontier.URLFrontierGrpc;
import crawlercommons.urlfrontier.Urlfrontier.QueueWithinCrawlParams;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.StatusRuntimeException;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** What a monitor reads from a running server: snapshots, counters and finished RPCs. */
class ServeMonitoringTest {
  private final List<String> calls = new CopyOnWriteArrayList<>();
  private FrontierServer server;
  private ManagedChannel channel;

  @BeforeEach
  void start() throws Exception {
    server = FrontierServer.start(ServeSettings.builder().host("127.0.0.1").port(0).build(),
        Clock.systemUTC(), null, (method, code, nanos) -> {
          assertThat(nanos).isNotNegative();
          calls.add(method + " " + code);
        });
    channel = ManagedChannelBuilder.forAddress("127.0.0.1", server.port()).usePlaintext().build();
  }

  @AfterEach
  void stop() throws Exception {
    channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    server.close();
  }

  @Test
  void rpcListener_isToldOfEachFinishedCallWithItsStatusCode() {
    URLFrontierGrpc.URLFrontierBlockingStub client = URLFrontierGrpc.newBlockingStub(channel)
        .withDeadlineAfter(30, TimeUnit.SECONDS);
    FrontierClient.put(channel, List.of(FrontierClient.discovered("http://a.test/")));
    client.getStats(QueueWithinCrawlParams.getDefaultInstance());
    assertThatThrownBy(() -> client.deleteQueue(QueueWithinCrawlParams.getDefaultInstance()))
        .isInstanceOf(StatusRuntimeException.class);

    assertThat(calls).containsExactly("PutURLs OK", "GetStats OK", "DeleteQueue INVALID_ARGUMENT");
  }

  @Test
  void snapshotsAndCounters_holdWhatThePutsDid() {
    FrontierClient.put(channel, List.of(FrontierClient.discovered("http://a.test/1"),
        FrontierClient.discovered("http://a.test/2"), FrontierClient.discovered("http://b.test/"),
        FrontierClient.discovered("http://a.test/1"), FrontierClient.discovered("no url")));

    assertThat(server.crawls()).singleElement().satisfies(crawl -> {
      assertThat(crawl.crawlId()).isEqualTo("DEFAULT");
      assertThat(crawl.pending()).isEqualTo(3);
      assertThat(crawl.inFlight()).isZero();
      assertThat(crawl.queues()).isEqualTo(2);
      assertThat(crawl.estimatedUrls()).isEqualTo(3);
      assertThat(crawl.counters()).containsEntry("put.discovered.created", 3L)
          .containsEntry("put.discovered.seen", 1L);
    });
    assertThat(server.counters()).containsEntry("put.items", 5L)
        .containsEntry("put.acked.ok", 3L).containsEntry("put.acked.skipped", 2L)
        .containsEntry("put.rejected.malformed_url", 1L);
  }
}
