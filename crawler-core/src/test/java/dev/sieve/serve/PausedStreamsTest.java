package dev.sieve.serve;

import static org.assertj.core.api.Assertions.assertThat;

import crawlercommons.urlfrontier.URLFrontierGrpc;
import crawlercommons.urlfrontier.Urlfrontier.AckMessage;
import crawlercommons.urlfrontier.Urlfrontier.URLItem;
import dev.sieve.frontier.Frontiers;
import dev.sieve.frontier.OpenFrontier;
import dev.sieve.frontier.queue.CrawlStore;
import dev.sieve.frontier.queue.ForwardingCrawlStore;
import dev.sieve.frontier.queue.ForwardingFrontierStore;
import dev.sieve.frontier.queue.FrontierStore;
import dev.sieve.frontier.queue.PutResult;
import dev.sieve.frontier.queue.UrlPut;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.stub.StreamObserver;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Streams that pause (a client sending a few URLs at a time) into a store that batches puts: each
 * stream's batch is applied once it lingered, and two streams' batches are applied side by side,
 * not one after another on the linger timer's thread. The store here is the in-memory one behind
 * a gate that lets a batch through only while another stream's batch is being applied too.
 */
class PausedStreamsTest {
  @Test
  void putURLs_twoStreamsThatPause_areAppliedSideBySide() throws Exception {
    ServeSettings settings = ServeSettings.builder().host("127.0.0.1").port(0).build();
    OpenFrontier memory = Frontiers.open(settings.frontierSettings());
    CyclicBarrier both = new CyclicBarrier(2);
    OpenFrontier gated = OpenFrontier.service(new GatedStore(memory.crawls(), both),
        memory.lifecycle().orElseThrow());
    FrontierServer server = FrontierServer.start(settings, gated, Clock.systemUTC(),
        (name, level) -> { }, FrontierServer.RpcListener.NONE);
    ManagedChannel channel =
        ManagedChannelBuilder.forAddress("127.0.0.1", server.port()).usePlaintext().build();
    try {
      List<AckMessage> acks = new CopyOnWriteArrayList<>();
      CountDownLatch acked = new CountDownLatch(2);
      List<StreamObserver<URLItem>> streams = new ArrayList<>();
      for (int s = 0; s < 2; s++) {
        streams.add(URLFrontierGrpc.newStub(channel).putURLs(new StreamObserver<>() {
          @Override
          public void onNext(AckMessage ack) {
            acks.add(ack);
            acked.countDown();
          }

          @Override
          public void onError(Throwable t) {}

          @Override
          public void onCompleted() {}
        }));
      }
      // One item each, and the streams stay open: each batch waits for more, then lingers out.
      streams.get(0).onNext(FrontierClient.discovered("http://a.test/one"));
      streams.get(1).onNext(FrontierClient.discovered("http://b.test/two"));

      assertThat(acked.await(30, TimeUnit.SECONDS)).as("both streams acked").isTrue();
      assertThat(acks).extracting(AckMessage::getStatus)
          .as("applied together: a batch applied alone waits at the gate and fails")
          .containsExactly(AckMessage.Status.OK, AckMessage.Status.OK);
      streams.forEach(StreamObserver::onCompleted);
    } finally {
      channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
      server.close();
    }
  }

  /** A store that batches puts, whose batches pass only two at a time. */
  private static final class GatedStore extends ForwardingFrontierStore {
    private final CyclicBarrier gate;

    GatedStore(FrontierStore inner, CyclicBarrier gate) {
      super(inner);
      this.gate = gate;
    }

    @Override
    public boolean batchesPuts() {
      return true;
    }

    @Override
    public CrawlStore getOrCreate(String crawlId) {
      return new GatedCrawl(delegate().getOrCreate(crawlId), gate);
    }

    @Override
    public Optional<? extends CrawlStore> get(String crawlId) {
      return delegate().get(crawlId).map(crawl -> new GatedCrawl(crawl, gate));
    }
  }

  /** One crawl of {@link GatedStore}: a batch waits (10 s at most) for another at the gate. */
  private static final class GatedCrawl extends ForwardingCrawlStore {
    private final CyclicBarrier gate;

    GatedCrawl(CrawlStore inner, CyclicBarrier gate) {
      super(inner);
      this.gate = gate;
    }

    @Override
    public PutResult[] putAll(List<? extends UrlPut> items, long queueBudget, long now) {
      try {
        gate.await(10, TimeUnit.SECONDS);
      } catch (Exception e) {
        throw new IllegalStateException("no other batch came to the gate", e);
      }
      return delegate().putAll(items, queueBudget, now);
    }
  }
}
