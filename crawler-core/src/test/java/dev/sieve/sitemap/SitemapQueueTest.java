package dev.sieve.sitemap;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sieve.sitemap.SitemapQueue.Offer;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SitemapQueueTest {
  private static final String A = "http://a.example";
  private static final String B = "http://b.example";

  @Test
  void eachSitemapQueuedOnce_inTheOrderFound_perAuthority() {
    SitemapQueue queue = new SitemapQueue(10);

    assertThat(queue.offer(A, A + "/1.xml")).isEqualTo(Offer.QUEUED);
    assertThat(queue.offer(A, A + "/2.xml")).isEqualTo(Offer.QUEUED);
    assertThat(queue.offer(B, B + "/1.xml")).isEqualTo(Offer.QUEUED);
    assertThat(queue.next(A)).isEqualTo(A + "/1.xml");
    assertThat(queue.offer(A, A + "/1.xml")).as("fetched already").isEqualTo(Offer.KNOWN);
    assertThat(queue.offer(A, A + "/2.xml")).as("still queued").isEqualTo(Offer.KNOWN);
    assertThat(queue.next(A)).isEqualTo(A + "/2.xml");
    assertThat(queue.next(A)).isNull();
    assertThat(queue.next("http://unknown.example")).isNull();
    assertThat(queue.waiting()).isEqualTo(Map.of(B, 1));
  }

  @Test
  void pastTheCapPerAuthority_refused_otherAuthoritiesUnaffected() {
    SitemapQueue queue = new SitemapQueue(2);

    queue.offer(A, A + "/1.xml");
    queue.next(A);
    queue.offer(A, A + "/2.xml");

    assertThat(queue.offer(A, A + "/3.xml")).isEqualTo(Offer.OVER_CAP);
    assertThat(queue.offer(B, B + "/1.xml")).isEqualTo(Offer.QUEUED);
    assertThat(new SitemapQueue(0).offer(A, A + "/1.xml")).isEqualTo(Offer.OVER_CAP);
  }
}
