package dev.sieve.crawl;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class CrawlStatsTest {

  @Test
  void linkFates_savedInTheCheckpointCountersAndAddedBackOnResume() {
    LinkCounts.Tally page = new LinkCounts.Tally();
    page.add(LinkFate.NEW, 3);
    page.add(LinkFate.SEEN, 5);
    page.add(LinkFate.QUERY_TRAP);
    CrawlStats before = new CrawlStats();
    before.links(page.counts());

    CrawlStats resumed = new CrawlStats();
    resumed.add(before.toMap());
    resumed.links(page.counts());

    assertThat(before.toMap()).containsEntry("link.new", 3L).containsEntry("link.query-trap", 1L);
    assertThat(resumed.linkFates()).containsExactly(Map.entry("found", 18L),
        Map.entry("new", 6L), Map.entry("seen", 10L), Map.entry("query-trap", 2L));
  }
}
