package dev.sieve.frontier.local;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sieve.frontier.Lease;
import dev.sieve.frontier.Sieve;
import dev.sieve.url.Url;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Counters journaled with each URL done come back exactly when the journal is replayed. */
class LocalFrontierCountsTest {
  @TempDir Path dir;

  @Test
  void replay_countsJournaledWithCompletionsAndRetries_addUpExactly() throws Exception {
    LocalFrontier live = frontier(urls -> Map.of());
    live.state().journalTo(dir.resolve("journal-0.log"));
    for (int i = 0; i < 5; i++) {
      live.push(url(i), 0, null, null);
    }
    Lease retried = live.poll();
    live.retry(retried, Duration.ZERO, Map.of("retries", 1L));
    for (int i = 0; i < 3; i++) {
      live.complete(live.poll(), Map.of("pages", 1L, "bytes", 100L, "error.timeout", (long) (i % 2)));
    }
    live.state().closeJournal();

    LocalFrontier restored = frontier(urls -> Map.of());
    restored.state().replay(List.of(dir.resolve("journal-0.log")));

    assertThat(restored.state().counts()).isEqualTo(live.state().counts())
        .isEqualTo(Map.of("pages", 3L, "bytes", 300L, "error.timeout", 1L, "retries", 1L));
  }

  @Test
  void replay_leaseRecordedElsewhereBeforeTheCrash_isNotQueuedAgainAndCountsItsRecord() throws Exception {
    LocalFrontier live = frontier(urls -> Map.of());
    live.state().journalTo(dir.resolve("journal-0.log"));
    for (int i = 0; i < 4; i++) {
      live.push(url(i), 0, null, null);
    }
    Lease recorded = live.poll(); // its record written, then the crash before complete()
    Lease unrecorded = live.poll(); // in flight, no record yet
    live.complete(live.poll(), Map.of("pages", 1L));
    live.flushLog();
    live.state().closeJournal();
    List<Set<String>> asked = new ArrayList<>();

    LocalFrontier restored = frontier(urls -> {
      asked.add(urls);
      return urls.contains(recorded.url().toString()) ? Map.of(recorded.url().toString(), Map.of("pages", 1L)) : Map.of();
    });
    restored.state().replay(List.of(dir.resolve("journal-0.log")));

    assertThat(asked).containsExactly(Set.of(recorded.url().toString(), unrecorded.url().toString()));
    List<String> again = new ArrayList<>();
    for (Lease lease = restored.poll(); lease != null; lease = restored.poll()) {
      again.add(lease.url().toString());
      restored.complete(lease, Map.of());
    }
    assertThat(again).containsExactlyInAnyOrder(unrecorded.url().toString(), url(3).toString());
    assertThat(restored.state().counts()).isEqualTo(Map.of("pages", 2L));
  }

  private static LocalFrontier frontier(
      java.util.function.Function<Set<String>, Map<String, Map<String, Long>>> recorded) {
    return LocalFrontier.builder(Sieve.create(1000, 1e-6))
        .politenessDelay(Duration.ZERO)
        .maxInFlightPerHost(10)
        .recordedElsewhere(recorded)
        .build();
  }

  private static Url url(int i) {
    return Url.parse("http://h" + (i % 2) + ".example/" + i).orElseThrow();
  }
}
