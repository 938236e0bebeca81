package dev.sieve.frontier.queue;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sieve.frontier.Sieve;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A crawl's namespace on its own, where the service's races meet it. */
class CrawlSpaceTest {
  private final CrawlSpace crawl = new CrawlSpace("c", Sieve.create(1_000, 1e-6));

  @Test
  void put_afterTheCrawlWasDeleted_refusedSoTheCallerPutsIntoTheNewCrawl() {
    crawl.put("k", "http://a.test/1", true, 0, null, 1);

    assertThat(crawl.retire()).as("pending when deleted").isEqualTo(1);
    assertThat(crawl.put("k", "http://a.test/2", true, 0, null, 1)).isNull();
    assertThat(crawl.pending()).isEqualTo(1);
  }

  @Test
  void put_knownUnseenUrlWithoutDate_countsOneCompletionHoweverOftenSent() {
    assertThat(crawl.put("k", "http://a.test/", false, 0, null, 1)).isEqualTo(PutResult.COMPLETED);
    assertThat(crawl.put("k", "http://a.test/", false, 0, null, 1)).isEqualTo(PutResult.COMPLETED);

    assertThat(crawl.stats("k", 1).completed()).isEqualTo(1);
    assertThat(crawl.put("k", "http://a.test/", true, 0, null, 1)).isEqualTo(PutResult.SEEN);
  }

  @Test
  void drainedQueue_keepsNoUrlStrings() {
    for (int i = 0; i < 100; i++) {
      crawl.put("k", "http://a.test/" + i, true, 0, null, 1);
    }
    for (int i = 0; i < 100; i++) {
      crawl.put("k", "http://a.test/" + i, false, 0, null, 1);
    }

    assertThat(crawl.list(null, url -> true, 0, 1_000)).isEmpty();
    assertThat(crawl.status("k", "http://a.test/7")).get()
        .extracting(QueuedUrl::refetchFrom).as("completed, from the filter alone").isEqualTo(0L);
  }

  @Test
  void take_fromRelease_waitsTheDelayAfterALeaseWasGivenBack_notOnlyAfterItsProduction() {
    TakeLimits crawlLimits = new TakeLimits(1, 10, 1, Duration.ofMinutes(1), Duration.ofMillis(100),
        true);
    TakeLimits apiLimits = new TakeLimits(1, 10, 1, Duration.ofMinutes(1), Duration.ofMillis(100));
    crawl.put("k", "http://a.test/1", true, 0, null, 1_000);
    crawl.put("k", "http://a.test/2", true, 0, null, 1_000);
    List<QueuedUrl> out = new ArrayList<>();
    assertThat(crawl.take(null, crawlLimits, 1_000, out)).isOne();
    crawl.put("k", "http://a.test/1", false, 0, null, 1_080); // given back 80 ms after the lease

    assertThat(crawl.take(null, crawlLimits, 1_150, new ArrayList<>())).as("50 ms after the release").isZero();
    assertThat(crawl.take(null, apiLimits, 1_150, new ArrayList<>()))
        .as("GetURLs counts from the production").isOne();
    crawl.put("k", "http://a.test/3", true, 0, null, 1_150);
    assertThat(crawl.take(null, crawlLimits, 1_249, new ArrayList<>())).isZero();
    crawl.put("k", "http://a.test/2", false, 0, null, 1_150);
    assertThat(crawl.take(null, crawlLimits, 1_250, new ArrayList<>())).as("100 ms after").isOne();
  }
}
