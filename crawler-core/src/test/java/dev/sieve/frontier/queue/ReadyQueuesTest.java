package dev.sieve.frontier.queue;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sieve.frontier.Sieve;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A crawl's queues set aside while they cannot produce ({@link ReadyQueues}): each comes back at
 * the time it can, or at once when a change lets it, never later. Times are epoch milliseconds
 * given to each call.
 */
class ReadyQueuesTest {
  private static final Duration LONG_LEASE = Duration.ofHours(1);

  private final CrawlSpace crawl = new CrawlSpace("c", Sieve.create(1_000, 1e-6));

  @Test
  void take_withinAQueuesDelay_nothing_thenItsNextUrlWhenTheDelayEnds() {
    discover("k", "http://a.test/1", "http://a.test/2");
    crawl.control("k", CrawlStore.DELAY, 1_000);

    assertThat(take(1, 10, 1)).containsExactly("http://a.test/1");
    crawl.put("k", "http://a.test/1", false, 0, null, 2);
    assertThat(take(1, 10, 500)).isEmpty();
    assertThat(take(1, 10, 1_000)).as("999 ms after").isEmpty();
    assertThat(take(1, 10, 1_001)).containsExactly("http://a.test/2");
  }

  @Test
  void take_ofABlockedQueue_producesAsSoonAsItIsUnblocked() {
    discover("k", "http://a.test/1");
    crawl.control("k", CrawlStore.BLOCK, 10_000);
    assertThat(take(1, 10, 1)).isEmpty();

    crawl.control("k", CrawlStore.BLOCK, 0);

    assertThat(take(1, 10, 2)).containsExactly("http://a.test/1");
  }

  @Test
  void take_ofABlockedQueue_producesWhenTheBlockEnds() {
    discover("k", "http://a.test/1");
    crawl.control("k", CrawlStore.BLOCK, 10_000);

    assertThat(take(1, 10, 1)).isEmpty();
    assertThat(take(1, 10, 9_999)).isEmpty();
    assertThat(take(1, 10, 10_000)).containsExactly("http://a.test/1");
  }

  @Test
  void take_ofAQueueWhoseUrlsAreInFlight_producesAgainWhenALeaseExpires() {
    discover("k", "http://a.test/1", "http://a.test/2");
    TakeLimits oneAtATime = limits(1, Duration.ofMillis(100), Duration.ZERO);

    assertThat(take(oneAtATime, 1)).containsExactly("http://a.test/1");
    assertThat(take(oneAtATime, 50)).isEmpty();
    assertThat(take(oneAtATime, 101)).as("its lease ended: due again, first")
        .containsExactly("http://a.test/1");
  }

  @Test
  void take_afterTheUrlInFlightWasCompleted_producesTheNextAtOnce() {
    discover("k", "http://a.test/1", "http://a.test/2");
    TakeLimits oneAtATime = limits(1, LONG_LEASE, Duration.ZERO);
    assertThat(take(oneAtATime, 1)).containsExactly("http://a.test/1");
    assertThat(take(oneAtATime, 2)).isEmpty();

    crawl.put("k", "http://a.test/1", false, 0, null, 3);

    assertThat(take(oneAtATime, 4)).containsExactly("http://a.test/2");
  }

  @Test
  void take_allowingMoreUrlsPerQueue_wakesTheQueuesHeldByTheirLeases() {
    discover("k", "http://a.test/1", "http://a.test/2");
    assertThat(take(limits(1, LONG_LEASE, Duration.ZERO), 1)).containsExactly("http://a.test/1");
    assertThat(take(limits(1, LONG_LEASE, Duration.ZERO), 2)).isEmpty();

    assertThat(take(limits(2, LONG_LEASE, Duration.ZERO), 3)).containsExactly("http://a.test/2");
  }

  @Test
  void take_withAShorterDefaultDelay_wakesTheQueuesWaitingOnTheDefault() {
    TakeLimits tenSeconds = limits(10, LONG_LEASE, Duration.ofSeconds(10));
    discover("k", "http://a.test/1");
    assertThat(take(tenSeconds, 1)).containsExactly("http://a.test/1");
    crawl.put("k", "http://a.test/2", true, 0, null, 2);
    assertThat(take(tenSeconds, 3)).as("within the default delay").isEmpty();

    assertThat(take(limits(10, LONG_LEASE, Duration.ZERO), 4)).containsExactly("http://a.test/2");
  }

  @Test
  void take_ofAUrlWithARefetchDateToCome_producesItAtThatDate() {
    crawl.put("k", "http://a.test/", false, 5_000, null, 1);

    assertThat(take(1, 10, 2)).isEmpty();
    assertThat(take(1, 10, 4_999)).isEmpty();
    assertThat(take(1, 10, 5_000)).containsExactly("http://a.test/");
  }

  @Test
  void take_ofAQueueAtItsCrawlLimit_producesAgainOnceTheLimitIsRaised() {
    discover("k", "http://a.test/1", "http://a.test/2");
    crawl.control("k", CrawlStore.LIMIT, 1);
    assertThat(take(1, 10, 1)).containsExactly("http://a.test/1");
    crawl.put("k", "http://a.test/1", false, 0, null, 2);
    assertThat(take(1, 10, 3)).as("1 completed, the limit").isEmpty();

    crawl.control("k", CrawlStore.LIMIT, 2);

    assertThat(take(1, 10, 4)).containsExactly("http://a.test/2");
  }

  @Test
  void take_ofADrainedQueue_producesTheUrlPutIntoItLater() {
    discover("k", "http://a.test/1");
    assertThat(take(1, 10, 1)).hasSize(1);
    crawl.put("k", "http://a.test/1", false, 0, null, 2);
    assertThat(take(1, 10, 3)).isEmpty();

    discover("k", "http://a.test/2");

    assertThat(take(1, 10, 4)).containsExactly("http://a.test/2");
  }

  @Test
  void take_oneQueueAtATime_everyQueueProducesBeforeAnyProducesTwice() {
    for (String host : List.of("a", "b", "c")) {
      discover(host, "http://" + host + ".test/1", "http://" + host + ".test/2");
    }
    TakeLimits oneQueue = new TakeLimits(1, 1, 10, LONG_LEASE, Duration.ZERO);

    List<String> firstRound = new ArrayList<>();
    List<String> secondRound = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      firstRound.addAll(take(oneQueue, 1 + i));
    }
    for (int i = 0; i < 3; i++) {
      secondRound.addAll(take(limits(2, LONG_LEASE, Duration.ZERO), 4 + i));
    }

    assertThat(firstRound).containsExactlyInAnyOrder(
        "http://a.test/1", "http://b.test/1", "http://c.test/1");
    assertThat(secondRound).containsExactlyInAnyOrder(
        "http://a.test/2", "http://b.test/2", "http://c.test/2");
  }

  @Test
  void take_ofADeletedQueue_nothing_andItsKeyStartsAfresh() {
    discover("k", "http://a.test/1");
    crawl.control("k", CrawlStore.BLOCK, 10_000);
    assertThat(take(1, 10, 1)).isEmpty();

    crawl.deleteQueue("k");
    discover("k", "http://a.test/2");

    assertThat(take(1, 10, 2)).containsExactly("http://a.test/2");
  }

  private void discover(String key, String... urls) {
    for (String url : urls) {
      assertThat(crawl.put(key, url, true, 0, null, 1)).isEqualTo(PutResult.CREATED);
    }
  }

  private List<String> take(int maxPerQueue, int maxUrls, long now) {
    return take(new TakeLimits(maxPerQueue, Integer.MAX_VALUE, maxUrls, LONG_LEASE,
        Duration.ZERO), now);
  }

  private static TakeLimits limits(int maxPerQueue, Duration lease, Duration defaultDelay) {
    return new TakeLimits(maxPerQueue, Integer.MAX_VALUE, 100, lease, defaultDelay);
  }

  private List<String> take(TakeLimits limits, long now) {
    List<QueuedUrl> out = new ArrayList<>();
    crawl.take(null, limits, now, out);
    return out.stream().map(QueuedUrl::url).toList();
  }
}
