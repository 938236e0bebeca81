package dev.sieve.frontier.durable;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sieve.frontier.queue.CrawlStore;
import dev.sieve.frontier.queue.Crawls;
import dev.sieve.frontier.queue.QueueSettings;
import dev.sieve.frontier.queue.QueuedUrl;
import dev.sieve.frontier.queue.TakeLimits;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A {@code serve --state} directory written when the engine counted time in seconds (checkpoint
 * version 2, journal records P, Q, G) is resumed in milliseconds: every date, block and delay
 * multiplied by 1000, nothing lost. The directories in the test resources were written by Sieve
 * at cee9ab8 (one ended cleanly: all in its checkpoint; one halted as by kill -9: all in its
 * journal), from the same changes at epoch second 1,700,000,000: in crawl {@code c}, a.test has a
 * discovered URL and one due 100 s later and is blocked for 50 s; b.test has one URL completed;
 * d.test has two discovered URLs and a delay of 5 s; the service's default delay is 7 s.
 */
class SecondsStateTest {
  private static final long THEN = 1_700_000_000_000L;
  @TempDir Path tmp;

  @ParameterizedTest
  @ValueSource(strings = {"seconds-checkpoint", "seconds-journal"})
  void stateInSeconds_isResumedInMilliseconds(String fixture) throws Exception {
    Path dir = copy(fixture);
    DurableStore store = DurableStore.open(dir, new Crawls(new QueueSettings(10_000, 0.01,
        Duration.ofSeconds(1), 1 << 20, dir.resolve("spill"), dir.resolve("completed"))), 3600);
    try {
      assertThat(store.defaultDelay()).isEqualTo(Duration.ofSeconds(7));
      CrawlStore crawl = store.get("c").orElseThrow();
      assertThat(crawl.status("a.test", "http://a.test/due")).get()
          .extracting(QueuedUrl::refetchFrom, QueuedUrl::created).containsExactly(THEN, THEN);
      assertThat(crawl.status("a.test", "http://a.test/later")).get()
          .extracting(QueuedUrl::refetchFrom, QueuedUrl::created)
          .containsExactly(THEN + 100_000, THEN);
      assertThat(crawl.status("b.test", "http://b.test/done")).get()
          .extracting(QueuedUrl::refetchFrom).isEqualTo(0L);
      assertThat(crawl.stats("b.test", THEN).completed()).isEqualTo(1);

      assertThat(crawl.queueKeys(false, THEN + 49_999)).as("a.test blocked until +50 s")
          .containsExactly("d.test");
      assertThat(crawl.queueKeys(false, THEN + 50_000)).containsExactly("a.test", "d.test");

      TakeLimits one = new TakeLimits(1, 1, 1, Duration.ofMinutes(10), store.defaultDelay());
      List<QueuedUrl> first = take(crawl, "d.test", one, THEN);
      assertThat(first).hasSize(1);
      crawl.put("d.test", first.get(0).url(), false, 0, null, THEN); // completed
      assertThat(take(crawl, "d.test", one, THEN + 4_999)).as("d.test's delay is 5 s").isEmpty();
      assertThat(take(crawl, "d.test", one, THEN + 5_000)).hasSize(1);
    } finally {
      store.end();
    }
  }

  private static List<QueuedUrl> take(CrawlStore crawl, String key, TakeLimits limits, long now) {
    List<QueuedUrl> out = new ArrayList<>();
    crawl.take(key, limits, now, out);
    return out;
  }

  private Path copy(String fixture) throws IOException, URISyntaxException {
    Path from = Path.of(SecondsStateTest.class.getResource(fixture).toURI());
    Path to = tmp.resolve("state");
    try (Stream<Path> files = Files.walk(from)) {
      for (Path file : files.toList()) {
        Files.copy(file, to.resolve(from.relativize(file).toString()));
      }
    }
    return to;
  }
}
