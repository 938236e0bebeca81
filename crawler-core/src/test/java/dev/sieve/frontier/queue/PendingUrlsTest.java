package dev.sieve.frontier.queue;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeSet;
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

  @Test
  void lease_afterRandomAddsRemovalsAndReschedules_comesInDueThenUrlOrder() {
    SplittableRandom random = new SplittableRandom(7);
    TreeSet<PendingUrl> model = new TreeSet<>(PendingUrl.BY_DUE);
    for (int i = 0; i < 20_000; i++) {
      String url = "http://a.test/" + random.nextInt(3_000);
      PendingUrl entry = pending.get(url);
      int op = random.nextInt(3);
      if (entry == null) {
        entry = new PendingUrl(url, random.nextInt(50), null);
        pending.add(entry);
        model.add(entry);
      } else if (op == 1) {
        model.remove(entry);
        pending.remove(url);
      } else if (op == 2) {
        model.remove(entry);
        pending.reschedule(entry, random.nextInt(50), null);
        model.add(entry);
      }
    }
    List<PendingUrl> expected = new ArrayList<>(model);
    assertThat(pending.inOrder()).containsExactlyElementsOf(expected);
    assertThat(pending.lease(100, Integer.MAX_VALUE, 200)).containsExactlyElementsOf(expected);
    assertThat(pending.inFlight()).isEqualTo(expected.size());
  }
}
