package dev.sieve.frontier.queue;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sieve.frontier.Sieve;
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
}
