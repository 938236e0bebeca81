package dev.sieve.frontier.durable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sieve.frontier.queue.CrawlStore;
import dev.sieve.frontier.queue.Crawls;
import dev.sieve.frontier.queue.PutResult;
import dev.sieve.frontier.queue.QueueSettings;
import dev.sieve.frontier.queue.UrlPut;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The store makes its own changes durable: a face changes it and answers through {@link
 * DurableStore#afterDurable}, building no journal record. A kill -9 is stood in for by copying the
 * state directory once the answer ran (what the page cache holds is what a killed process leaves).
 */
class DurableStoreTest {
  private static final long NOW = 1_700_000_000_000L; // epoch milliseconds
  @TempDir Path tmp;

  @Test
  void changes_answeredAfterDurable_areThereAfterAKill() throws Exception {
    Path dir = tmp.resolve("state");
    DurableStore store = open(dir);
    CrawlStore crawl = store.getOrCreate("c");
    assertThat(crawl.put("a.test", "http://a.test/1", true, 0, null, NOW))
        .isEqualTo(PutResult.CREATED);
    assertThat(crawl.putAll(List.of(new Put("a.test", "http://a.test/2"),
        new Put("b.test", "http://b.test/1")), NOW))
        .containsExactly(PutResult.CREATED, PutResult.CREATED);
    assertThat(crawl.put("b.test", "http://b.test/1", false, 0, null, NOW))
        .isEqualTo(PutResult.COMPLETED);
    assertThat(crawl.control("a.test", CrawlStore.BLOCK, NOW + 60)).isTrue();
    store.defaultDelay(Duration.ofSeconds(7));
    CountDownLatch durable = new CountDownLatch(1);
    store.afterDurable(durable::countDown);
    assertThat(durable.await(10, TimeUnit.SECONDS)).as("answered").isTrue();
    Path killed = copy(dir, tmp.resolve("killed"));
    store.end();
    store.close();

    DurableStore restarted = open(killed);
    try {
      CrawlStore again = restarted.get("c").orElseThrow();
      assertThat(again.status("a.test", "http://a.test/1")).isPresent();
      assertThat(again.status("a.test", "http://a.test/2")).isPresent();
      assertThat(again.status("b.test", "http://b.test/1")).get()
          .satisfies(url -> assertThat(url.refetchFrom()).as("completed").isZero());
      assertThat(again.queueKeys(true, NOW)).containsExactly("a.test", "b.test");
      assertThat(again.queueKeys(false, NOW)).as("a.test blocked, b.test done").isEmpty();
      assertThat(restarted.defaultDelay()).isEqualTo(Duration.ofSeconds(7));
      assertThat(again.put("a.test", "http://a.test/1", true, 0, null, NOW))
          .as("the Sieve restored").isEqualTo(PutResult.SEEN);
    } finally {
      restarted.end();
      restarted.close();
    }
  }

  @Test
  void afterEnd_changesAreRefused_andTheAnswerNeverRuns() {
    DurableStore store = open(tmp.resolve("state"));
    store.end();
    AtomicBoolean answered = new AtomicBoolean();
    assertThatThrownBy(() -> store.getOrCreate("c").put("a.test", "http://a.test/1", true, 0,
        null, NOW)).isInstanceOf(IllegalStateException.class).hasMessageContaining("journal");
    assertThatThrownBy(() -> store.afterDurable(() -> answered.set(true)))
        .isInstanceOf(IllegalStateException.class);
    assertThat(answered).isFalse();
    store.close();
  }

  private static DurableStore open(Path dir) {
    return DurableStore.open(dir, new Crawls(new QueueSettings(10_000, 0.01,
        Duration.ofSeconds(1), 1 << 20, dir.resolve("spill"), dir.resolve("completed"))), 3600);
  }

  private static Path copy(Path dir, Path to) throws IOException {
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path file : files.toList()) {
        if (!file.getFileName().toString().equals("lock")) {
          Files.copy(file, to.resolve(dir.relativize(file).toString()));
        }
      }
    }
    return to;
  }

  private record Put(String key, String url) implements UrlPut {
    @Override
    public boolean discovered() {
      return true;
    }

    @Override
    public long refetchFrom() {
      return 0;
    }

    @Override
    public byte[] metadata() {
      return null;
    }
  }
}
