package dev.sieve.frontier.queue;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sieve.frontier.Sieve;
import dev.sieve.frontier.spill.PendingStore;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A crawl's listing: completed URLs from its log, then pending ones, page by page. */
class CompletedListingTest {
  @TempDir Path dir;

  private CrawlSpace crawl() {
    Sieve sieve = Sieve.create(10_000, 1e-6);
    return new CrawlSpace("c", sieve, 0, SeenKeys.of(sieve), PendingStore.inMemory(),
        CompletedLog.open(dir.resolve("completed-1.log"), 0));
  }

  private static List<String> listAll(CrawlSpace crawl, String key, int page) {
    ListCursor cursor = new ListCursor(key, "", false, 0);
    List<String> out = new ArrayList<>();
    while (!cursor.done()) {
      crawl.listNext(cursor, page, Long.MAX_VALUE)
          .forEach(url -> out.add(url.url() + (url.refetchFrom() == 0 ? " done" : "")));
    }
    return out;
  }

  @Test
  void listing_completedThenPending_eachOnce_acrossPages() {
    CrawlSpace crawl = crawl();
    for (int i = 0; i < 10; i++) {
      crawl.put("k" + (i % 2), "http://a.test/" + i, true, 0, null, 100 + i);
    }
    crawl.put("k0", "http://a.test/0", false, 0, null, 200); // completed from pending
    crawl.put("k1", "http://a.test/new", false, 0, null, 200); // completed, never pending
    crawl.put("k0", "http://a.test/2", false, 0, null, 200);
    crawl.put("k0", "http://a.test/2", false, 500, null, 200); // put again: pending, not done
    crawl.put("k0", "http://a.test/2", false, 0, null, 600); // done again: logged once

    List<String> listed = listAll(crawl, null, 3);

    assertThat(listed).containsExactly("http://a.test/0 done", "http://a.test/new done",
        "http://a.test/2 done", "http://a.test/4", "http://a.test/6", "http://a.test/8",
        "http://a.test/1", "http://a.test/3", "http://a.test/5", "http://a.test/7",
        "http://a.test/9");
    assertThat(crawl.count(null, "", false)).isEqualTo(listed.size());
    assertThat(listAll(crawl, "k1", 1)).containsExactly("http://a.test/new done",
        "http://a.test/1", "http://a.test/3", "http://a.test/5", "http://a.test/7",
        "http://a.test/9");
  }

  @Test
  void listing_leavesOutCompletedUrlsOfADeletedQueue_andStartsAtItsPosition() {
    CrawlSpace crawl = crawl();
    crawl.put("gone", "http://a.test/g", false, 0, null, 1);
    crawl.put("kept", "http://a.test/k", false, 0, null, 1);
    crawl.put("kept", "http://a.test/p", true, 0, null, 1);
    crawl.deleteQueue("gone");
    crawl.put("gone", "http://a.test/again", true, 0, null, 2);

    assertThat(listAll(crawl, null, 10)).containsExactly("http://a.test/k done",
        "http://a.test/again", "http://a.test/p");
    ListCursor fromOne = new ListCursor(null, "", false, 1);
    assertThat(crawl.listNext(fromOne, 10, Long.MAX_VALUE)).extracting(QueuedUrl::url)
        .containsExactly("http://a.test/again", "http://a.test/p");
  }
}
