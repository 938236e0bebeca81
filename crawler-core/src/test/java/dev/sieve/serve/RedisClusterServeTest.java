package dev.sieve.serve;

import static dev.sieve.serve.ServeFixture.discovered;
import static org.assertj.core.api.Assertions.assertThat;

import crawlercommons.urlfrontier.Urlfrontier.AckMessage;
import crawlercommons.urlfrontier.Urlfrontier.AckMessage.Status;
import crawlercommons.urlfrontier.Urlfrontier.CountUrlParams;
import crawlercommons.urlfrontier.Urlfrontier.DeleteCrawlMessage;
import crawlercommons.urlfrontier.Urlfrontier.GetParams;
import crawlercommons.urlfrontier.Urlfrontier.KnownURLItem;
import crawlercommons.urlfrontier.Urlfrontier.ListUrlParams;
import crawlercommons.urlfrontier.Urlfrontier.Pagination;
import crawlercommons.urlfrontier.Urlfrontier.QueueWithinCrawlParams;
import crawlercommons.urlfrontier.Urlfrontier.URLInfo;
import crawlercommons.urlfrontier.Urlfrontier.URLItem;
import crawlercommons.urlfrontier.Urlfrontier.URLStatusRequest;
import dev.sieve.testing.RedisServers;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Two serve nodes on a real three-master Redis Cluster: a crawl's queues spread over the 16 shards
 * of {@link dev.sieve.frontier.redis.RedisStore}, each one slot with its own Sieve; puts, gets,
 * stats, lists and deletes span them as over one crawl.
 */
class RedisClusterServeTest {
  private static final int QUEUES = 40;
  private static RedisServers cluster;
  private static int crawls;
  private ServeFixture a;
  private ServeFixture b;
  private String crawl;

  @BeforeAll
  static void startCluster() throws IOException {
    cluster = RedisServers.cluster();
  }

  @AfterAll
  static void stopCluster() {
    Optional.ofNullable(cluster).ifPresent(RedisServers::close);
  }

  @BeforeEach
  void start() throws Exception {
    crawl = "c" + ++crawls;
    a = new ServeFixture(settings());
    b = new ServeFixture(settings(), a.clock);
  }

  private static ServeSettings.Builder settings() {
    return ServeSettings.builder().queueDelaySeconds(0).expectedUrls(10_000)
        .frontier(cluster.clusterUri());
  }

  @AfterEach
  void stop() throws Exception {
    b.close();
    a.close();
  }

  private List<URLItem> urls(int count) {
    List<URLItem> items = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      items.add(discovered("http://h" + (i % QUEUES) + ".test/" + i, "", crawl));
    }
    return items;
  }

  private GetParams all(int maxQueues) {
    return GetParams.newBuilder().setCrawlID(crawl).setMaxQueues(maxQueues)
        .setDelayRequestable(60).build();
  }

  @Test
  void putsThroughBothNodes_eachUrlAdmittedOnce_andHandedOutOnce() {
    List<AckMessage> first = a.put(urls(400));
    List<AckMessage> again = b.put(urls(400));

    assertThat(first).extracting(AckMessage::getStatus).containsOnly(Status.OK);
    assertThat(again).extracting(AckMessage::getStatus).as("the other node's Sieve is the same")
        .containsOnly(Status.SKIPPED);
    List<String> handedOut = new ArrayList<>();
    for (int round = 0; handedOut.size() < 400 && round < 100; round++) {
      handedOut.addAll((round % 2 == 0 ? a : b).get(all(7)));
    }
    assertThat(handedOut).hasSize(400).doesNotHaveDuplicates();
    assertThat(a.get(all(0))).as("all leased").isEmpty();
  }

  @Test
  void getUrls_overEveryQueue_keepsItsLimitsAcrossShards() {
    a.put(urls(400));

    assertThat(a.get(all(5))).as("5 queues at most, 10 URLs each").hasSize(50);
    List<String> capped = a.get(GetParams.newBuilder().setCrawlID(crawl)
        .setMaxUrlsPerQueue(1).setDelayRequestable(60).build());
    assertThat(capped).as("one URL from each queue with none in flight").hasSize(QUEUES - 5);
    assertThat(capped.stream().map(url -> url.substring(0, url.indexOf(".test"))).distinct())
        .hasSize(QUEUES - 5);
  }

  @Test
  void statsListsAndCounts_spanEveryShard() {
    a.put(urls(400));
    a.get(all(3));

    var stats = b.blocking.getStats(QueueWithinCrawlParams.newBuilder().setCrawlID(crawl).build());
    assertThat(stats.getSize()).isEqualTo(400);
    assertThat(stats.getInProcess()).isEqualTo(30);
    assertThat(stats.getNumberOfQueues()).isEqualTo(QUEUES);
    assertThat(b.blocking.listQueues(Pagination.newBuilder().setCrawlID(crawl).setSize(1000)
        .build()).getValuesList()).hasSize(QUEUES);
    Set<String> listed = new HashSet<>();
    for (int page = 0; page < 5; page++) {
      b.blocking.listURLs(ListUrlParams.newBuilder().setCrawlID(crawl).setStart(page * 100)
          .setSize(100).build())
          .forEachRemaining(item -> listed.add(item.getKnown().getInfo().getUrl()));
    }
    assertThat(listed).as("pages of ListURLs cover each URL once").hasSize(400);
    assertThat(b.blocking.countURLs(CountUrlParams.newBuilder().setCrawlID(crawl).setFilter("/1")
        .build()).getValue()).as("URLs /1, /10-/19, /100-/199").isEqualTo(111);
  }

  @Test
  void knownPuts_completeAndReschedule_inTheirOwnShard() {
    a.put(urls(80));
    List<String> leased = a.get(all(0));
    assertThat(leased).hasSize(80);

    List<URLItem> done = new ArrayList<>();
    for (String url : leased) {
      done.add(URLItem.newBuilder().setKnown(KnownURLItem.newBuilder()
          .setInfo(URLInfo.newBuilder().setUrl(url).setCrawlID(crawl))).build());
    }
    assertThat(b.put(done)).extracting(AckMessage::getStatus).containsOnly(Status.OK);

    var stats = a.blocking.getStats(QueueWithinCrawlParams.newBuilder().setCrawlID(crawl).build());
    assertThat(stats.getSize()).isZero();
    assertThat(stats.getCountsMap()).containsEntry("completed", 80L);
    URLItem status = b.blocking.getURLStatus(URLStatusRequest.newBuilder().setCrawlID(crawl)
        .setUrl(leased.get(0)).build());
    assertThat(status.getKnown().getRefetchableFromDate()).as("completed").isZero();
  }

  @Test
  void deleteCrawl_dropsEveryShard_andTheOtherNodePutsIntoAFreshCrawl() {
    a.put(urls(200));

    assertThat(b.blocking.deleteCrawl(DeleteCrawlMessage.newBuilder().setValue(crawl).build())
        .getValue()).isEqualTo(200);
    assertThat(a.put(urls(200))).extracting(AckMessage::getStatus).as("fresh Sieves")
        .containsOnly(Status.OK);
    assertThat(b.blocking.getStats(QueueWithinCrawlParams.newBuilder().setCrawlID(crawl).build())
        .getSize()).isEqualTo(200);
  }
}
