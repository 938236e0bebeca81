package dev.sieve.serve;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sieve.frontier.queue.CrawlStore;
import dev.sieve.frontier.queue.PutResult;
import dev.sieve.frontier.queue.QueuedUrl;
import dev.sieve.frontier.queue.TakeLimits;
import java.time.Duration;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * PutURLs on Redis runs a few Redis commands per item (counted by a real redis-server's {@code
 * INFO commandstats}): a batch reads the places in {@code ready} of every queue it changed with
 * one {@code ZMSCORE}, not a {@code ZSCORE} per queue, and their salts with one {@code HMGET}, not
 * an {@code HGET} per queue; a URL's Sieve block is read by the node first, so a repeated URL
 * costs that read alone.
 */
class RedisPutCommandsTest {
  private static final long NOW = 1_800_000_000_000L; // epoch milliseconds
  private static final int QUEUES = 200;
  @RegisterExtension
  static final RedisStoreExtension redis = new RedisStoreExtension();

  /** One discovered URL {@code page} in each queue. */
  private static List<PutItem> batch(String crawlId, String page) {
    List<PutItem> batch = new ArrayList<>();
    for (int q = 0; q < QUEUES; q++) {
      batch.add(new PutItem(crawlId, "q" + q, "http://q" + q + ".test/" + page, true, 0, null,
          null));
    }
    return batch;
  }

  /** Redis commands by name (scripts' own calls counted; eval, info and config not). */
  private static Map<String, Long> commands() throws IOException {
    Map<String, Long> calls = new TreeMap<>();
    for (String line : redis.cli("INFO", "commandstats").split("\r?\n")) {
      if (line.startsWith("cmdstat_") && !line.startsWith("cmdstat_eval")
          && !line.startsWith("cmdstat_info") && !line.startsWith("cmdstat_config")) {
        String field = line.substring(line.indexOf(":calls=") + ":calls=".length());
        calls.put(line.substring("cmdstat_".length(), line.indexOf(':')),
            Long.parseLong(field.substring(0, field.indexOf(','))));
      }
    }
    return calls;
  }

  /** The results of a put and the Redis commands it ran. */
  private record Put(PutResult[] results, Map<String, Long> calls) { }

  /** Puts page {@code first} of every queue into crawl {@code id}, then page {@code second}. */
  private static Put secondPut(String id, String first, String second) throws IOException {
    CrawlStore crawl = redis.crawl(id);
    crawl.putAll(batch(id, first), NOW);
    assertThat(redis.cli("CONFIG", "RESETSTAT")).startsWith("OK");
    PutResult[] results = crawl.putAll(batch(id, second), NOW);
    return new Put(results, commands());
  }

  @Test
  void put_aBatchIntoQueuesAlreadyDue_readsReadyAndSaltsOnceAndRunsFourCommandsPerUrl()
      throws IOException {
    Put put = secondPut("due", "1", "2");

    Map<String, Long> calls = put.calls();
    assertThat(put.results()).containsOnly(PutResult.CREATED).hasSize(QUEUES);
    assertThat(calls).containsEntry("zmscore", 1L).doesNotContainKey("zscore")
        .containsEntry("hmget", 1L).doesNotContainKey("hget")
        .as("a discovered URL's creation date is its due time").doesNotContainKey("hset");
    // Per URL: its Sieve block read by the node, read again and written back by the script,
    // its ZADD.
    assertThat(calls).containsEntry("getrange", 2L * QUEUES).containsEntry("setrange", 1L * QUEUES)
        .containsEntry("zadd", 1L * QUEUES);
    assertThat(calls.values().stream().mapToLong(Long::longValue).sum())
        .isLessThanOrEqualTo(4L * QUEUES + 20);
  }

  @Test
  void put_aBatchOfRepeatedUrls_readsEachSieveBlockOnceAndWritesNothing() throws IOException {
    Put put = secondPut("again", "1", "1");

    Map<String, Long> calls = put.calls();
    assertThat(put.results()).containsOnly(PutResult.SEEN).hasSize(QUEUES);
    assertThat(calls).containsEntry("getrange", 1L * QUEUES).doesNotContainKey("setrange")
        .doesNotContainKey("zadd");
    assertThat(calls.values().stream().mapToLong(Long::longValue).sum())
        .isLessThanOrEqualTo(1L * QUEUES + 20);
  }

  @Test
  void put_aBatchTouchingNewAndDueQueues_leavesEveryQueueReadyOnce() {
    CrawlStore crawl = redis.crawl("mixed");
    crawl.putAll(batch("mixed", "1").subList(0, QUEUES / 2), NOW);

    PutResult[] results = crawl.putAll(batch("mixed", "2"), NOW);
    List<QueuedUrl> out = new ArrayList<>();
    crawl.take(null, new TakeLimits(1, 10_000, 10_000, Duration.ofSeconds(30), Duration.ZERO), NOW, out);

    assertThat(results).containsOnly(PutResult.CREATED);
    assertThat(out).hasSize(QUEUES).extracting(QueuedUrl::key).doesNotHaveDuplicates();
  }
}
