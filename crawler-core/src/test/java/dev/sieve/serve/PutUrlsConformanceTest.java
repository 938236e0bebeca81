package dev.sieve.serve;

import static dev.sieve.serve.ServeFixture.discovered;
import static dev.sieve.serve.ServeFixture.known;
import static org.assertj.core.api.Assertions.assertThat;

import crawlercommons.urlfrontier.Urlfrontier.AckMessage;
import crawlercommons.urlfrontier.Urlfrontier.AckMessage.Status;
import crawlercommons.urlfrontier.Urlfrontier.GetParams;
import crawlercommons.urlfrontier.Urlfrontier.StringList;
import crawlercommons.urlfrontier.Urlfrontier.URLInfo;
import crawlercommons.urlfrontier.Urlfrontier.URLItem;
import io.grpc.Context;
import io.grpc.stub.StreamObserver;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/** PutURLs against a real server: dedupe through the Sieve, updates, bad items, big streams. */
@ParameterizedClass
@EnumSource(ServeFixture.Store.class)
class PutUrlsConformanceTest {
  @Parameter ServeFixture.Store store;
  private ServeFixture serve;

  @BeforeEach
  void start() throws Exception {
    serve = new ServeFixture(store);
  }

  @AfterEach
  void stop() throws Exception {
    serve.close();
  }

  @Test
  void put_sameDiscoveredUrlTwice_createdOnceSecondSkipped() {
    List<AckMessage> acks = serve.put(discovered("http://a.test/"), discovered("http://a.test/"));

    assertThat(acks).extracting(AckMessage::getStatus).containsExactly(Status.OK, Status.SKIPPED);
    assertThat(serve.stats("", "").getSize()).isEqualTo(1);
    assertThat(serve.stats("", "").getCountsMap()).containsEntry("crawl.put.discovered.seen", 1L);
  }

  @Test
  void put_ackIds_areTheClientsIdOrTheUrl() {
    URLItem withId = discovered("http://a.test/1").toBuilder().setID("mine").build();

    List<AckMessage> acks = serve.put(withId, discovered("http://a.test/2"));

    assertThat(acks).extracting(AckMessage::getID).containsExactly("mine", "http://a.test/2");
  }

  @Test
  void put_withoutKey_queuesByHost() {
    serve.put(discovered("http://gac.icann.org?language_id=9"), discovered("http://B.test:8080/x"));

    List<String> queues = serve.blocking.listQueues(
        crawlercommons.urlfrontier.Urlfrontier.Pagination.getDefaultInstance()).getValuesList();
    assertThat(queues).containsExactly("b.test", "gac.icann.org");
  }

  @Test
  void put_knownWithoutRefetchDate_completesAndIsNeverHandedOut() {
    serve.put(discovered("http://a.test/"));
    serve.put(known("http://a.test/", 0));
    serve.clock.advance(3600);

    assertThat(serve.getAll(10)).isEmpty();
    assertThat(serve.put(discovered("http://a.test/")))
        .extracting(AckMessage::getStatus).containsExactly(Status.SKIPPED);
    assertThat(serve.stats("", "").getCountsMap()).containsEntry("completed", 1L);
  }

  @Test
  void put_knownWithRefetchDate_handedOutFromThatDateOnly() {
    long later = serve.clock.now() + 100;
    serve.put(known("http://a.test/", later));

    assertThat(serve.getAll(10)).isEmpty();
    serve.clock.advance(100);
    assertThat(serve.getAll(10)).containsExactly("http://a.test/");
  }

  @Test
  void put_knownUpdateOfLeasedUrl_endsTheLease() {
    serve.put(discovered("http://a.test/"));
    assertThat(serve.getAll(600)).containsExactly("http://a.test/");
    serve.put(known("http://a.test/", serve.clock.now()));
    serve.clock.advance(1);

    assertThat(serve.getAll(600)).as("rescheduled now: lease gone").containsExactly("http://a.test/");
  }

  @Test
  void put_discoveredAfterQueueDeleted_isCreatedAgain() {
    serve.put(discovered("http://a.test/"));
    serve.blocking.deleteQueue(crawlercommons.urlfrontier.Urlfrontier.QueueWithinCrawlParams
        .newBuilder().setKey("a.test").build());

    assertThat(serve.put(discovered("http://a.test/")))
        .extracting(AckMessage::getStatus).containsExactly(Status.OK);
  }

  @Test
  void put_badItems_skippedAndCountedByReason() {
    URLItem longKey = URLItem.newBuilder().setDiscovered(
        crawlercommons.urlfrontier.Urlfrontier.DiscoveredURLItem.newBuilder().setInfo(
            URLInfo.newBuilder().setUrl("http://a.test/").setKey("k".repeat(256)))).build();

    List<AckMessage> acks = serve.put(discovered("not a url"), discovered(""),
        discovered("ftp://a.test/"), longKey, URLItem.getDefaultInstance(),
        discovered("http://a.test/" + "p".repeat(9000)), discovered("http://ok.test/"));

    assertThat(acks).extracting(AckMessage::getStatus).containsExactly(Status.SKIPPED,
        Status.SKIPPED, Status.SKIPPED, Status.SKIPPED, Status.SKIPPED, Status.SKIPPED, Status.OK);
    assertThat(serve.stats("", "").getCountsMap())
        .containsEntry("service.put.rejected.malformed_url", 3L)
        .containsEntry("service.put.rejected.key_too_long", 1L)
        .containsEntry("service.put.rejected.empty_item", 1L)
        .containsEntry("service.put.rejected.url_too_long", 1L);
  }

  @Test
  void put_metadata_comesBackWithTheUrl() {
    URLItem item = URLItem.newBuilder().setDiscovered(
        crawlercommons.urlfrontier.Urlfrontier.DiscoveredURLItem.newBuilder().setInfo(
            URLInfo.newBuilder().setUrl("http://a.test/")
                .putMetadata("depth", StringList.newBuilder().addValues("3").build()))).build();
    serve.put(item);

    URLInfo got = serve.blocking.getURLs(GetParams.newBuilder().setCrawlID("").build()).next();

    assertThat(got.getMetadataMap().get("depth").getValuesList()).containsExactly("3");
    assertThat(got.getKey()).isEqualTo("a.test");
    assertThat(got.getCrawlID()).isEqualTo("DEFAULT");
  }

  @Test
  void put_streamOf20kItems_everyOneAckedInOrder() {
    List<URLItem> items = new ArrayList<>();
    for (int i = 0; i < 20_000; i++) {
      items.add(discovered("http://h" + (i % 100) + ".test/" + (i % 16_000)));
    }

    List<AckMessage> acks = serve.put(items);

    assertThat(acks).hasSize(20_000);
    assertThat(acks.get(19_999).getID()).isEqualTo("http://h99.test/3999");
    assertThat(acks.stream().filter(a -> a.getStatus() == Status.OK)).hasSize(16_000);
    assertThat(serve.stats("", "").getSize()).isEqualTo(16_000);
  }

  @Test
  void put_clientVanishesMidStream_serverKeepsServingAndCounts() throws Exception {
    CountDownLatch firstAck = new CountDownLatch(1);
    Context.CancellableContext context = Context.current().withCancellation();
    StreamObserver<URLItem> requests = context.call(
        () -> serve.async.putURLs(FrontierClient.<AckMessage>countingDown(firstAck)));
    requests.onNext(discovered("http://a.test/1"));
    assertThat(firstAck.await(10, TimeUnit.SECONDS)).isTrue();
    context.cancel(null);

    assertThat(serve.put(discovered("http://a.test/2"))).hasSize(1);
    assertThat(serve.stats("", "").getSize()).as("the acked URL stays").isEqualTo(2);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (!serve.stats("", "").getCountsMap().containsKey("service.put.streams_broken")
        && System.nanoTime() < deadline) {
      Thread.onSpinWait();
    }
    assertThat(serve.stats("", "").getCountsMap()).containsEntry("service.put.streams_broken", 1L);
  }
}
