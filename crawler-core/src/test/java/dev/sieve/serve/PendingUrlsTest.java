package dev.sieve.serve;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class PendingUrlsTest {
  private final PendingUrls pending = new PendingUrls();

  private static List<String> urls(List<PendingUrl> entries) {
    return entries.stream().map(entry -> entry.url).toList();
  }

  @Test
  void lease_urlsDueTheSameSecond_comeInUrlOrder_evenWhenAddedBetweenLeases() {
    for (String url : List.of("http://a.test/c", "http://a.test/a", "http://a.test/b")) {
      pending.add(new PendingUrl(url, 10, null));
    }
    assertThat(urls(pending.lease(10, 2, 40))).containsExactly("http://a.test/a", "http://a.test/b");
    pending.add(new PendingUrl("http://a.test/aa", 10, null));
    assertThat(urls(pending.lease(10, 5, 40))).containsExactly("http://a.test/aa", "http://a.test/c");
    assertThat(pending.inFlight()).isEqualTo(4);
  }

  @Test
  void lease_soonerDueFirst_andNothingNotYetDue() {
    pending.add(new PendingUrl("http://a.test/later", 20, null));
    pending.add(new PendingUrl("http://a.test/sooner", 10, null));
    assertThat(urls(pending.lease(15, 5, 40))).containsExactly("http://a.test/sooner");
    assertThat(urls(pending.lease(20, 5, 40))).containsExactly("http://a.test/later");
  }

  @Test
  void reschedule_ofALeasedUrl_leasedAgainUntilTheSameSecond_isPendingOnce() {
    pending.add(new PendingUrl("http://a.test/", 10, null));
    PendingUrl entry = pending.lease(10, 5, 40).get(0);
    pending.reschedule(entry, 10, null);
    assertThat(pending.lease(10, 5, 40)).hasSize(1);
    pending.releaseExpired(40);
    assertThat(pending.inFlight()).isZero();
    assertThat(urls(pending.lease(40, 5, 70))).containsExactly("http://a.test/");
    assertThat(pending.inOrder()).hasSize(1);
  }

  @Test
  void remove_ofWaitingAndLeasedUrls_leavesTheOthersInOrder() {
    for (int i = 0; i < 20; i++) {
      pending.add(new PendingUrl("http://a.test/" + (char) ('a' + i), 10, null));
    }
    pending.lease(10, 10, 40);
    for (int i = 0; i < 20; i += 2) {
      assertThat(pending.remove("http://a.test/" + (char) ('a' + i))).isTrue();
    }
    assertThat(pending.remove("http://a.test/a")).isFalse();
    assertThat(pending.size()).isEqualTo(10);
    assertThat(pending.inFlight()).isEqualTo(5);
    assertThat(urls(pending.inOrder())).containsExactly("http://a.test/l", "http://a.test/n",
        "http://a.test/p", "http://a.test/r", "http://a.test/t", "http://a.test/b",
        "http://a.test/d", "http://a.test/f", "http://a.test/h", "http://a.test/j");
    pending.releaseExpired(40);
    assertThat(urls(pending.lease(40, 3, 70))).containsExactly("http://a.test/b", "http://a.test/d",
        "http://a.test/f");
  }
}
