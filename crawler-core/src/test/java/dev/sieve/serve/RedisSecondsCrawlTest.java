package dev.sieve.serve;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sieve.frontier.queue.QueueSettings;
import dev.sieve.frontier.redis.RedisFrontierException;
import dev.sieve.frontier.redis.RedisStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A crawl in Redis that a serve counting seconds created (its hash without the {@code ms} field)
 * is refused, naming it, when the store opens and when a call meets it; a crawl created now is
 * served as before.
 */
class RedisSecondsCrawlTest {
  @RegisterExtension
  static final RedisStoreExtension redis = new RedisStoreExtension();

  @Test
  void aCrawlInSeconds_isRefusedWhenTheStoreOpens_andWhenACallMeetsIt() throws IOException {
    redis.crawl("current").put("a.test", "http://a.test/", true, 0, null, 1_800_000_000_000L);
    redis.cli("HSET", "serve:{serve}:crawl:old", "gen", "99", "id", "old", "shards", "1");
    redis.cli("SADD", "serve:{serve}:crawls", "old");

    assertThatThrownBy(() -> RedisStore.open(redis.uri(), new QueueSettings(1000, 0.01,
        Duration.ofSeconds(1), 1 << 20, null, null), 1))
        .isInstanceOf(RedisFrontierException.class)
        .hasMessageContaining("serve crawl 'old'").hasMessageContaining("seconds")
        .hasMessageContaining("DeleteCrawl");
    assertThatThrownBy(() -> redis.store().get("old"))
        .isInstanceOf(UncheckedIOException.class).hasMessageContaining("serve crawl 'old'");
    assertThatThrownBy(() -> redis.store().getOrCreate("old"))
        .isInstanceOf(UncheckedIOException.class).hasMessageContaining("serve crawl 'old'");
    assertThat(redis.store().get("current")).isPresent();
  }
}
