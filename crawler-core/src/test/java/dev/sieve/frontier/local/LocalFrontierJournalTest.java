package dev.sieve.frontier.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sieve.frontier.Lease;
import dev.sieve.frontier.Sieve;
import dev.sieve.url.Url;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A saved state plus the journals after it rebuild the frontier exactly. */
class LocalFrontierJournalTest {
  @TempDir Path dir;

  @Test
  void restore_stateThenJournal_rebuildsQueuesAndRequeuesLeasesFirst() throws Exception {
    Sieve sieve = Sieve.create(100_000, 1e-6);
    LocalFrontier live = frontier(sieve);
    Random random = new Random(11);
    List<Lease> out = new ArrayList<>();
    // Before the checkpoint: some work with a journal.
    live.state().journalTo(dir.resolve("journal-0.log"));
    randomWork(live, out, random, 0, 400);

    Checkpoint checkpoint = Checkpoint.take(live, sieve, dir.resolve("journal-1.log"));
    // After it: more work, journaled only.
    randomWork(live, out, random, 400, 800);
    live.state().closeJournal();

    LocalFrontier restored = checkpoint.restore(builder(checkpoint.sieve()),
        List.of(dir.resolve("journal-1.log")));

    assertThat(drain(restored)).isEqualTo(expectedAfterCrash(live, out));
    for (int i = 0; i < 800; i++) {
      assertThat(restored.push(url(i), 0, null, null)).as("url %d was seen before the crash", i).isFalse();
    }
  }

  @Test
  void restoreEmpty_journalOnly_rebuildsTheSameQueues() throws Exception {
    LocalFrontier live = frontier(Sieve.create(100_000, 1e-6));
    live.state().journalTo(dir.resolve("journal-0.log"));
    List<Lease> out = new ArrayList<>();
    randomWork(live, out, new Random(5), 0, 500);
    live.state().closeJournal();

    LocalFrontier restored = frontier(Sieve.create(100_000, 1e-6));
    restored.state().replay(List.of(dir.resolve("journal-0.log")));

    assertThat(drain(restored)).isEqualTo(expectedAfterCrash(live, out));
  }

  @Test
  void replay_tornLastRecord_ignoredAndTheRestKept() throws Exception {
    LocalFrontier live = frontier(Sieve.create(1000, 1e-6));
    Path journal = dir.resolve("journal-0.log");
    live.state().journalTo(journal);
    for (int i = 0; i < 10; i++) {
      live.push(url(i), 0, null, null);
    }
    live.complete(live.poll(), Map.of()); // flushes
    live.state().closeJournal();
    long size = Files.size(journal);
    try (var channel = java.nio.channels.FileChannel.open(journal, java.nio.file.StandardOpenOption.WRITE)) {
      channel.truncate(size - 3);
    }

    LocalFrontier restored = frontier(Sieve.create(1000, 1e-6));
    restored.state().replay(List.of(journal));

    // The cut record was the completion: the leased URL comes back to be fetched again.
    assertThat(restored.stats().pending()).isEqualTo(10);
  }

  @Test
  void replay_corruptRecordInTheMiddle_failsNamingFileAndOffset() throws Exception {
    LocalFrontier live = frontier(Sieve.create(1000, 1e-6));
    Path journal = dir.resolve("journal-0.log");
    live.state().journalTo(journal);
    for (int i = 0; i < 10; i++) {
      live.push(url(i), 0, null, null);
    }
    live.state().closeJournal();
    byte[] bytes = Files.readAllBytes(journal);
    bytes[bytes.length / 2] ^= 0x40;
    Files.write(journal, bytes);

    LocalFrontier restored = frontier(Sieve.create(1000, 1e-6));
    assertThatThrownBy(() -> restored.state().replay(List.of(journal)))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("corrupt journal " + journal)
        .hasMessageContaining("at offset");
  }

  /** Random pushes, takes (one, or several of a host), completions, retries and put-backs over 20 hosts. */
  private static void randomWork(LocalFrontier frontier, List<Lease> out, Random random, int from, int to) {
    for (int i = from; i < to; i++) {
      frontier.push(url(i), i % 7, null, null);
      int op = random.nextInt(10);
      if (op < 4) {
        Lease lease = frontier.poll();
        if (lease != null) {
          out.add(lease);
        }
      } else if (op < 7 && !out.isEmpty()) {
        frontier.complete(out.remove(random.nextInt(out.size())), Map.of());
      } else if (op < 8 && !out.isEmpty()) {
        frontier.retry(out.remove(random.nextInt(out.size())), Duration.ZERO, Map.of());
      } else if (op < 9 && !out.isEmpty()) {
        frontier.putBack(out.remove(random.nextInt(out.size())));
      } else if (op == 9) {
        out.addAll(frontier.takeAll(dev.sieve.frontier.QueueKey.HOST.of(url(random.nextInt(20))), 3));
      }
    }
  }

  /**
   * What a restored frontier should hold: per host, the leases out at the crash (in the order
   * taken) and then the pending URLs.
   */
  private static Map<String, List<String>> expectedAfterCrash(LocalFrontier live, List<Lease> out) {
    Map<String, List<String>> expected = new LinkedHashMap<>();
    for (Lease lease : out) {
      expected.computeIfAbsent(lease.hostKey(), k -> new ArrayList<>()).add(lease.url().toString() + "#" + lease.attempt());
    }
    drain(live).forEach((host, urls) -> expected.computeIfAbsent(host, k -> new ArrayList<>()).addAll(urls));
    expected.values().removeIf(List::isEmpty);
    return sorted(expected);
  }

  /** Every pending URL per host, in order, taking and completing them all. */
  private static Map<String, List<String>> drain(LocalFrontier frontier) {
    Map<String, List<String>> drained = new LinkedHashMap<>();
    for (Lease lease = frontier.poll(); lease != null; lease = frontier.poll()) {
      drained.computeIfAbsent(lease.hostKey(), k -> new ArrayList<>()).add(lease.url().toString() + "#" + lease.attempt());
      frontier.complete(lease, Map.of());
    }
    return sorted(drained);
  }

  private static Map<String, List<String>> sorted(Map<String, List<String>> byHost) {
    return new java.util.TreeMap<>(byHost);
  }

  private static LocalFrontier frontier(Sieve sieve) {
    return builder(sieve).build();
  }

  private static LocalFrontierBuilder builder(Sieve sieve) {
    return LocalFrontier.builder(sieve).politenessDelay(Duration.ZERO).maxInFlightPerHost(1000);
  }

  private static Url url(int i) {
    return Url.parse("http://host" + (i % 20) + ".example/page/" + i).orElseThrow();
  }
}
