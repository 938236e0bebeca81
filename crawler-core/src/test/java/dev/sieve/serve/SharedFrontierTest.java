package dev.sieve.serve;

import static dev.sieve.serve.ServeFixture.discovered;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import crawlercommons.urlfrontier.Urlfrontier.AckMessage.Status;
import crawlercommons.urlfrontier.Urlfrontier.DeleteCrawlMessage;
import crawlercommons.urlfrontier.Urlfrontier.Empty;
import crawlercommons.urlfrontier.Urlfrontier.GetParams;
import crawlercommons.urlfrontier.Urlfrontier.Local;
import crawlercommons.urlfrontier.Urlfrontier.URLItem;
import dev.sieve.frontier.Frontiers;
import dev.sieve.frontier.OpenFrontier;
import dev.sieve.testing.Concurrently;
import dev.sieve.testing.RedisServers;
import io.grpc.StatusRuntimeException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Two serve nodes on one Redis frontier (a real redis-server): one frontier, both listed. */
class SharedFrontierTest {
  private ServeFixture a;
  private ServeFixture b;

  @BeforeEach
  void start() throws Exception {
    a = new ServeFixture(ServeFixture.Store.REDIS, settings());
    b = new ServeFixture(settings().frontier(ServeFixture.SharedRedis.uri()), a.clock);
  }

  private static ServeSettings.Builder settings() {
    return ServeSettings.builder().queueDelaySeconds(0).expectedUrls(10_000);
  }

  @AfterEach
  void stop() throws Exception {
    b.close();
    a.close();
  }

  private static List<URLItem> urls(String prefix, int count) {
    List<URLItem> items = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      items.add(discovered("http://h" + (i % 10) + ".test/" + prefix + i));
    }
    return items;
  }

  private static GetParams batch() {
    return GetParams.newBuilder().setMaxQueues(2).setDelayRequestable(60).build();
  }

  @Test
  void putThroughOneNode_gotThroughTheOtherExactlyOnce() {
    a.put(urls("p", 300));

    List<String> got = new ArrayList<>();
    for (List<String> urls = b.get(batch()); !urls.isEmpty(); urls = b.get(batch())) {
      got.addAll(urls);
    }

    assertThat(got).hasSize(300).doesNotHaveDuplicates();
    assertThat(a.get(batch())).as("every URL is leased, whichever node asks").isEmpty();
    assertThat(a.put(urls("p", 300))).as("both nodes share one Sieve")
        .allMatch(ack -> ack.getStatus() == Status.SKIPPED);
    assertThat(a.stats("", "").getInProcess()).isEqualTo(300);
  }

  @Test
  void bothNodesGettingAtOnce_handOutEachUrlOnce() throws Exception {
    a.put(urls("c", 1000));
    ConcurrentLinkedQueue<String> got = new ConcurrentLinkedQueue<>();

    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      Concurrently.sum(pool, 4, worker -> {
        ServeFixture node = worker % 2 == 0 ? a : b;
        for (List<String> urls = node.get(batch()); !urls.isEmpty(); urls = node.get(batch())) {
          got.addAll(urls);
        }
        return 0;
      });
    } finally {
      pool.shutdownNow();
    }

    Set<String> distinct = new HashSet<>(got);
    assertThat(got).as("no URL handed out twice").hasSameSizeAs(distinct);
    assertThat(distinct).hasSize(1000);
  }

  @Test
  void listNodes_onEitherNode_listsBothSorted_aClosedNodeLeavesAtOnce() throws Exception {
    List<String> both = new ArrayList<>(List.of(a.server.address(), b.server.address()));
    both.sort(null);

    assertThat(a.blocking.listNodes(Empty.getDefaultInstance()).getValuesList())
        .containsExactlyElementsOf(both);
    assertThat(b.blocking.listNodes(Empty.getDefaultInstance()).getValuesList())
        .containsExactlyElementsOf(both);

    b.close();
    b = new ServeFixture(settings(), a.clock); // in memory: closing it again is harmless
    assertThat(a.blocking.listNodes(Empty.getDefaultInstance()).getValuesList())
        .containsExactly(a.server.address());
  }

  @Test
  void listNodes_aNodeThatStopsBeating_dropsOutAfterTheTtl() {
    OpenFrontier store = Frontiers.open(
        settings().frontier(ServeFixture.SharedRedis.uri()).build().frontierSettings());
    try {
      // A node killed -9 leaves its last heartbeat behind: this one beats once, then never.
      store.crawls().join("127.0.0.1:1", a.clock, 10_000);
      assertThat(a.blocking.listNodes(Empty.getDefaultInstance()).getValuesList())
          .contains("127.0.0.1:1").hasSize(3);

      a.clock.advance(9);
      a.server.heartbeat();
      b.server.heartbeat();
      assertThat(a.blocking.listNodes(Empty.getDefaultInstance()).getValuesList())
          .as("9 s into a 10 s TTL").contains("127.0.0.1:1");

      a.clock.advance(1);
      assertThat(b.blocking.listNodes(Empty.getDefaultInstance()).getValuesList())
          .containsExactlyInAnyOrder(a.server.address(), b.server.address());
    } finally {
      store.disconnect();
    }
  }

  @Test
  void redisGone_callsAndPutStreamsEndUnavailable_theNodeKeepsServing() throws Exception {
    RedisServers own = RedisServers.standalone();
    try (ServeFixture node = new ServeFixture(settings().frontier(own.uri()), a.clock)) {
      node.put(discovered("http://a.test/1"));
      own.close();

      assertThatThrownBy(() -> node.stats("", ""))
          .isInstanceOfSatisfying(StatusRuntimeException.class, e -> {
            assertThat(e.getStatus().getCode()).isEqualTo(io.grpc.Status.Code.UNAVAILABLE);
            assertThat(e.getStatus().getDescription())
                .startsWith("GetStats: Redis frontier at " + own.uri() + " failed to");
          });
      io.grpc.Status putting = io.grpc.Status.fromThrowable(
          catchThrowable(() -> node.put(discovered("http://a.test/2"))));
      assertThat(putting.getCode()).as("the stream ends, nothing acked")
          .isEqualTo(io.grpc.Status.Code.UNAVAILABLE);
      assertThat(putting.getDescription()).startsWith("PutURLs: Redis frontier at " + own.uri());
      assertThatThrownBy(() -> node.blocking.getActive(Local.getDefaultInstance()))
          .as("still answering").hasMessageContaining("UNAVAILABLE: GetActive: Redis frontier");
      assertThat(node.server.counters()).containsEntry("unavailable", 3L);
      assertThat(node.server.counters().getOrDefault("put.acked.fail", 0L)).as("no item acked")
          .isZero();
    } finally {
      own.close();
    }
  }

  @Test
  void deleteCrawl_onOneNode_theOtherPutsIntoAFreshCrawl() {
    a.put(discovered("http://a.test/1", "", "c1"));
    assertThat(a.stats("", "c1").getSize()).isEqualTo(1);

    assertThat(b.blocking.deleteCrawl(DeleteCrawlMessage.newBuilder().setValue("c1").build())
        .getValue()).isEqualTo(1);

    assertThat(a.put(discovered("http://a.test/1", "", "c1")).get(0).getStatus())
        .as("a fresh Sieve").isEqualTo(Status.OK);
    assertThat(b.stats("", "c1").getSize()).isEqualTo(1);
  }
}
