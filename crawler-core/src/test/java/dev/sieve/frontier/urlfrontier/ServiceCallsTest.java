package dev.sieve.frontier.urlfrontier;

import static org.assertj.core.api.Assertions.assertThat;

import crawlercommons.urlfrontier.URLFrontierGrpc;
import crawlercommons.urlfrontier.Urlfrontier.AckMessage;
import crawlercommons.urlfrontier.Urlfrontier.BatchAck;
import crawlercommons.urlfrontier.Urlfrontier.DiscoveredBatch;
import crawlercommons.urlfrontier.Urlfrontier.URLInfo;
import crawlercommons.urlfrontier.Urlfrontier.URLItem;
import dev.sieve.serve.FrontierServer;
import dev.sieve.serve.ServeSettings;
import io.grpc.Server;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.StreamObserver;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * How the crawl sends discovered URLs to a URL Frontier service on loopback: by PutDiscovered to
 * a 2.6 service (Sieve's serve), by PutURLs to one that answers PutDiscovered UNIMPLEMENTED.
 */
class ServiceCallsTest {
  private static final List<URLInfo> LINKS = List.of(info("http://a.test/1"),
      info("http://a.test/2"), info("http://a.test/1"));

  @Test
  void discover_toServe26_goesByPutDiscovered_acksPerUrl() throws Exception {
    try (FrontierServer serve = FrontierServer.start(
        ServeSettings.builder().host("127.0.0.1").port(0).build(), Clock.systemUTC(), null);
        ServiceCalls calls = new ServiceCalls(new ServiceAddress("127.0.0.1", serve.port(), false), "c")) {
      assertThat(calls.discover(LINKS)).containsExactly(AckMessage.Status.OK,
          AckMessage.Status.OK, AckMessage.Status.SKIPPED);
      assertThat(calls.usesPutDiscovered()).isTrue();
      assertThat(calls.stats().getCountsMap()).containsEntry("service.discovered.batches", 1L)
          .doesNotContainKey("service.put.items");
    }
  }

  @Test
  void discover_toServiceWithoutPutDiscovered_fallsBackToPutUrls_andStaysThere()
      throws Exception {
    OldService old = new OldService();
    Server server = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
        .addService(old).build().start();
    try (ServiceCalls calls =
        new ServiceCalls(new ServiceAddress("127.0.0.1", server.getPort(), false), "c")) {
      assertThat(calls.discover(LINKS)).hasSize(3).containsOnly(AckMessage.Status.OK);
      assertThat(calls.usesPutDiscovered()).isFalse();
      calls.discover(List.of(info("http://b.test/")));

      assertThat(old.discoveredCalls).as("asked once, then no more").hasValue(1);
      assertThat(old.put).containsExactly("http://a.test/1", "http://a.test/2",
          "http://a.test/1", "http://b.test/");
    } finally {
      server.shutdownNow().awaitTermination();
    }
  }

  private static URLInfo info(String url) {
    return URLInfo.newBuilder().setUrl(url).build();
  }

  /** A service of API 2.5: PutURLs acks each item OK; PutDiscovered is UNIMPLEMENTED. */
  private static final class OldService extends URLFrontierGrpc.URLFrontierImplBase {
    final AtomicInteger discoveredCalls = new AtomicInteger();
    final List<String> put = new CopyOnWriteArrayList<>();

    @Override
    public StreamObserver<DiscoveredBatch> putDiscovered(StreamObserver<BatchAck> responses) {
      discoveredCalls.incrementAndGet();
      return super.putDiscovered(responses);
    }

    @Override
    public StreamObserver<URLItem> putURLs(StreamObserver<AckMessage> responses) {
      return new StreamObserver<>() {
        @Override
        public void onNext(URLItem item) {
          put.add(item.getDiscovered().getInfo().getUrl());
          responses.onNext(AckMessage.newBuilder().setStatus(AckMessage.Status.OK).build());
        }

        @Override
        public void onError(Throwable t) { }

        @Override
        public void onCompleted() {
          responses.onCompleted();
        }
      };
    }
  }
}
