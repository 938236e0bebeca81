package dev.sieve.serve;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import crawlercommons.urlfrontier.Urlfrontier.AckMessage;
import crawlercommons.urlfrontier.Urlfrontier.DiscoveredURLItem;
import crawlercommons.urlfrontier.Urlfrontier.Pagination;
import crawlercommons.urlfrontier.Urlfrontier.StringList;
import crawlercommons.urlfrontier.Urlfrontier.URLInfo;
import crawlercommons.urlfrontier.Urlfrontier.URLItem;
import dev.sieve.serve.limits.ServeLimits;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** serve's limits against a real server: each refusal named, counted, and the service goes on. */
class ServeLimitsTest {
  private ServeFixture serve;

  @AfterEach
  void stop() throws Exception {
    if (serve != null) {
      serve.close();
    }
  }

  private ServeFixture start(ServeLimits.Builder limits) throws Exception {
    return start(ServeFixture.Store.MEMORY, limits);
  }

  private ServeFixture start(ServeFixture.Store store, ServeLimits.Builder limits)
      throws Exception {
    serve = new ServeFixture(store, ServeSettings.builder().limits(limits.build()));
    return serve;
  }

  @ParameterizedTest
  @EnumSource(ServeFixture.Store.class)
  void putUrls_pastTheQueueLimit_endsTheStreamNamingIt_afterAckingThoseBefore(
      ServeFixture.Store store) throws Exception {
    start(store, ServeLimits.builder().maxQueuesPerCrawl(3));
    List<URLItem> items = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      items.add(ServeFixture.discovered("http://h" + i + ".test/"));
    }

    assertThatThrownBy(() -> serve.put(items)).isInstanceOf(CompletionException.class)
        .hasMessageContaining("RESOURCE_EXHAUSTED")
        .hasMessageContaining("--max-queues-per-crawl (3)");

    assertThat(serve.stats("", "").getNumberOfQueues()).isEqualTo(3);
    assertThat(serve.stats("", "").getCountsMap())
        .containsEntry("service.limit.queues_per_crawl", 1L)
        .containsEntry("service.resource_exhausted", 1L);
    assertTakes(ServeFixture.discovered("http://h0.test/more"), "an existing queue");
  }

  @ParameterizedTest
  @EnumSource(ServeFixture.Store.class)
  void putDiscovered_pastTheQueueLimit_endsTheStreamNamingIt(ServeFixture.Store store)
      throws Exception {
    start(store, ServeLimits.builder().maxQueuesPerCrawl(3));
    FrontierClient.putDiscovered(serve.channel,
        List.of(FrontierClient.batch("1", "http://h0.test/", "http://h1.test/", "http://h2.test/")));

    assertThatThrownBy(() -> FrontierClient.putDiscovered(serve.channel,
        List.of(FrontierClient.batch("2", "http://h0.test/a", "http://h9.test/"))))
        .isInstanceOf(CompletionException.class).hasMessageContaining("RESOURCE_EXHAUSTED")
        .hasMessageContaining("--max-queues-per-crawl (3)");

    assertThat(serve.stats("", "").getNumberOfQueues()).as("the refused batch added nothing")
        .isEqualTo(3);
    assertThat(serve.stats("", "").getCountsMap())
        .containsEntry("service.limit.queues_per_crawl", 1L);
  }

  @Test
  void idleStream_pastTheTimeout_isEndedDeadlineExceeded_countedAndItsPlaceFreed()
      throws Exception {
    start(ServeLimits.builder().streamIdleSeconds(60));
    BlockingQueue<AckMessage> acks = new LinkedBlockingQueue<>();
    CompletableFuture<Status> ended = new CompletableFuture<>();
    StreamObserver<URLItem> stream = putStream(acks, ended);
    stream.onNext(ServeFixture.discovered("http://a.test/1"));
    assertThat(acks.poll(30, TimeUnit.SECONDS)).as("first ack").isNotNull();
    serve.clock.advance(59);
    assertThat(serve.server.sweepIdleStreams()).as("idle 59 s").isZero();
    stream.onNext(ServeFixture.discovered("http://a.test/2"));
    assertThat(acks.poll(30, TimeUnit.SECONDS)).as("second ack").isNotNull();
    serve.clock.advance(59);
    assertThat(serve.server.sweepIdleStreams()).as("59 s after its last item").isZero();
    assertThat(ended).isNotDone();

    serve.clock.advance(1);
    // The server's own sweep, every second, may come first: either ends the stream.
    serve.server.sweepIdleStreams();

    Status status = ended.get(30, TimeUnit.SECONDS);
    assertThat(status.getCode()).isEqualTo(Status.Code.DEADLINE_EXCEEDED);
    assertThat(status.getDescription()).isEqualTo("PutURLs ended: its client sent nothing on it"
        + " for 60 s, the most --stream-idle-timeout (60) allows");
    assertThat(awaitStats(counts -> Long.valueOf(1).equals(counts.get("service.calls.open"))))
        .as("the ended stream's place is free: only the asking call is open")
        .containsEntry("service.limit.stream_idle", 1L)
        .containsEntry("service.deadline_exceeded", 1L);
    assertThat(serve.stats("", "").getCountsMap()).containsEntry("service.put.items", 2L);
    assertThat(serve.put(ServeFixture.discovered("http://a.test/3")))
        .extracting(AckMessage::getStatus).as("the service goes on")
        .containsExactly(AckMessage.Status.OK);
  }

  @Test
  void idleTimeoutZero_leavesAnIdleStreamOpen() throws Exception {
    start(ServeLimits.builder().streamIdleSeconds(0));
    BlockingQueue<AckMessage> acks = new LinkedBlockingQueue<>();
    CompletableFuture<Status> ended = new CompletableFuture<>();
    StreamObserver<URLItem> stream = putStream(acks, ended);
    stream.onNext(ServeFixture.discovered("http://a.test/1"));
    assertThat(acks.poll(30, TimeUnit.SECONDS)).isNotNull();
    serve.clock.advance(365L * 24 * 3600);
    assertThat(serve.server.sweepIdleStreams()).isZero();
    stream.onNext(ServeFixture.discovered("http://a.test/2"));
    assertThat(acks.poll(30, TimeUnit.SECONDS)).as("still acked a year on").isNotNull();
    assertThat(ended).isNotDone();
    stream.onCompleted();
    assertThat(ended.get(30, TimeUnit.SECONDS)).isEqualTo(Status.OK);
  }

  /** A PutURLs stream whose acks go to {@code acks}; {@code ended} gets the status it ends with. */
  private StreamObserver<URLItem> putStream(BlockingQueue<AckMessage> acks,
      CompletableFuture<Status> ended) {
    return serve.async.putURLs(new StreamObserver<>() {
      @Override
      public void onNext(AckMessage ack) {
        acks.add(ack);
      }

      @Override
      public void onError(Throwable t) {
        ended.complete(Status.fromThrowable(t));
      }

      @Override
      public void onCompleted() {
        ended.complete(Status.OK);
      }
    });
  }

  /** GetStats's counts once {@code until} holds of them (30 s at most). */
  private Map<String, Long> awaitStats(Predicate<Map<String, Long>> until) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    Map<String, Long> counts = serve.stats("", "").getCountsMap();
    while (!until.test(counts) && System.nanoTime() < deadline) {
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
      counts = serve.stats("", "").getCountsMap();
    }
    return counts;
  }

  @ParameterizedTest
  @EnumSource(ServeFixture.Store.class)
  void putUrls_pastTheCrawlLimit_isRefusedNamingIt(ServeFixture.Store store) throws Exception {
    start(store, ServeLimits.builder().maxCrawls(1));
    serve.put(ServeFixture.discovered("http://a.test/"));

    assertThatThrownBy(() -> serve.put(ServeFixture.discovered("http://a.test/", "", "second")))
        .hasMessageContaining("RESOURCE_EXHAUSTED").hasMessageContaining("--max-crawls (1)");
    assertTakes(ServeFixture.discovered("http://a.test/2"), "the existing crawl");
  }

  @Test
  void sharedRedis_limitsCountWhatEveryNodeMade() throws Exception {
    start(ServeFixture.Store.REDIS, ServeLimits.builder().maxQueuesPerCrawl(3).maxCrawls(1));
    serve.put(ServeFixture.discovered("http://h0.test/"), ServeFixture.discovered("http://h1.test/"),
        ServeFixture.discovered("http://h2.test/"));
    try (ServeFixture other = new ServeFixture(ServeSettings.builder()
        .frontier(ServeFixture.SharedRedis.uri())
        .limits(ServeLimits.builder().maxQueuesPerCrawl(3).maxCrawls(1).build()), serve.clock)) {
      assertThat(other.put(ServeFixture.discovered("http://h1.test/more")))
          .extracting(AckMessage::getStatus).as("a queue the first node made")
          .containsExactly(AckMessage.Status.OK);
      assertThatThrownBy(() -> other.put(ServeFixture.discovered("http://h9.test/")))
          .hasMessageContaining("--max-queues-per-crawl (3)");
      assertThatThrownBy(() -> other.put(ServeFixture.discovered("http://h0.test/", "", "two")))
          .hasMessageContaining("--max-crawls (1)");
    }
    assertThat(serve.stats("", "").getNumberOfQueues()).isEqualTo(3);
  }

  private void assertTakes(URLItem item, String what) {
    assertThat(serve.put(item)).extracting(AckMessage::getStatus)
        .as(what + " still takes URLs").containsExactly(AckMessage.Status.OK);
  }

  @ParameterizedTest
  @EnumSource(ServeFixture.Store.class)
  void putDiscovered_oneBatchOfNewQueuesPastTheLimit_isRefusedWhole(ServeFixture.Store store)
      throws Exception {
    start(store, ServeLimits.builder().maxQueuesPerCrawl(2));

    assertThatThrownBy(() -> FrontierClient.putDiscovered(serve.channel, List.of(
        FrontierClient.batch("1", "http://h0.test/", "http://h1.test/", "http://h0.test/b",
            "http://h2.test/"))))
        .hasMessageContaining("RESOURCE_EXHAUSTED")
        .hasMessageContaining("--max-queues-per-crawl (2)");
    assertThat(serve.stats("", "").getNumberOfQueues()).isZero();
  }

  @ParameterizedTest
  @EnumSource(ServeFixture.Store.class)
  void putUrls_oneBatchOfManyNewQueues_stopsAtTheQueueLimit(ServeFixture.Store store)
      throws Exception {
    start(store, ServeLimits.builder().maxQueuesPerCrawl(5).maxCrawls(2));
    List<URLItem> items = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      items.add(ServeFixture.discovered("http://h" + (i % 10) + ".test/" + i));
    }

    assertThatThrownBy(() -> serve.put(items)).hasMessageContaining("RESOURCE_EXHAUSTED")
        .hasMessageContaining("--max-queues-per-crawl (5)");
    assertThat(serve.stats("", "").getNumberOfQueues()).isEqualTo(5);
    assertThat(serve.stats("", "").getSize()).as("the items before the refused one")
        .isEqualTo(5);
  }

  @Test
  void metadata_withMoreEntriesThanTheLimit_isSkipped() throws Exception {
    start(ServeLimits.builder().maxMetadataEntries(2));
    URLItem item = URLItem.newBuilder().setDiscovered(DiscoveredURLItem.newBuilder().setInfo(
        URLInfo.newBuilder().setUrl("http://a.test/").putMetadata("k",
            StringList.newBuilder().addValues("1").addValues("2").addValues("3").build())))
        .build();

    assertThat(serve.put(item)).extracting(AckMessage::getStatus)
        .containsExactly(AckMessage.Status.SKIPPED);
    assertThat(serve.stats("", "").getCountsMap())
        .containsEntry("service.put.rejected.metadata_too_many_entries", 1L);
  }

  @Test
  void listQueues_withTheLargestSize_answersEveryQueue() throws Exception {
    start(ServeLimits.builder());
    serve.put(ServeFixture.discovered("http://a.test/"), ServeFixture.discovered("http://b.test/"));

    assertThat(serve.blocking.listQueues(Pagination.newBuilder().setSize(-1).build())
        .getValuesList()).containsExactly("a.test", "b.test");
    assertThat(serve.blocking.listQueues(Pagination.newBuilder().setStart(-1).setSize(-1).build())
        .getValuesList()).isEmpty();
  }

  @Test
  void settings_refuseAMessageLimitSmallerThanTheLargestItem() {
    assertThatThrownBy(() -> ServeSettings.builder()
        .limits(ServeLimits.builder().maxMessageBytes(10_000).build()).build())
        .hasMessageStartingWith("--max-message-bytes (10000) must hold the largest item");
  }
}
