package dev.sieve.serve;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sieve.frontier.queue.CrawlStore;
import dev.sieve.frontier.queue.QueueStats;
import dev.sieve.frontier.queue.QueuedUrl;
import dev.sieve.frontier.queue.TakeLimits;
import java.time.Duration;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * GetStats over every queue of a Redis crawl reads the totals its scripts keep (pending, in
 * flight, active queues, completed), not every queue: after each step of a random mix of puts,
 * reschedules, completions, leases, expiries, deleted queues and purges on a real redis-server,
 * they equal the sum of each queue's own stats (which are read from the queue), and a crawl whose
 * totals were never kept (made by an older version) is counted once and then kept.
 */
class RedisTotalsTest {
  private static final long START = 1_800_000_000_000L; // epoch milliseconds
  private static final int HOSTS = 6;
  @RegisterExtension
  static final RedisStoreExtension redis = new RedisStoreExtension();

  @Test
  void getStats_overEveryQueue_equalsTheSumOfEachQueuesStats_afterEveryKindOfChange() {
    CrawlStore crawl = redis.crawl("mix");
    Random random = new Random(26);
    long now = START;
    int checks = 0;
    long mostInFlight = 0;
    long mostCompleted = 0;
    for (int step = 0; step < 400; step++) {
      now += step(crawl, random, now);
      QueueStats totals = crawl.stats(null, now);
      assertThat(totals).as("step %d", step).isEqualTo(walked(crawl, now));
      mostInFlight = Math.max(mostInFlight, totals.inFlight());
      mostCompleted = Math.max(mostCompleted, totals.completed());
      checks++;
    }
    assertThat(checks).isEqualTo(400);
    assertThat(mostInFlight).as("leases were counted").isPositive();
    assertThat(mostCompleted).as("completions were counted").isPositive();
  }

  @Test
  void getStats_countsAQueueActiveAgain_whenItsOnlyUrlCompletedAndAnotherCame() {
    CrawlStore crawl = redis.crawl("again");
    long now = START;
    assertThat(crawl.stats(null, now)).isEqualTo(QueueStats.NONE); // its totals kept from now on
    crawl.put("leased.test", "http://leased.test/1", true, 0, null, now);
    crawl.take("", new TakeLimits(1, 1, 1, Duration.ofMillis(60), Duration.ZERO), now, new ArrayList<>());
    crawl.put("leased.test", "http://leased.test/1", false, 0, null, now);
    crawl.put("waiting.test", "http://waiting.test/1", true, 0, null, now);
    crawl.put("waiting.test", "http://waiting.test/1", false, 0, null, now); // never leased
    assertThat(crawl.stats(null, now)).isEqualTo(new QueueStats(0, 0, 2, 0, 2));

    crawl.put("leased.test", "http://leased.test/2", true, 0, null, now);
    crawl.put("waiting.test", "http://waiting.test/2", true, 0, null, now);

    assertThat(crawl.stats(null, now)).isEqualTo(new QueueStats(2, 0, 2, 2, 2))
        .isEqualTo(walked(crawl, now));
  }

  @Test
  void getStats_ofACrawlWhoseTotalsWereNeverKept_countsThemOnce_thenKeepsThem()
      throws IOException {
    CrawlStore crawl = redis.crawl("older");
    Random random = new Random(7);
    long now = START;
    for (int step = 0; step < 60; step++) {
      now += step(crawl, random, now);
    }
    crawl.put("h0.test", "http://h0.test/waiting", true, 0, null, now);
    crawl.put("h1.test", "http://h1.test/leased", true, 0, null, now);
    crawl.take("h1.test", new TakeLimits(1, 1, 1, Duration.ofMillis(5), Duration.ZERO), now, new ArrayList<>());
    // As a crawl made before the totals were kept: none of their keys exist.
    for (String key : redis.cli("--scan", "--pattern", "serve:*:totals").split("\\s+")) {
      if (!key.isBlank()) {
        redis.cli("DEL", key);
      }
    }
    QueueStats expected = walked(crawl, now);
    assertThat(expected.size()).as("URLs pending before the totals are counted").isPositive();
    assertThat(expected.inFlight()).as("leases out before the totals are counted").isPositive();
    assertThat(crawl.stats(null, now)).isEqualTo(expected);
    for (int step = 0; step < 60; step++) {
      now += step(crawl, random, now);
      assertThat(crawl.stats(null, now)).as("step %d", step).isEqualTo(walked(crawl, now));
    }
  }

  /** One random change to {@code crawl} at {@code now}; the milliseconds the clock then moves. */
  private static long step(CrawlStore crawl, Random random, long now) {
    String host = "h" + random.nextInt(HOSTS) + ".test";
    String url = "http://" + host + "/" + random.nextInt(25);
    switch (random.nextInt(10)) {
      case 0, 1, 2 -> {
        List<PutItem> batch = new ArrayList<>();
        for (int i = 0; i < 1 + random.nextInt(12); i++) {
          String h = "h" + random.nextInt(HOSTS) + ".test";
          batch.add(new PutItem("c", h, "http://" + h + "/" + random.nextInt(25), true, 0, null,
              null));
        }
        crawl.putAll(batch, now);
      }
      case 3 -> crawl.put(host, url, false, now + random.nextInt(4), null, now);
      case 4, 5 -> {
        // Completes what a worker leased, or any URL (pending, leased or never seen).
        List<QueuedUrl> leased = new ArrayList<>();
        crawl.take("", new TakeLimits(3, 3, 5, Duration.ofMillis(1 + random.nextInt(4)), Duration.ZERO), now, leased);
        for (QueuedUrl lease : leased) {
          if (random.nextBoolean()) {
            crawl.put(lease.key(), lease.url(), false, random.nextBoolean() ? 0 : now + 2, null,
                now);
          }
        }
        crawl.put(host, url, false, 0, null, now);
      }
      case 6 -> crawl.take("", new TakeLimits(2, 4, 6, Duration.ofMillis(1 + random.nextInt(5)), Duration.ZERO), now,
          new ArrayList<>());
      case 7 -> {
        if (random.nextInt(3) == 0) {
          crawl.deleteQueue(host);
        } else {
          crawl.purge(random.nextBoolean() ? host : null, now - random.nextInt(3));
        }
      }
      default -> {
        return 1 + random.nextInt(3); // leases end as the clock moves
      }
    }
    return random.nextInt(2);
  }

  /** The crawl's totals as the sum of each queue's own stats. */
  private static QueueStats walked(CrawlStore crawl, long now) {
    long size = 0;
    long inFlight = 0;
    long queues = 0;
    long active = 0;
    long completed = 0;
    for (String key : crawl.queueKeys(true, now)) {
      QueueStats one = crawl.stats(key, now);
      size += one.size();
      inFlight += one.inFlight();
      queues += one.queues();
      active += one.activeQueues();
      completed += one.completed();
    }
    return new QueueStats(size, inFlight, queues, active, completed);
  }
}
