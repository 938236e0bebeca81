package dev.sieve.serve;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import crawlercommons.urlfrontier.Urlfrontier.AckMessage;
import crawlercommons.urlfrontier.Urlfrontier.DiscoveredURLItem;
import crawlercommons.urlfrontier.Urlfrontier.Pagination;
import crawlercommons.urlfrontier.Urlfrontier.StringList;
import crawlercommons.urlfrontier.Urlfrontier.URLInfo;
import crawlercommons.urlfrontier.Urlfrontier.URLItem;
import dev.sieve.serve.limits.ServeLimits;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** serve's limits against a real server: each refusal named, counted, and the service goes on. */
class ServeLimitsTest {
  private ServeFixture serve;

  @AfterEach
  void stop() throws Exception {
    if (serve != null) {
      serve.close();
    }
  }

  private ServeFixture start(ServeLimits.Builder limits) throws Exception {
    serve = new ServeFixture(ServeSettings.builder().limits(limits.build()));
    return serve;
  }

  @Test
  void putUrls_pastTheQueueLimit_endsTheStreamNamingIt_afterAckingThoseBefore() throws Exception {
    start(ServeLimits.builder().maxQueuesPerCrawl(3));
    List<URLItem> items = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      items.add(ServeFixture.discovered("http://h" + i + ".test/"));
    }

    assertThatThrownBy(() -> serve.put(items)).isInstanceOf(CompletionException.class)
        .hasMessageContaining("RESOURCE_EXHAUSTED")
        .hasMessageContaining("--max-queues-per-crawl (3)");

    assertThat(serve.stats("", "").getNumberOfQueues()).isEqualTo(3);
    assertThat(serve.stats("", "").getCountsMap())
        .containsEntry("service.limit.queues_per_crawl", 1L)
        .containsEntry("service.resource_exhausted", 1L);
    assertThat(serve.put(ServeFixture.discovered("http://h0.test/more")))
        .extracting(AckMessage::getStatus).as("an existing queue still takes URLs")
        .containsExactly(AckMessage.Status.OK);
  }

  @Test
  void putDiscovered_pastTheQueueLimit_endsTheStreamNamingIt() throws Exception {
    start(ServeLimits.builder().maxQueuesPerCrawl(3));
    FrontierClient.putDiscovered(serve.channel,
        List.of(FrontierClient.batch("1", "http://h0.test/", "http://h1.test/", "http://h2.test/")));

    assertThatThrownBy(() -> FrontierClient.putDiscovered(serve.channel,
        List.of(FrontierClient.batch("2", "http://h0.test/a", "http://h9.test/"))))
        .isInstanceOf(CompletionException.class).hasMessageContaining("RESOURCE_EXHAUSTED")
        .hasMessageContaining("--max-queues-per-crawl (3)");

    assertThat(serve.stats("", "").getNumberOfQueues()).as("the refused batch added nothing")
        .isEqualTo(3);
    assertThat(serve.stats("", "").getCountsMap())
        .containsEntry("service.limit.queues_per_crawl", 1L);
  }

  @Test
  void putUrls_pastTheCrawlLimit_isRefusedNamingIt() throws Exception {
    start(ServeLimits.builder().maxCrawls(1));
    serve.put(ServeFixture.discovered("http://a.test/"));

    assertThatThrownBy(() -> serve.put(ServeFixture.discovered("http://a.test/", "", "second")))
        .hasMessageContaining("RESOURCE_EXHAUSTED").hasMessageContaining("--max-crawls (1)");
  }

  @Test
  void metadata_withMoreEntriesThanTheLimit_isSkipped() throws Exception {
    start(ServeLimits.builder().maxMetadataEntries(2));
    URLItem item = URLItem.newBuilder().setDiscovered(DiscoveredURLItem.newBuilder().setInfo(
        URLInfo.newBuilder().setUrl("http://a.test/").putMetadata("k",
            StringList.newBuilder().addValues("1").addValues("2").addValues("3").build())))
        .build();

    assertThat(serve.put(item)).extracting(AckMessage::getStatus)
        .containsExactly(AckMessage.Status.SKIPPED);
    assertThat(serve.stats("", "").getCountsMap())
        .containsEntry("service.put.rejected.metadata_too_many_entries", 1L);
  }

  @Test
  void listQueues_withTheLargestSize_answersEveryQueue() throws Exception {
    start(ServeLimits.builder());
    serve.put(ServeFixture.discovered("http://a.test/"), ServeFixture.discovered("http://b.test/"));

    assertThat(serve.blocking.listQueues(Pagination.newBuilder().setSize(-1).build())
        .getValuesList()).containsExactly("a.test", "b.test");
    assertThat(serve.blocking.listQueues(Pagination.newBuilder().setStart(-1).setSize(-1).build())
        .getValuesList()).isEmpty();
  }

  @Test
  void settings_refuseAMessageLimitSmallerThanTheLargestItem() {
    assertThatThrownBy(() -> ServeSettings.builder()
        .limits(ServeLimits.builder().maxMessageBytes(10_000).build()).build())
        .hasMessageStartingWith("--max-message-bytes (10000) must hold the largest item");
  }
}
