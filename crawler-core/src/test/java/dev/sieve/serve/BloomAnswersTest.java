package dev.sieve.serve;

import static dev.sieve.serve.FrontierClient.discovered;
import static org.assertj.core.api.Assertions.assertThat;

import crawlercommons.urlfrontier.Urlfrontier.AckMessage;
import crawlercommons.urlfrontier.Urlfrontier.URLItem;
import crawlercommons.urlfrontier.Urlfrontier.URLStatusRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The answers docs/serve.md says a Bloom filter changes, shown on a Sieve sized far under its URLs
 * at a loose rate so that false positives happen: a new URL dropped as seen, and read as completed.
 */
@ParameterizedClass
@EnumSource(ServeFixture.Store.class)
class BloomAnswersTest {
  private static final int URLS = 5_000;

  @Parameter ServeFixture.Store store;

  @Test
  void discoveredNewUrls_fewDroppedAsSeen_andThoseReadAsCompleted() throws Exception {
    try (ServeFixture serve = new ServeFixture(store,
        ServeSettings.builder().expectedUrls(200).falsePositiveRate(0.02))) {
      List<URLItem> items = new ArrayList<>();
      for (int i = 0; i < URLS; i++) {
        items.add(discovered("http://h" + (i % 50) + ".test/page/" + i));
      }

      List<AckMessage> acks = serve.put(items);

      List<String> dropped = acks.stream().filter(a -> a.getStatus() == AckMessage.Status.SKIPPED)
          .map(AckMessage::getID).toList();
      assertThat(dropped).as("false positives at a rate of at most 2%").isNotEmpty()
          .hasSizeLessThan(URLS * 2 / 100);
      Map<String, Long> counts = serve.stats("", "").getCountsMap();
      assertThat(counts).containsEntry("crawl.put.discovered.seen", (long) dropped.size())
          .containsEntry("filter.target_fpp_ppb", 20_000_000L);
      assertThat(counts.get("filter.layers")).as("grew past 200").isGreaterThan(1L);
      assertThat(counts.get("filter.estimated_urls")).isBetween(URLS * 95L / 100, URLS * 105L / 100);
      String first = dropped.get(0);
      assertThat(serve.blocking.getURLStatus(URLStatusRequest.newBuilder().setUrl(first).build())
          .getKnown().getRefetchableFromDate()).as("a dropped URL reads as completed").isZero();
    }
  }
}
