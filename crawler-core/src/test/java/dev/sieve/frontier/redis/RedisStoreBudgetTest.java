package dev.sieve.frontier.redis;

import static dev.sieve.frontier.queue.PutResult.COMPLETED;
import static dev.sieve.frontier.queue.PutResult.CREATED;
import static dev.sieve.frontier.queue.PutResult.OVER_BUDGET;
import static dev.sieve.frontier.queue.PutResult.SCHEDULED;
import static dev.sieve.frontier.queue.PutResult.SEEN;
import static dev.sieve.frontier.queue.PutResult.SKIPPED;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sieve.frontier.queue.CrawlStore;
import dev.sieve.frontier.queue.FrontierStore;
import dev.sieve.frontier.queue.PutResult;
import dev.sieve.frontier.queue.QueueSettings;
import dev.sieve.frontier.queue.QueueStats;
import dev.sieve.frontier.queue.QueuedUrl;
import dev.sieve.frontier.queue.TakeLimits;
import dev.sieve.frontier.queue.UrlPut;
import dev.sieve.testing.RedisServers;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A Redis crawl's queue budget and skipped queues (a real redis-server): a discovered URL never
 * seen is refused once its queue holds the budget's URLs, pending or completed, or once the queue
 * was skipped, which dropped its waiting URLs (its leased ones are left to their holders); a known
 * URL still applies. Each test
 * has a crawl of its own.
 */
class RedisStoreBudgetTest {
  private static final long NOW = 1_800_000_000_000L; // epoch milliseconds
  private static final TakeLimits TAKE_TWO =
      new TakeLimits(2, 1, 2, Duration.ofMinutes(1), Duration.ZERO);
  private static RedisServers redis;
  private static FrontierStore store;

  @BeforeAll
  static void start() throws IOException {
    redis = RedisServers.standalone();
    store = RedisStore.open(redis.uri(),
        new QueueSettings(100_000, 0.001, Duration.ZERO, 1 << 20, null, null), 2);
  }

  @AfterAll
  static void stop() {
    Optional.ofNullable(store).ifPresent(FrontierStore::close);
    Optional.ofNullable(redis).ifPresent(RedisServers::close);
  }

  private record Put(String key, String url, boolean discovered, long refetchFrom,
      byte[] metadata) implements UrlPut {}

  private static Put discovered(String key, int n) {
    return new Put(key, "http://" + key + "/" + n, true, 0, null);
  }

  private static Put known(String key, int n, long refetchFrom) {
    return new Put(key, "http://" + key + "/" + n, false, refetchFrom, null);
  }

  @Test
  void budgetOfThree_fiveDiscoveredInOneQueue_createsThree_thenRefusesTwo_andCountsThem() {
    CrawlStore crawl = store.getOrCreate("budget");
    List<Put> batch = new ArrayList<>();
    for (int n = 0; n < 5; n++) {
      batch.add(discovered("a.test", n));
      batch.add(discovered("b.test", n)); // another queue, its own budget
    }

    PutResult[] results = crawl.putAll(batch, 3, NOW);

    assertThat(results).containsExactly(CREATED, CREATED, CREATED, CREATED, CREATED, CREATED,
        OVER_BUDGET, OVER_BUDGET, OVER_BUDGET, OVER_BUDGET);
    assertThat(crawl.counters()).containsEntry("put.discovered.created", 6L)
        .containsEntry("put.discovered.over_budget", 4L)
        .doesNotContainKey("put.discovered.skipped");
    assertThat(crawl.stats("a.test", NOW).size()).isEqualTo(3);
    assertThat(crawl.stats(null, NOW)).isEqualTo(new QueueStats(6, 0, 2, 2, 0));
    assertThat(crawl.put("a.test", "http://a.test/new", true, 0, null, 3, NOW))
        .as("a later batch").isEqualTo(OVER_BUDGET);
    assertThat(crawl.put("a.test", "http://a.test/other", true, 0, null, 4, NOW))
        .as("a larger budget").isEqualTo(CREATED);
  }

  @Test
  void refusedUrl_putAgain_isSeen_evenWithoutABudget() {
    CrawlStore crawl = store.getOrCreate("again");
    crawl.putAll(List.of(discovered("a.test", 0), discovered("a.test", 1)), 1, NOW);

    assertThat(crawl.putAll(List.of(discovered("a.test", 1)), NOW)).containsExactly(SEEN);
    assertThat(crawl.put("a.test", "http://a.test/1", true, 0, null, 5, NOW)).isEqualTo(SEEN);
    assertThat(crawl.status("a.test", "http://a.test/1")).get()
        .extracting(QueuedUrl::refetchFrom).as("seen, not pending").isEqualTo(0L);
    assertThat(crawl.counters()).containsEntry("put.discovered.over_budget", 1L)
        .containsEntry("put.discovered.seen", 2L);
  }

  @Test
  void completedUrls_countTowardTheBudget_alsoThoseCompletedEarlierInTheBatch() {
    CrawlStore crawl = store.getOrCreate("completed");
    crawl.putAll(List.of(discovered("a.test", 0), discovered("a.test", 1)), NOW);
    crawl.put("a.test", "http://a.test/0", false, 0, null, NOW); // pending -> completed

    assertThat(crawl.putAll(List.of(discovered("a.test", 2), known("a.test", 3, 0),
        discovered("a.test", 4)), 4, NOW))
        .as("1 pending + 1 completed, a new one, then a URL never seen completed: 4")
        .containsExactly(CREATED, COMPLETED, OVER_BUDGET);
    assertThat(crawl.stats("a.test", NOW)).isEqualTo(new QueueStats(2, 0, 1, 1, 2));
    assertThat(crawl.putAll(List.of(discovered("a.test", 5), known("a.test", 6, NOW),
        discovered("a.test", 7)), 6, NOW))
        .as("4, a new one, then a known URL never seen scheduled: 6")
        .containsExactly(CREATED, SCHEDULED, OVER_BUDGET);
    assertThat(crawl.counters()).containsEntry("put.discovered.over_budget", 2L);
  }

  @Test
  void skip_dropsWaitingUrls_leavesLeasedOnes_countsThem_andRefusesLaterDiscoveredUrls() {
    CrawlStore crawl = store.getOrCreate("skip");
    List<Put> batch = new ArrayList<>();
    for (int n = 0; n < 5; n++) {
      batch.add(discovered("a.test", n));
    }
    batch.add(discovered("b.test", 0));
    crawl.putAll(batch, NOW);
    crawl.put("a.test", "http://a.test/0", false, 0, null, NOW); // completed: kept
    List<QueuedUrl> leased = new ArrayList<>();
    crawl.take("a.test", TAKE_TWO, NOW, leased);
    assertThat(leased).hasSize(2);

    assertThat(crawl.control("a.test", CrawlStore.SKIP, 0)).isTrue();

    assertThat(crawl.stats("a.test", NOW)).isEqualTo(new QueueStats(2, 2, 1, 1, 1));
    assertThat(crawl.stats(null, NOW)).isEqualTo(new QueueStats(3, 2, 2, 2, 1));
    assertThat(crawl.list("a.test", "", false, 0, 10)).extracting(QueuedUrl::url)
        .containsExactlyInAnyOrder("http://a.test/0", "http://a.test/1", "http://a.test/2");
    assertThat(crawl.counters()).containsEntry(CrawlStore.SKIPPED_DROPPED, 2L);
    assertThat(crawl.take("", TAKE_TWO, NOW + 1, new ArrayList<>())).isEqualTo(1); // b.test
    assertThat(crawl.putAll(List.of(discovered("a.test", 9), discovered("a.test", 1),
        known("a.test", 2, NOW + 5), known("a.test", 3, 0), discovered("b.test", 1)), NOW))
        .containsExactly(SKIPPED, SEEN, SCHEDULED, COMPLETED, CREATED);
    assertThat(crawl.counters()).containsEntry("put.discovered.skipped", 1L)
        .containsEntry(CrawlStore.SKIPPED_DROPPED, 2L);
    // a.test/3 was seen and not pending: completing it again counts no new completion; /1 is
    // still leased, /2 due again.
    assertThat(crawl.stats("a.test", NOW)).isEqualTo(new QueueStats(2, 1, 1, 1, 1));
    List<QueuedUrl> again = new ArrayList<>();
    crawl.take("a.test", TAKE_TWO, NOW + 5, again);
    assertThat(again).extracting(QueuedUrl::url).containsExactly("http://a.test/2");
    assertThat(crawl.putAll(List.of(discovered("a.test", 10)), 100, NOW))
        .as("skipped for good").containsExactly(SKIPPED);
  }

  @Test
  void skip_ofAQueueThatDoesNotExist_isFalse_andCreatesNone() {
    CrawlStore crawl = store.getOrCreate("missing");

    assertThat(crawl.control("nowhere.test", CrawlStore.SKIP, 0)).isFalse();

    assertThat(crawl.hasQueue("nowhere.test")).isFalse();
    assertThat(crawl.put("nowhere.test", "http://nowhere.test/", true, 0, null, NOW))
        .isEqualTo(CREATED);
  }

  @Test
  void skip_ofAnEmptyQueue_dropsNone_andTheTotalsStayRight() {
    CrawlStore crawl = store.getOrCreate("empty");
    crawl.put("a.test", "http://a.test/0", true, 0, null, NOW);
    crawl.put("a.test", "http://a.test/0", false, 0, null, NOW);
    crawl.put("b.test", "http://b.test/0", true, 0, null, NOW);

    assertThat(crawl.control("a.test", CrawlStore.SKIP, 0)).isTrue();
    assertThat(crawl.control("a.test", CrawlStore.SKIP, 0)).as("again").isTrue();

    assertThat(crawl.counters()).doesNotContainKey(CrawlStore.SKIPPED_DROPPED);
    assertThat(crawl.stats(null, NOW)).isEqualTo(new QueueStats(1, 0, 2, 1, 1));
    assertThat(crawl.put("a.test", "http://a.test/1", true, 0, null, NOW)).isEqualTo(SKIPPED);
  }

  @Test
  void deleteQueue_ofASkippedQueue_removesTheMark_withTheQueue() {
    CrawlStore crawl = store.getOrCreate("deleted");
    crawl.putAll(List.of(discovered("a.test", 0), discovered("a.test", 1)), NOW);
    crawl.take("a.test", TAKE_TWO, NOW, new ArrayList<>());
    crawl.control("a.test", CrawlStore.SKIP, 0);

    assertThat(crawl.deleteQueue("a.test")).as("the two leased").isEqualTo(2);

    assertThat(crawl.stats(null, NOW)).isEqualTo(QueueStats.NONE);
    assertThat(crawl.put("a.test", "http://a.test/2", true, 0, null, NOW)).isEqualTo(CREATED);
  }

  @Test
  void purge_stillDropsOnlyUrlsCreatedBeforeTheCutoff_leasedOrNot() {
    CrawlStore crawl = store.getOrCreate("purge");
    crawl.putAll(List.of(discovered("a.test", 0), discovered("a.test", 1)), NOW);
    crawl.take("a.test", new TakeLimits(1, 1, 1, Duration.ofMinutes(1), Duration.ZERO), NOW,
        new ArrayList<>());
    crawl.put("a.test", "http://a.test/2", true, 0, null, NOW + 10);

    assertThat(crawl.purge("a.test", NOW + 1)).isEqualTo(2);

    assertThat(crawl.list("a.test", "", false, 0, 10)).extracting(QueuedUrl::url)
        .containsExactly("http://a.test/2");
    assertThat(crawl.stats(null, NOW + 10)).isEqualTo(new QueueStats(1, 0, 1, 1, 0));
  }
}
