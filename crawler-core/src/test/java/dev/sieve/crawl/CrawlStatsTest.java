package dev.sieve.crawl;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class CrawlStatsTest {

  @Test
  void linkFates_countedByNameAndAddedBackOnResume() {
    Map<String, Long> page = Map.of("link.new", 3L, "link.seen", 5L, "link.query-trap", 1L);
    CrawlStats resumed = new CrawlStats();
    resumed.add(page);
    resumed.add(page);

    assertThat(resumed.linkFates()).containsExactly(Map.entry("found", 18L),
        Map.entry("new", 6L), Map.entry("seen", 10L), Map.entry("query-trap", 2L));
  }
}
