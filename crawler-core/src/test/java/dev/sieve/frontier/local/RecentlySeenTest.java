package dev.sieve.frontier.local;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sieve.frontier.Sieve;
import dev.sieve.url.Url;
import org.junit.jupiter.api.Test;

class RecentlySeenTest {
  private final RecentlySeen recent = new RecentlySeen();

  @Test
  void contains_afterAdd_trueForThatObjectOnly() {
    Url url = url("http://a.example/page");
    Url equalCopy = url("HTTP://A.EXAMPLE/page"); // another input: another object

    recent.add(url);

    assertThat(recent.contains(url)).isTrue();
    assertThat(equalCopy).isEqualTo(url).isNotSameAs(url);
    assertThat(recent.contains(equalCopy)).as("an equal but other object asks the Sieve").isFalse();
    assertThat(recent.contains(url("http://a.example/other"))).isFalse();
  }

  @Test
  void add_urlInAnOccupiedSlot_replacesTheOlderOne() {
    Url first = url("http://a.example/0");
    Url second = null;
    for (int i = 1; second == null; i++) {
      Url candidate = url("http://a.example/" + i);
      if (slotOf(candidate) == slotOf(first)) {
        second = candidate;
      }
    }

    recent.add(first);
    recent.add(second);

    assertThat(recent.contains(second)).isTrue();
    assertThat(recent.contains(first)).as("evicted: a miss, never a wrong answer").isFalse();
  }

  private static int slotOf(Url url) {
    int h = url.hashCode();
    return (h ^ (h >>> 16)) & (RecentlySeen.SLOTS - 1);
  }

  private static Url url(String s) {
    return Url.parse(s).orElseThrow();
  }
}
