package dev.sieve.crawl;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sieve.url.Url;
import java.time.Duration;
import java.util.List;

/** Runs crawls for tests on loopback, keeping what they report. */
final class RecordedCrawl {
  private RecordedCrawl() {}

  /** Settings for a quick loopback crawl from {@code seed}: 4 threads, no politeness delay. */
  static CrawlConfig.Builder defaults(String seed) {
    return CrawlConfig.builder()
        .seeds(List.of(Url.parse(seed).orElseThrow()))
        .threads(4)
        .politenessDelay(Duration.ZERO)
        .maxInFlightPerHost(1)
        .expectedUrls(10_000)
        .fetch(f -> f.retryBackoff(Duration.ofMillis(10)));
  }

  /**
   * Runs {@code config} to its end, adding each record and each skipped host to the lists, and
   * checks that every URL was recorded once and counted.
   */
  static CrawlProgress run(CrawlConfig config, List<PageRecord> records, List<String> skippedHosts)
      throws InterruptedException {
    CrawlProgress summary = Crawler.open(config, new CrawlListener() {
      @Override
      public void onPage(PageRecord record) {
        records.add(record);
      }

      @Override
      public void onHostSkipped(String host, String reason) {
        skippedHosts.add(host);
      }
    }).run();
    assertThat(summary.pages()).isEqualTo(records.size());
    assertThat(records.stream().map(PageRecord::url).distinct().count()).isEqualTo(records.size());
    return summary;
  }
}
