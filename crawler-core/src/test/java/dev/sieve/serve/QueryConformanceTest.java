package dev.sieve.serve;

import static dev.sieve.serve.ServeFixture.discovered;
import static dev.sieve.serve.ServeFixture.known;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import crawlercommons.urlfrontier.Urlfrontier.BlockQueueParams;
import crawlercommons.urlfrontier.Urlfrontier.CountUrlParams;
import crawlercommons.urlfrontier.Urlfrontier.DeleteCrawlMessage;
import crawlercommons.urlfrontier.Urlfrontier.Empty;
import crawlercommons.urlfrontier.Urlfrontier.ListUrlParams;
import crawlercommons.urlfrontier.Urlfrontier.Local;
import crawlercommons.urlfrontier.Urlfrontier.LogLevelParams;
import crawlercommons.urlfrontier.Urlfrontier.Pagination;
import crawlercommons.urlfrontier.Urlfrontier.QueueList;
import crawlercommons.urlfrontier.Urlfrontier.QueueWithinCrawlParams;
import crawlercommons.urlfrontier.Urlfrontier.Stats;
import crawlercommons.urlfrontier.Urlfrontier.URLItem;
import crawlercommons.urlfrontier.Urlfrontier.URLStatusRequest;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/** The queue, crawl and URL query RPCs against a real server. */
@ParameterizedClass
@EnumSource(ServeFixture.Store.class)
class QueryConformanceTest {
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

  private void putHosts(int count) {
    List<URLItem> items = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      items.add(discovered(String.format("http://h%02d.test/", i)));
    }
    serve.put(items);
  }

  @Test
  void listQueues_pagesThroughEveryQueueInKeyOrder() {
    putHosts(25);

    QueueList page = serve.blocking.listQueues(
        Pagination.newBuilder().setStart(20).setSize(10).build());

    assertThat(page.getValuesList()).containsExactly("h20.test", "h21.test", "h22.test",
        "h23.test", "h24.test");
    assertThat(page.getTotal()).isEqualTo(25);
    assertThat(page.getStart()).isEqualTo(20);
    assertThat(page.getSize()).isEqualTo(5);
    assertThat(page.getCrawlID()).isEqualTo("DEFAULT");
    assertThat(serve.blocking.listQueues(Pagination.getDefaultInstance()).getValuesCount())
        .isEqualTo(25);
  }

  @Test
  void listQueues_inactiveOnlyWhenAsked() {
    serve.put(discovered("http://a.test/"), discovered("http://b.test/"), discovered("http://c.test/"));
    serve.put(known("http://a.test/", 0));
    serve.blocking.blockQueueUntil(BlockQueueParams.newBuilder().setKey("b.test")
        .setTime(serve.clock.now() + 10).build());

    assertThat(serve.blocking.listQueues(Pagination.getDefaultInstance()).getValuesList())
        .as("a.test is drained, b.test blocked").containsExactly("c.test");
    assertThat(serve.blocking.listQueues(Pagination.newBuilder().setIncludeInactive(true).build())
        .getValuesList()).containsExactly("a.test", "b.test", "c.test");
  }

  @Test
  void getStats_countsQueuesUrlsInFlightCompletedAndTheFilter() {
    serve.put(discovered("http://a.test/1"), discovered("http://a.test/2"), discovered("http://b.test/"));
    serve.put(known("http://b.test/", 0));
    serve.get(crawlercommons.urlfrontier.Urlfrontier.GetParams.newBuilder().setCrawlID("")
        .setKey("a.test").setMaxUrlsPerQueue(1).build());

    Stats stats = serve.stats("", "");

    assertThat(stats.getSize()).isEqualTo(2);
    assertThat(stats.getInProcess()).isEqualTo(1);
    assertThat(stats.getNumberOfQueues()).isEqualTo(2);
    assertThat(stats.getCrawlID()).isEqualTo("DEFAULT");
    assertThat(stats.getCountsMap()).containsEntry("completed", 1L)
        .containsEntry("active_queues", 1L)
        .containsEntry("filter.estimated_urls", 3L)
        .containsEntry("filter.target_fpp_ppb", 1000L)
        .containsKey("filter.estimated_fpp_ppb").containsKey("filter.bits");
    assertThat(serve.stats("b.test", "").getSize()).isZero();
    assertThat(serve.stats("b.test", "").getNumberOfQueues()).isEqualTo(1);
  }

  @Test
  void deleteQueue_returnsItsPendingUrlsAndRemovesIt() {
    serve.put(discovered("http://a.test/1"), discovered("http://a.test/2"));

    long deleted = serve.blocking.deleteQueue(
        QueueWithinCrawlParams.newBuilder().setKey("a.test").build()).getValue();

    assertThat(deleted).isEqualTo(2);
    assertThat(serve.stats("a.test", "").getNumberOfQueues()).isZero();
    assertThat(serve.blocking.deleteQueue(
        QueueWithinCrawlParams.newBuilder().setKey("a.test").build()).getValue()).isZero();
    assertThat(serve.blocking.listCrawls(Local.getDefaultInstance()).getValuesList())
        .as("a crawl without queues is not listed").isEmpty();
    assertThatThrownBy(() -> serve.blocking.deleteQueue(QueueWithinCrawlParams.getDefaultInstance()))
        .hasMessageContaining("INVALID_ARGUMENT");
  }

  @Test
  void crawls_areNamespacesEachWithItsOwnSieve() {
    serve.put(discovered("http://a.test/", "", "BESPOKE"), discovered("http://a.test/"),
        discovered("http://a.test/", "", "DEFAULT"));

    assertThat(serve.blocking.listCrawls(Local.getDefaultInstance()).getValuesList())
        .containsExactlyInAnyOrder("BESPOKE", "DEFAULT");
    assertThat(serve.stats("", "BESPOKE").getSize()).isEqualTo(1);
    assertThat(serve.stats("", "").getSize()).as("implicit and explicit default").isEqualTo(1);

    long removed = serve.blocking.deleteCrawl(
        DeleteCrawlMessage.newBuilder().setValue("BESPOKE").build()).getValue();

    assertThat(removed).isEqualTo(1);
    assertThat(serve.stats("", "BESPOKE").getSize()).isZero();
    assertThat(serve.stats("", "BESPOKE").getCrawlID()).isEqualTo("BESPOKE");
    assertThat(serve.blocking.listCrawls(Local.getDefaultInstance()).getValuesList())
        .containsExactly("DEFAULT");
    assertThat(serve.put(discovered("http://a.test/", "", "BESPOKE")).get(0).getStatus())
        .as("a fresh Sieve").isEqualTo(crawlercommons.urlfrontier.Urlfrontier.AckMessage.Status.OK);
  }

  @Test
  void listNodes_isThisServer_andSetLogLevelReachesTheBackend() {
    assertThat(serve.blocking.listNodes(Empty.getDefaultInstance()).getValuesList())
        .containsExactly("127.0.0.1:" + serve.server.port());

    serve.blocking.setLogLevel(LogLevelParams.newBuilder().setPackage("dev.sieve.serve")
        .setLevel(LogLevelParams.Level.DEBUG).build());

    assertThat(serve.logLevels).singleElement()
        .satisfies(call -> assertThat(call).containsExactly("dev.sieve.serve", "DEBUG"));
  }

  @Test
  void getUrlStatus_pendingCompletedUnknownAndMalformed() {
    long later = serve.clock.now() + 500;
    serve.put(known("http://a.test/later", later), discovered("http://a.test/done"));
    serve.put(known("http://a.test/done", 0));

    URLItem pending = serve.blocking.getURLStatus(
        URLStatusRequest.newBuilder().setUrl("http://a.test/later").build());
    URLItem done = serve.blocking.getURLStatus(
        URLStatusRequest.newBuilder().setUrl("http://a.test/done").setKey("a.test").build());

    assertThat(pending.getKnown().getRefetchableFromDate()).isEqualTo(later);
    assertThat(pending.getKnown().getInfo().getKey()).isEqualTo("a.test");
    assertThat(done.getKnown().getRefetchableFromDate()).as("completed").isZero();
    assertThatThrownBy(() -> serve.blocking.getURLStatus(
        URLStatusRequest.newBuilder().setUrl("http://a.test/never").build()))
        .hasMessageContaining("NOT_FOUND");
    assertThatThrownBy(() -> serve.blocking.getURLStatus(
        URLStatusRequest.newBuilder().setUrl("http://a.test/done").setCrawlID("other").build()))
        .hasMessageContaining("NOT_FOUND");
    assertThatThrownBy(() -> serve.blocking.getURLStatus(
        URLStatusRequest.newBuilder().setUrl("::not a url").build()))
        .hasMessageContaining("INVALID_ARGUMENT");
  }

  @Test
  void listUrls_pagesFiltersAndCountUrlsAgrees() {
    for (int i = 0; i < 12; i++) {
      serve.put(discovered("http://a.test/" + (i % 2 == 0 ? "Even/" : "odd/") + i));
    }
    List<String> page = new ArrayList<>();
    serve.blocking.listURLs(ListUrlParams.newBuilder().setKey("a.test").setStart(2).setSize(3)
        .setFilter("even").setIgnoreCase(true).build())
        .forEachRemaining(item -> page.add(item.getKnown().getInfo().getUrl()));

    assertThat(page).hasSize(3).allMatch(url -> url.contains("/Even/"));
    assertThat(serve.blocking.countURLs(CountUrlParams.newBuilder().setFilter("even")
        .setIgnoreCase(true).build()).getValue()).isEqualTo(6);
    assertThat(serve.blocking.countURLs(CountUrlParams.newBuilder().setFilter("even").build())
        .getValue()).as("case-sensitive").isZero();
    assertThat(serve.blocking.countURLs(CountUrlParams.newBuilder().setCrawlID("nope").build())
        .getValue()).isZero();
  }

  @Test
  void listUrls_andCountUrls_includeCompletedUrls_untilScheduledAgain() {
    long later = serve.clock.now() + 500;
    serve.put(discovered("http://a.test/done"), discovered("http://a.test/pending"),
        discovered("http://b.test/done"));
    serve.put(known("http://a.test/done", 0), known("http://c.test/never-pending", 0),
        known("http://b.test/done", 0), known("http://b.test/done", 0));

    assertThat(listAll("")).containsOnlyKeys("http://a.test/done", "http://a.test/pending",
        "http://b.test/done", "http://c.test/never-pending")
        .containsEntry("http://a.test/done", 0L).containsEntry("http://c.test/never-pending", 0L)
        .containsEntry("http://a.test/pending", serve.clock.now());
    assertThat(serve.blocking.countURLs(CountUrlParams.getDefaultInstance()).getValue())
        .isEqualTo(4);
    assertThat(serve.blocking.countURLs(CountUrlParams.newBuilder().setFilter("DONE")
        .setIgnoreCase(true).build()).getValue()).isEqualTo(2);

    serve.put(known("http://a.test/done", later));

    assertThat(listAll("")).as("listed once, as pending").hasSize(4)
        .containsEntry("http://a.test/done", later);
    assertThat(listAll("a.test")).containsOnlyKeys("http://a.test/done", "http://a.test/pending");
    assertThat(serve.blocking.countURLs(CountUrlParams.newBuilder().setKey("b.test").build())
        .getValue()).isEqualTo(1);
  }

  @Test
  void listUrls_pagesThroughCompletedAndPendingUrls_eachOnce() {
    List<URLItem> items = new ArrayList<>();
    for (int i = 0; i < 9; i++) {
      items.add(discovered("http://h" + (i % 3) + ".test/" + i));
    }
    serve.put(items);
    serve.put(known("http://h0.test/0", 0), known("http://h1.test/4", 0),
        known("http://h2.test/new-done", 0));
    List<String> all = urls(0, 100);

    List<String> paged = new ArrayList<>();
    for (int start = 0; start < 12; start += 5) {
      paged.addAll(urls(start, 5));
    }

    assertThat(all).hasSize(10).doesNotHaveDuplicates();
    assertThat(paged).containsExactlyElementsOf(all);
    assertThat(urls(10, 5)).isEmpty();
  }

  private List<String> urls(long start, int size) {
    List<String> out = new ArrayList<>();
    serve.blocking.listURLs(ListUrlParams.newBuilder().setStart((int) start).setSize(size).build())
        .forEachRemaining(item -> out.add(item.getKnown().getInfo().getUrl()));
    return out;
  }

  /** URL to refetch date of every URL ListURLs hands out for queue {@code key} ('' for all). */
  private Map<String, Long> listAll(String key) {
    Map<String, Long> out = new HashMap<>();
    serve.blocking.listURLs(ListUrlParams.newBuilder().setKey(key).setSize(1000).build())
        .forEachRemaining(item -> assertThat(out.put(item.getKnown().getInfo().getUrl(),
            item.getKnown().getRefetchableFromDate())).as("listed once").isNull());
    return out;
  }
}
