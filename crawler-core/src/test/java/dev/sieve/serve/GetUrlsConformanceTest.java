package dev.sieve.serve;

import static dev.sieve.serve.ServeFixture.discovered;
import static dev.sieve.serve.ServeFixture.known;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import crawlercommons.urlfrontier.Urlfrontier.Active;
import crawlercommons.urlfrontier.Urlfrontier.AnyCrawlID;
import crawlercommons.urlfrontier.Urlfrontier.BlockQueueParams;
import crawlercommons.urlfrontier.Urlfrontier.CrawlLimitParams;
import crawlercommons.urlfrontier.Urlfrontier.GetParams;
import crawlercommons.urlfrontier.Urlfrontier.Local;
import crawlercommons.urlfrontier.Urlfrontier.QueueDelayParams;
import crawlercommons.urlfrontier.Urlfrontier.URLItem;
import crawlercommons.urlfrontier.Urlfrontier.URLStatusRequest;
import io.grpc.Context;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/** GetURLs against a real server: leases on an injected clock, limits, filters, queue controls. */
@ParameterizedClass
@EnumSource(ServeFixture.Store.class)
class GetUrlsConformanceTest {
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

  private static GetParams.Builder fromDefault() {
    return GetParams.newBuilder().setCrawlID("DEFAULT");
  }

  @Test
  void get_leasedUrl_notHandedOutAgainUntilTheLeaseEnds() {
    serve.put(discovered("http://a.test/"));

    assertThat(serve.getAll(10)).containsExactly("http://a.test/");
    serve.clock.advance(9);
    assertThat(serve.getAll(10)).as("9 s into a 10 s lease").isEmpty();
    assertThat(serve.stats("a.test", "").getInProcess()).isEqualTo(1);
    serve.clock.advance(1);
    assertThat(serve.stats("a.test", "").getInProcess()).isZero();
    assertThat(serve.getAll(10)).as("lease over").containsExactly("http://a.test/");
  }

  @Test
  void get_withoutDelayRequestable_leasesFor30Seconds() {
    serve.put(discovered("http://a.test/"));

    assertThat(serve.getAll(0)).hasSize(1);
    serve.clock.advance(29);
    assertThat(serve.getAll(0)).isEmpty();
    serve.clock.advance(1);
    assertThat(serve.getAll(0)).hasSize(1);
  }

  @Test
  void get_dueUrlsSoonestFirst() {
    long now = serve.clock.now();
    serve.put(known("http://a.test/later", now), known("http://a.test/sooner", now - 10_000));

    assertThat(serve.get(fromDefault().setKey("a.test").setMaxUrlsPerQueue(2).build()))
        .containsExactly("http://a.test/sooner", "http://a.test/later");
  }

  @Test
  void get_maxUrlsPerQueue_capsPerCallAndSkipsAQueueWithThatManyInFlight() {
    for (int i = 0; i < 5; i++) {
      serve.put(discovered("http://a.test/" + i));
    }
    GetParams two = fromDefault().setMaxUrlsPerQueue(2).setDelayRequestable(100).build();

    assertThat(serve.get(two)).hasSize(2);
    serve.clock.advance(1);
    assertThat(serve.get(two)).as("2 in flight: the queue is full").isEmpty();
    serve.put(known("http://a.test/0", 0));
    assertThat(serve.get(two)).as("1 in flight, below 2: up to 2 more, as the reference").hasSize(2);
  }

  @Test
  void get_maxQueues_takesFromThatManyQueuesRoundRobin() {
    serve.put(discovered("http://a.test/"), discovered("http://b.test/"), discovered("http://c.test/"));
    GetParams one = fromDefault().setMaxQueues(1).setDelayRequestable(100).build();

    String first = serve.get(one).get(0);
    String second = serve.get(one).get(0);
    String third = serve.get(one).get(0);

    assertThat(List.of(first, second, third))
        .containsExactlyInAnyOrder("http://a.test/", "http://b.test/", "http://c.test/");
  }

  @Test
  void get_keyFilter_onlyThatQueue() {
    serve.put(discovered("http://a.test/"), discovered("http://b.test/"));

    assertThat(serve.get(fromDefault().setKey("b.test").build())).containsExactly("http://b.test/");
    assertThat(serve.get(fromDefault().setKey("nope.test").build())).isEmpty();
  }

  @Test
  void get_keyWithoutCrawlId_invalidArgument() {
    assertThatThrownBy(() -> serve.get(GetParams.newBuilder().setKey("a.test").build()))
        .isInstanceOfSatisfying(StatusRuntimeException.class, e -> assertThat(e.getStatus()
            .getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT))
        .hasMessageContaining("needs a crawlID");
  }

  @Test
  void get_crawlIdFilter_versusAnyCrawl() {
    serve.put(discovered("http://a.test/", "", "one"), discovered("http://a.test/", "", "two"));

    assertThat(serve.get(GetParams.newBuilder().setCrawlID("one").build())).hasSize(1);
    assertThat(serve.get(GetParams.newBuilder().setCrawlID("unknown").build())).isEmpty();
    assertThat(serve.get(GetParams.newBuilder().setAnyCrawlID(AnyCrawlID.getDefaultInstance())
        .build())).as("only crawl two's URL is left").hasSize(1);
  }

  @Test
  void get_whileInactive_nothingButPutsStillTaken() {
    serve.blocking.setActive(Active.newBuilder().setState(false).build());
    serve.put(discovered("http://a.test/"));

    assertThat(serve.blocking.getActive(Local.getDefaultInstance()).getState()).isFalse();
    assertThat(serve.getAll(10)).isEmpty();
    serve.blocking.setActive(Active.newBuilder().setState(true).build());
    assertThat(serve.getAll(10)).hasSize(1);
  }

  @Test
  void get_queueDelay_spacesProductionsOfAQueue() {
    GetParams one = oneProducedWithDelay(5);
    serve.clock.advance(4);
    assertThat(serve.get(one)).isEmpty();
    serve.clock.advance(1);
    assertThat(serve.get(one)).hasSize(1);
  }

  @Test
  void get_queueDelay_inTheApisSeconds_holdsToTheMillisecond() {
    GetParams one = oneProducedWithDelay(1);
    serve.clock.advanceMillis(999);
    assertThat(serve.get(one)).as("999 ms after").isEmpty();
    serve.clock.advanceMillis(1);
    assertThat(serve.get(one)).hasSize(1);
  }

  /**
   * Queue a.test with two URLs and a delay of {@code seconds}, one of them handed out (by the
   * GetURLs asking one URL per queue that this returns) and completed now.
   */
  private GetParams oneProducedWithDelay(int seconds) {
    serve.put(discovered("http://a.test/1"), discovered("http://a.test/2"));
    serve.blocking.setDelay(QueueDelayParams.newBuilder().setKey("a.test")
        .setDelayRequestable(seconds).build());
    GetParams one = fromDefault().setMaxUrlsPerQueue(1).setDelayRequestable(100).build();
    serve.put(known(serve.get(one).get(0), 0));
    return one;
  }

  @Test
  void status_ofAUrlDueBetweenSeconds_isDueFromTheNextSecond_createdInItsOwn() {
    serve.clock.advanceMillis(400);
    serve.put(discovered("http://a.test/1"));

    URLItem status = serve.blocking.getURLStatus(
        URLStatusRequest.newBuilder().setUrl("http://a.test/1").build());
    assertThat(status.getKnown().getRefetchableFromDate()).as("a date to come: rounded up")
        .isEqualTo(ServeFixture.START + 1);
    assertThat(status.getCreationDate()).as("a date past: rounded down")
        .isEqualTo(ServeFixture.START);
    assertThat(serve.getAll(10)).as("due now in the engine").hasSize(1);
  }

  @Test
  void get_defaultQueueDelay_isOneSecondAndSetByAnEmptyKey() {
    serve.put(discovered("http://a.test/1"), discovered("http://a.test/2"));
    GetParams one = fromDefault().setMaxUrlsPerQueue(1).setDelayRequestable(100).build();

    serve.put(known(serve.get(one).get(0), 0));
    assertThat(serve.get(one)).as("same second").isEmpty();
    serve.blocking.setDelay(QueueDelayParams.newBuilder().setDelayRequestable(0).build());
    assertThat(serve.get(one)).hasSize(1);
  }

  @Test
  void get_blockedQueue_producesFromTheBlockEndOn() {
    serve.put(discovered("http://a.test/"));
    long until = serve.clock.now() + 60;
    serve.blocking.blockQueueUntil(BlockQueueParams.newBuilder().setKey("a.test").setTime(until)
        .build());

    assertThat(serve.getAll(10)).isEmpty();
    serve.clock.advance(60);
    assertThat(serve.getAll(10)).hasSize(1);
  }

  @Test
  void get_crawlLimit_stopsAQueueAfterThatManyCompleted() {
    serve.put(discovered("http://a.test/1"), discovered("http://a.test/2"));
    serve.blocking.setCrawlLimit(CrawlLimitParams.newBuilder().setKey("a.test").setLimit(1).build());
    serve.put(known("http://a.test/0", 0));

    assertThat(serve.getAll(10)).isEmpty();
    serve.blocking.setCrawlLimit(CrawlLimitParams.newBuilder().setKey("a.test").setLimit(0).build());
    assertThat(serve.getAll(10)).hasSize(2);
  }

  @Test
  void queueControls_unknownQueueNotFound_emptyKeyInvalid() {
    assertThatThrownBy(() -> serve.blocking.blockQueueUntil(
        BlockQueueParams.newBuilder().setKey("nope").setTime(1).build()))
        .hasMessageContaining("NOT_FOUND");
    assertThatThrownBy(() -> serve.blocking.setCrawlLimit(
        CrawlLimitParams.newBuilder().setLimit(1).build()))
        .hasMessageContaining("INVALID_ARGUMENT");
    assertThatThrownBy(() -> serve.blocking.setDelay(
        QueueDelayParams.newBuilder().setKey("nope").setCrawlID("nocrawl").build()))
        .hasMessageContaining("NOT_FOUND").hasMessageContaining("nocrawl");
    assertThat(serve.stats("", "").getCountsMap())
        .containsEntry("service.not_found", 2L).containsEntry("service.invalid_argument", 1L);
  }

  @Test
  void get_uint32Limits_pastIntMaxAreHugeNotNegative() {
    serve.put(discovered("http://a.test/1"), discovered("http://a.test/2"));
    GetParams huge = fromDefault().setMaxUrlsPerQueue(-1).setDelayRequestable(-1).build();

    assertThat(serve.get(huge)).as("max_urls_per_queue 2^32-1").hasSize(2);
    serve.clock.advance(86_400);
    assertThat(serve.get(huge)).as("a lease of 2^31-1 s still holds a day later").isEmpty();
  }

  @Test
  void get_clientVanishesMidStream_itsLeasesExpireAndTheUrlsComeBack() throws Exception {
    for (int i = 0; i < 50; i++) {
      serve.put(discovered("http://h" + i + ".test/"));
    }
    CountDownLatch first = new CountDownLatch(1);
    Context.CancellableContext context = Context.current().withCancellation();
    context.run(() -> serve.async.getURLs(fromDefault().setDelayRequestable(60).build(),
        FrontierClient.countingDown(first)));
    assertThat(first.await(10, TimeUnit.SECONDS)).isTrue();
    context.cancel(null);

    assertThat(serve.getAll(60)).as("all leased to the vanished client").isEmpty();
    serve.clock.advance(60);
    assertThat(serve.getAll(60)).as("leases expired").hasSize(50);
  }
}
