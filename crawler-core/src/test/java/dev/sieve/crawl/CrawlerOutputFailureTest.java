package dev.sieve.crawl;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sieve.testing.TestSite;
import dev.sieve.url.Url;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A listener that cannot store a record (a full disk) stops the crawl with the reason, and the
 * URLs whose records were not stored are crawled again on resume: one record per URL, exact counts.
 */
class CrawlerOutputFailureTest {
  @TempDir Path state;

  @Test
  void run_listenerFailsToStore_stopsWithTheReasonAndResumeRecordsTheRestOnce() throws Exception {
    try (TestSite site = TestSite.start(300)) {
      List<PageRecord> stored = new CopyOnWriteArrayList<>();
      AtomicInteger room = new AtomicInteger(40);
      Crawler first = Crawler.open(config(site), new CrawlListener() {
        @Override
        public void onPage(PageRecord record) {
          if (room.getAndDecrement() <= 0) {
            throw new UncheckedIOException("cannot write out.jsonl: No space left on device",
                new IOException("No space left on device"));
          }
          stored.add(record);
        }
      });
      CrawlProgress stopped = first.run();

      assertThat(first.failure()).contains("cannot write out.jsonl: No space left on device");
      assertThat(stored).hasSize(40);
      assertThat(stopped.pages()).isEqualTo(40);

      resumeAndCheck(site, stored);
    }
  }

  @Test
  void run_crashBetweenRecordAndCompletion_resumeCountsTheRecordAndDoesNotRecordItAgain() throws Exception {
    try (TestSite site = TestSite.start(300)) {
      List<PageRecord> stored = new CopyOnWriteArrayList<>();
      AtomicInteger left = new AtomicInteger(25);
      Crawler first = Crawler.open(config(site), new CrawlListener() {
        @Override
        public void onPage(PageRecord record) {
          stored.add(record);
          if (left.decrementAndGet() == 0) {
            // Stored, then the process "dies" before the URL is journaled done.
            throw new UncheckedIOException("simulated crash", new IOException("simulated crash"));
          }
        }
      });
      first.run();
      String inFlight = stored.get(stored.size() - 1).url();

      resumeAndCheck(site, stored);
      assertThat(stored.stream().filter(r -> r.url().equals(inFlight))).hasSize(1);
    }
  }

  /** Resumes with a listener that knows what was stored; checks one record per URL, exact counts. */
  private void resumeAndCheck(TestSite site, List<PageRecord> stored) throws InterruptedException {
    Crawler resumed = Crawler.open(config(site), new CrawlListener() {
      @Override
      public void onPage(PageRecord record) {
        stored.add(record);
      }

      @Override
      public Map<String, PageRecord> recordedBefore(Set<String> urls) {
        Map<String, PageRecord> found = new java.util.HashMap<>();
        stored.stream().filter(r -> urls.contains(r.url())).forEach(r -> found.put(r.url(), r));
        return found;
      }
    });
    CrawlProgress done = resumed.run();

    assertThat(resumed.failure()).isEmpty();
    List<String> urls = stored.stream().map(PageRecord::url).toList();
    assertThat(urls).doesNotHaveDuplicates().hasSize(site.reachablePaths(Integer.MAX_VALUE).size());
    assertThat(done.pages()).isEqualTo(stored.size());
    assertThat(done.newLinks()).isEqualTo(stored.stream().mapToLong(PageRecord::newLinks).sum());
    assertThat(done.bytes()).isEqualTo(stored.stream().mapToLong(PageRecord::bytes).sum());
  }

  private CrawlConfig config(TestSite site) {
    return CrawlConfig.builder()
        .seeds(List.of(Url.parse(site.url("/p/0.html")).orElseThrow()))
        .threads(4)
        .politenessDelay(Duration.ZERO)
        .maxInFlightPerHost(4)
        .expectedUrls(10_000)
        .stateDir(state)
        .diskReserveBytes(0)
        .build();
  }
}
