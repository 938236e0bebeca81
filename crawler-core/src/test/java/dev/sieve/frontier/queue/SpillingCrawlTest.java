package dev.sieve.frontier.queue;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sieve.frontier.Sieve;
import dev.sieve.frontier.spill.PendingStore;
import java.time.Duration;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A crawl whose fresh URLs are over its memory budget, so most of them live in spill segments. */
class SpillingCrawlTest {
  private static final int URLS = 6_000;
  private static final TakeLimits ALL =
      new TakeLimits(Integer.MAX_VALUE, Integer.MAX_VALUE, 100_000, Duration.ofMillis(100_000),
          Duration.ZERO);

  @TempDir Path dir;

  private CrawlSpace crawl(long budget) {
    Sieve sieve = Sieve.create(100_000, 1e-6);
    return new CrawlSpace("c", sieve, 0, SeenKeys.of(sieve),
        PendingStore.spilling(dir.resolve("spill"), budget, 1 << 16));
  }

  private static String url(int i) {
    return "http://h" + (i % 3) + ".test/page/" + i + ".html";
  }

  private static String key(int i) {
    return "h" + (i % 3) + ".test";
  }

  private static CrawlSpace filled(CrawlSpace crawl) {
    for (int i = 0; i < URLS; i++) {
      assertThat(crawl.put(key(i), url(i), true, 0, null, 100 + i / 1000))
          .isEqualTo(PutResult.CREATED);
    }
    return crawl;
  }

  private static List<QueuedUrl> takeAll(CrawlSpace crawl, long now) {
    List<QueuedUrl> out = new ArrayList<>();
    crawl.take(null, ALL, now, out);
    return out;
  }

  @Test
  void take_overBudget_spillsAndHandsOutEveryUrlExactlyOnce() {
    CrawlSpace crawl = filled(crawl(4_096));

    assertThat(crawl.spilledBytes()).as("spilled").isPositive();
    assertThat(crawl.pending()).isEqualTo(URLS);
    List<QueuedUrl> taken = takeAll(crawl, 1_000);
    Set<String> distinct = new HashSet<>();
    taken.forEach(url -> distinct.add(url.url()));
    assertThat(taken).hasSize(URLS);
    assertThat(distinct).hasSize(URLS);
    assertThat(takeAll(crawl, 1_000)).as("all leased").isEmpty();
    for (QueuedUrl url : taken) {
      assertThat(crawl.put(url.key(), url.url(), false, 0, null, 1_001))
          .isEqualTo(PutResult.COMPLETED);
    }
    assertThat(crawl.pending()).isZero();
    assertThat(crawl.stats(null, 1_001).completed()).isEqualTo(URLS);
    assertThat(crawl.spilledBytes()).as("segments released once read").isLessThan(1 << 17);
  }

  @Test
  void take_sameSecondUrls_comeInUrlOrderWhateverTheirPutOrder() {
    CrawlSpace crawl = crawl(4_096);
    for (String path : List.of("c", "a", "b")) {
      crawl.put("k", "http://a.test/" + path, true, 0, null, 10);
    }
    crawl.put("k", "http://a.test/0", true, 0, null, 11);

    assertThat(takeAll(crawl, 20)).extracting(QueuedUrl::url).containsExactly(
        "http://a.test/a", "http://a.test/b", "http://a.test/c", "http://a.test/0");
  }

  @Test
  void completeOrReschedule_ofASpilledUrlNotYetHandedOut_dropsItsSpilledCopy() {
    CrawlSpace crawl = filled(crawl(4_096));
    String completed = url(3_000);
    String rescheduled = url(3_001);

    assertThat(crawl.status(key(3_000), completed)).get()
        .extracting(QueuedUrl::refetchFrom).as("pending, read back from the spill").isEqualTo(103L);
    crawl.put(key(3_000), completed, false, 0, null, 500);
    crawl.put(key(3_001), rescheduled, false, 5_000, null, 500);

    assertThat(crawl.pending()).isEqualTo(URLS - 1);
    assertThat(crawl.status(key(3_000), completed)).get()
        .extracting(QueuedUrl::refetchFrom).as("completed").isEqualTo(0L);
    List<String> now = takeAll(crawl, 1_000).stream().map(QueuedUrl::url).toList();
    assertThat(now).hasSize(URLS - 2).doesNotContain(completed, rescheduled);
    assertThat(takeAll(crawl, 5_000)).extracting(QueuedUrl::url).containsExactly(rescheduled);
  }

  @Test
  void list_andCount_seeSpilledUrls() {
    CrawlSpace crawl = filled(crawl(4_096));

    assertThat(crawl.count(null, "/page/59", false)).isEqualTo(111);
    assertThat(crawl.list(key(0), "", false, 0, 3)).extracting(QueuedUrl::url)
        .as("due first, then by URL").containsExactly(url(0), url(102), url(105));
    assertThat(crawl.list(null, "/page/5999.", false, 0, 10)).extracting(QueuedUrl::url)
        .containsExactly(url(5_999));
  }

  @Test
  void deleteQueue_releasesItsSpilledUrls() {
    CrawlSpace crawl = filled(crawl(4_096));

    assertThat(crawl.deleteQueue(key(0)) + crawl.deleteQueue(key(1)) + crawl.deleteQueue(key(2)))
        .isEqualTo(URLS);
    assertThat(crawl.pending()).isZero();
    assertThat(crawl.spilledBytes()).isLessThan(1 << 17);
  }
}
