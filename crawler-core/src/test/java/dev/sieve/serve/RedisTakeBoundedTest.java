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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * GetURLs on Redis reads only the queues it may lease from: the commands its script runs (counted
 * by a real redis-server's {@code INFO commandstats}) do not grow with the queues that have
 * nothing due.
 */
class RedisTakeBoundedTest {
  private static final long NOW = 1_800_000_000_000L; // epoch milliseconds
  private static final TakeLimits LIMITS =
      new TakeLimits(10, 100, 100, Duration.ofSeconds(30), Duration.ZERO);
  @RegisterExtension
  static final RedisStoreExtension redis = new RedisStoreExtension();

  /** A crawl with {@code idle} queues whose one URL is due in an hour, and one due queue. */
  private static CrawlStore crawl(String id, int idle) {
    CrawlStore crawl = redis.crawl(id);
    List<PutItem> batch = new ArrayList<>();
    for (int q = 0; q < idle; q++) {
      batch.add(new PutItem(id, "idle" + q, "http://idle" + q + ".test/", false, NOW + 3_600_000,
          null, null));
      if (batch.size() == 512 || q == idle - 1) {
        crawl.putAll(batch, NOW);
        batch.clear();
      }
    }
    crawl.put("due", "http://due.test/1", true, 0, null, NOW);
    return crawl;
  }

  /** Redis commands run (scripts' own calls counted, the script calls themselves not). */
  private static long commandsOf(Runnable call) throws IOException {
    assertThat(redis.cli("CONFIG", "RESETSTAT")).startsWith("OK");
    call.run();
    long calls = 0;
    for (String line : redis.cli("INFO", "commandstats").split("\r?\n")) {
      if (line.startsWith("cmdstat_") && !line.startsWith("cmdstat_eval")
          && !line.startsWith("cmdstat_info") && !line.startsWith("cmdstat_config")) {
        String field = line.substring(line.indexOf("calls=") + "calls=".length());
        calls += Long.parseLong(field.substring(0, field.indexOf(',')));
      }
    }
    return calls;
  }

  @Test
  void take_amongTenThousandIdleQueues_runsTheCommandsItDoesAmongTen() throws IOException {
    CrawlStore few = crawl("few", 10);
    CrawlStore many = crawl("many", 10_000);
    List<QueuedUrl> fromFew = new ArrayList<>();
    List<QueuedUrl> fromMany = new ArrayList<>();

    long withFew = commandsOf(() -> few.take(null, LIMITS, NOW, fromFew));
    long withMany = commandsOf(() -> many.take(null, LIMITS, NOW, fromMany));

    assertThat(fromMany).extracting(QueuedUrl::url).containsExactly("http://due.test/1");
    assertThat(fromFew).extracting(QueuedUrl::url).containsExactly("http://due.test/1");
    assertThat(withMany).isEqualTo(withFew).isLessThan(40);
  }

  @Test
  void stats_ofEveryQueue_amongTenThousandQueues_runsTheCommandsItDoesAmongTen()
      throws IOException {
    CrawlStore few = crawl("stats-few", 10);
    CrawlStore many = crawl("stats-many", 10_000);
    few.take(null, LIMITS, NOW, new ArrayList<>());
    many.take(null, LIMITS, NOW, new ArrayList<>());
    few.stats(null, NOW); // a crawl's first GetStats may count its totals once
    many.stats(null, NOW);
    QueueStats[] answers = new QueueStats[2];

    long withFew = commandsOf(() -> answers[0] = few.stats(null, NOW));
    long withMany = commandsOf(() -> answers[1] = many.stats(null, NOW));

    assertThat(answers[0]).isEqualTo(new QueueStats(11, 1, 11, 11, 0));
    assertThat(answers[1]).isEqualTo(new QueueStats(10_001, 1, 10_001, 10_001, 0));
    assertThat(withMany).isEqualTo(withFew);
  }

  @Test
  void deleteCrawl_ofTwoThousandFiveHundredQueues_dropsThemAThousandPerScript() throws IOException {
    CrawlStore crawl = redis.crawl("dropped");
    List<PutItem> batch = new ArrayList<>();
    for (int q = 0; q < 2_500; q++) {
      batch.add(new PutItem("dropped", "drop" + q, "http://drop" + q + ".test/", true, 0, null,
          null));
      if (batch.size() == 512 || q == 2_499) {
        crawl.putAll(batch, NOW);
        batch.clear();
      }
    }
    assertThat(redis.cli("CONFIG", "RESETSTAT")).startsWith("OK");

    long pending = redis.store().delete("dropped");

    assertThat(pending).isEqualTo(2_500);
    // Three scripts drop its shard, each reading (ZRANGE) and removing (ZREM) 1,000 queues at most.
    assertThat(redis.cli("INFO", "commandstats")).contains("cmdstat_zrange:calls=3,")
        .contains("cmdstat_zrem:calls=3,");
    assertThat(redis.cli("--scan", "--pattern", "*:q:drop*")).isBlank();
    assertThat(redis.cli("--scan", "--pattern", "*:w:drop*")).isBlank();
    assertThat(redis.store().get("dropped")).isEmpty();
  }

  @Test
  void take_whenEveryQueueIsLeasedOrNotDue_runsAFewCommands() throws IOException {
    CrawlStore crawl = crawl("leased", 10_000);
    List<QueuedUrl> first = new ArrayList<>();
    crawl.take(null, LIMITS, NOW, first);
    List<QueuedUrl> again = new ArrayList<>();

    long commands = commandsOf(() -> crawl.take(null, LIMITS, NOW + 1, again));

    assertThat(first).hasSize(1);
    assertThat(again).isEmpty();
    assertThat(commands).isLessThan(10);
  }

  @Test
  void take_askingMoreThanOneScriptLeases_takesFromEachQueueOnce() throws IOException {
    CrawlStore crawl = redis.crawl("chunks");
    List<PutItem> batch = new ArrayList<>();
    int queues = 1_500; // more than one take script leases (RedisCrawlStore.TAKE_CHUNK, 1,000)
    for (int q = 0; q < queues; q++) {
      for (int u = 0; u < 2; u++) {
        batch.add(new PutItem("chunks", "q" + q, "http://q" + q + ".test/" + u, true, 0, null,
            null));
      }
      if (batch.size() >= 512 || q == queues - 1) {
        crawl.putAll(batch, NOW);
        batch.clear();
      }
    }
    List<QueuedUrl> out = new ArrayList<>();
    assertThat(redis.cli("CONFIG", "RESETSTAT")).startsWith("OK");

    int produced = crawl.take(null,
        new TakeLimits(1, 100_000, 100_000, Duration.ofSeconds(30), Duration.ZERO), NOW, out);

    assertThat(produced).isEqualTo(queues);
    assertThat(out).hasSize(queues).extracting(QueuedUrl::key).doesNotHaveDuplicates();
    assertThat(redis.cli("INFO", "commandstats")).contains("cmdstat_evalsha:calls=2,");
  }

  @Test
  void take_idleQueuesComingDue_areHandedOutInTurn() {
    CrawlStore crawl = crawl("due-later", 300);
    List<QueuedUrl> now = new ArrayList<>();
    crawl.take(null, new TakeLimits(10, 100, 100, Duration.ofSeconds(7200), Duration.ZERO), NOW, now);
    List<QueuedUrl> later = new ArrayList<>();

    crawl.take(null, new TakeLimits(10, 1000, 1000, Duration.ofSeconds(30), Duration.ZERO), NOW + 3_600_000, later);

    assertThat(now).hasSize(1);
    assertThat(later).hasSize(300).extracting(QueuedUrl::key).doesNotHaveDuplicates()
        .startsWith("idle0", "idle1", "idle2");
  }
}
