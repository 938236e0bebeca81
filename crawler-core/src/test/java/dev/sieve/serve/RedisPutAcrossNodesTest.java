package dev.sieve.serve;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sieve.frontier.queue.CrawlStore;
import dev.sieve.frontier.queue.FrontierStore;
import dev.sieve.frontier.queue.PutResult;
import dev.sieve.frontier.queue.QueueSettings;
import dev.sieve.frontier.redis.RedisStore;
import dev.sieve.testing.RedisServers;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Two nodes on one Redis (a real redis-server): a node answers a repeated URL from its read of the
 * Sieve without the put script, but only while the queue it hashed the URL for is the one in
 * Redis: a queue another node deleted (and created again) takes the URL anew.
 */
class RedisPutAcrossNodesTest {
  private static final long NOW = 1_800_000_000L;
  private static RedisServers redis;
  private static FrontierStore first;
  private static FrontierStore second;

  @BeforeAll
  static void start() throws IOException {
    redis = RedisServers.standalone();
    first = open();
    second = open();
  }

  private static FrontierStore open() {
    return RedisStore.open(redis.uri(), QueueSettings.of(ServeSettings.builder()
        .frontier(redis.uri()).expectedUrls(100_000).build().frontierSettings()), 4);
  }

  @AfterAll
  static void stop() {
    Optional.ofNullable(second).ifPresent(FrontierStore::close);
    Optional.ofNullable(first).ifPresent(FrontierStore::close);
    Optional.ofNullable(redis).ifPresent(RedisServers::close);
  }

  private static List<PutItem> put(String crawl, String key, String... urls) {
    return java.util.Arrays.stream(urls)
        .map(url -> new PutItem(crawl, key, url, true, 0, null, null)).toList();
  }

  @Test
  void repeat_ofAUrlWhoseQueueAnotherNodeDeleted_isCreatedAgain() {
    CrawlStore here = first.getOrCreate("deleted");
    CrawlStore there = second.getOrCreate("deleted");
    assertThat(here.putAll(put("deleted", "q", "http://q.test/1", "http://q.test/2"), NOW))
        .containsExactly(PutResult.CREATED, PutResult.CREATED);

    assertThat(there.deleteQueue("q")).isEqualTo(2);
    PutResult[] again = here.putAll(put("deleted", "q", "http://q.test/1"), NOW);

    assertThat(again).containsExactly(PutResult.CREATED);
    assertThat(here.putAll(put("deleted", "q", "http://q.test/1", "http://q.test/2"), NOW))
        .containsExactly(PutResult.SEEN, PutResult.CREATED);
  }

  @Test
  void repeat_ofAUrlWhoseQueueAnotherNodeDeletedAndCreatedAgain_isCreatedAgain() {
    CrawlStore here = first.getOrCreate("recreated");
    CrawlStore there = second.getOrCreate("recreated");
    here.putAll(put("recreated", "q", "http://q.test/1", "http://q.test/2"), NOW);
    there.deleteQueue("q");
    assertThat(there.putAll(put("recreated", "q", "http://q.test/3"), NOW))
        .containsExactly(PutResult.CREATED);

    PutResult[] again = here.putAll(put("recreated", "q", "http://q.test/2", "http://q.test/3"),
        NOW);

    assertThat(again).containsExactly(PutResult.CREATED, PutResult.SEEN);
  }

  @Test
  void repeats_answeredFromTheRead_countAsSeenInTheCrawlsCounters() {
    CrawlStore here = first.getOrCreate("counted");
    here.putAll(put("counted", "q", "http://q.test/1", "http://q.test/2"), NOW);

    PutResult[] again = here.putAll(put("counted", "q", "http://q.test/1", "http://q.test/2",
        "http://q.test/3"), NOW);

    Map<String, Long> counters = second.getOrCreate("counted").counters();
    assertThat(again).containsExactly(PutResult.SEEN, PutResult.SEEN, PutResult.CREATED);
    assertThat(counters).containsEntry("put.discovered.seen", 2L)
        .containsEntry("put.discovered.created", 3L);
  }
}
