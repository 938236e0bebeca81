package dev.sieve.serve;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import crawlercommons.urlfrontier.Urlfrontier.AckMessage;
import crawlercommons.urlfrontier.Urlfrontier.BlockQueueParams;
import crawlercommons.urlfrontier.Urlfrontier.CountUrlParams;
import crawlercommons.urlfrontier.Urlfrontier.DeleteCrawlMessage;
import crawlercommons.urlfrontier.Urlfrontier.GetParams;
import crawlercommons.urlfrontier.Urlfrontier.URLItem;
import crawlercommons.urlfrontier.Urlfrontier.URLStatusRequest;
import dev.sieve.files.RecordLog;
import dev.sieve.frontier.durable.Change;
import dev.sieve.frontier.durable.DurableStateException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code serve --state DIR}: what was acknowledged survives the process dying. A kill -9 is
 * stood in for by copying DIR while the server runs (what the page cache holds is what a killed
 * process leaves) and starting a second server on the copy.
 */
class DurableServeTest {
  @TempDir Path tmp;

  private ServeFixture serve(Path dir) throws IOException {
    return new ServeFixture(ServeSettings.builder().stateDir(dir).queueDelaySeconds(0));
  }

  @Test
  void restartFromJournal_keepsPendingCompletedScheduledAndQueueSettings() throws Exception {
    Path crashed = killedAfter(first -> {
      List<URLItem> items = new ArrayList<>();
      for (int i = 0; i < 50; i++) {
        items.add(ServeFixture.discovered("http://a.test/" + i));
      }
      items.add(ServeFixture.discovered("http://b.test/x", "k", "other"));
      assertThat(first.put(items)).extracting(AckMessage::getStatus)
          .containsOnly(AckMessage.Status.OK);
      first.put(ServeFixture.known("http://a.test/0", 0),
          ServeFixture.known("http://a.test/1", ServeFixture.START + 500));
      assertThat(first.getAll(60)).hasSize(48); // leased: not saved, pending again after restart
      first.blocking.setCrawlLimit(crawlercommons.urlfrontier.Urlfrontier.CrawlLimitParams
          .newBuilder().setKey("k").setCrawlID("other").setLimit(7).build());
      first.blocking.blockQueueUntil(BlockQueueParams.newBuilder().setKey("k")
          .setCrawlID("other").setTime(ServeFixture.START + 1000).build());
    });

    try (ServeFixture second = serve(crashed)) {
      assertThat(second.stats("", "DEFAULT").getSize()).as("pending in DEFAULT").isEqualTo(49);
      assertThat(second.stats("", "DEFAULT").getCountsMap()).containsEntry("completed", 1L);
      assertThat(status(second, "http://a.test/0", "").getKnown().getRefetchableFromDate())
          .as("completed stays completed").isZero();
      assertThat(status(second, "http://a.test/1", "").getKnown().getRefetchableFromDate())
          .isEqualTo(ServeFixture.START + 500);
      assertThat(second.put(ServeFixture.discovered("http://a.test/0"),
          ServeFixture.discovered("http://a.test/2"))).extracting(AckMessage::getStatus)
          .as("the Sieve remembers").containsOnly(AckMessage.Status.SKIPPED);
      assertThat(second.getAll(60)).as("leases did not survive: pending, due again").hasSize(48);
      assertThat(second.get(GetParams.newBuilder().setCrawlID("other").setKey("k").build()))
          .as("the block survived").isEmpty();
      second.clock.advance(1000);
      assertThat(second.get(GetParams.newBuilder().setCrawlID("other").setKey("k").build()))
          .containsExactly("http://b.test/x");
    }
  }

  @Test
  void restartFromCheckpointAndJournal_keepsBoth_andDeletesReplay() throws Exception {
    Path crashed = killedAfter(first -> {
      first.put(ServeFixture.discovered("http://a.test/before"),
          ServeFixture.discovered("http://a.test/done"));
      first.put(ServeFixture.known("http://a.test/done", 0));
      first.server.checkpoint();
      first.put(ServeFixture.discovered("http://a.test/after"));
      first.blocking.deleteCrawl(DeleteCrawlMessage.newBuilder().setValue("gone").build());
    });
    try (ServeFixture second = serve(crashed)) {
      assertThat(second.blocking.countURLs(CountUrlParams.newBuilder().build()).getValue())
          .as("before and after pending, done completed (from the completed log)").isEqualTo(3);
      assertThat(status(second, "http://a.test/done", "").getKnown().getRefetchableFromDate())
          .isZero();
      assertThat(second.getAll(60))
          .containsExactlyInAnyOrder("http://a.test/before", "http://a.test/after");
    }
  }

  @Test
  void restart_keepsDeletedQueuesDeletedAndTheServiceSwitches() throws Exception {
    Path crashed = killedAfter(first -> {
      first.put(ServeFixture.discovered("http://a.test/1"),
          ServeFixture.discovered("http://b.test/1"));
      first.blocking.deleteQueue(crawlercommons.urlfrontier.Urlfrontier.QueueWithinCrawlParams
          .newBuilder().setKey("b.test").setCrawlID("DEFAULT").build());
      first.blocking.setActive(crawlercommons.urlfrontier.Urlfrontier.Active.newBuilder()
          .setState(false).build());
    });
    try (ServeFixture second = serve(crashed)) {
      assertThat(second.blocking.getActive(
          crawlercommons.urlfrontier.Urlfrontier.Local.getDefaultInstance()).getState()).isFalse();
      assertThat(second.getAll(60)).as("inactive").isEmpty();
      second.blocking.setActive(crawlercommons.urlfrontier.Urlfrontier.Active.newBuilder()
          .setState(true).build());
      assertThat(second.getAll(60)).containsExactly("http://a.test/1");
      assertThat(second.put(ServeFixture.discovered("http://b.test/1")))
          .extracting(AckMessage::getStatus).as("a deleted queue starts with nothing seen")
          .containsExactly(AckMessage.Status.OK);
    }
  }

  @Test
  void tornJournalTail_isCut_andEveryWholeRecordKept() throws Exception {
    Path crashed = twoUrlsPutThenKilled();
    Path journal = journals(crashed).get(0);
    long whole = Files.size(journal);
    // A record cut short, as a crash in the middle of a write leaves it.
    Files.write(journal, new byte[] {Change.PUT, 100, 1, 2, 3}, StandardOpenOption.APPEND);

    assertThat(RecordLog.replay(journal, Change::known, (type, payload, offset) -> { }).records())
        .isEqualTo(2);
    try (ServeFixture second = serve(crashed)) {
      assertThat(second.getAll(60)).containsExactlyInAnyOrder("http://a.test/1", "http://a.test/2");
    }
    assertThat(whole).isPositive();
  }

  @Test
  void corruptRecordBeforeTheEnd_failsNamingTheFile() throws Exception {
    Path crashed = twoUrlsPutThenKilled();
    Path journal = journals(crashed).get(0);
    byte[] bytes = Files.readAllBytes(journal);
    bytes[5] ^= 0x20; // inside the first of two records
    Files.write(journal, bytes);

    assertThatThrownBy(() -> serve(crashed)).isInstanceOf(DurableStateException.class)
        .hasMessageContaining(journal.getFileName().toString())
        .hasMessageContaining("bad checksum");
  }

  @Test
  void secondServeOnTheSameDirectory_isRefused() throws Exception {
    Path dir = tmp.resolve("state");
    try (ServeFixture first = serve(dir)) {
      assertThatThrownBy(() -> serve(dir)).isInstanceOf(DurableStateException.class)
          .hasMessage("state directory " + dir + " is in use by another serve");
      assertThat(first.put(ServeFixture.discovered("http://a.test/1")))
          .extracting(AckMessage::getStatus).containsExactly(AckMessage.Status.OK);
    }
  }

  @Test
  void cleanStop_writesACheckpoint_andRestartNeedsNoJournal() throws Exception {
    Path dir = tmp.resolve("state");
    try (ServeFixture first = serve(dir)) {
      first.put(ServeFixture.discovered("http://a.test/1"));
    }
    for (Path journal : journals(dir)) {
      assertThat(Files.size(journal)).as(journal.toString()).isZero();
    }
    try (ServeFixture second = serve(dir)) {
      assertThat(second.getAll(60)).containsExactly("http://a.test/1");
    }
  }

  /** The state a process leaves when killed right after two discovered URLs were acked. */
  private Path twoUrlsPutThenKilled() throws Exception {
    return killedAfter(first -> first.put(ServeFixture.discovered("http://a.test/1"),
        ServeFixture.discovered("http://a.test/2")));
  }

  /** What a server on a state directory leaves there when killed right after {@code steps}. */
  private Path killedAfter(Steps steps) throws Exception {
    Path dir = tmp.resolve("state");
    Path crashed = tmp.resolve("crashed");
    try (ServeFixture first = serve(dir)) {
      steps.run(first);
      copyState(dir, crashed);
    }
    return crashed;
  }

  private interface Steps {
    void run(ServeFixture serve) throws Exception;
  }

  private static URLItem status(ServeFixture serve, String url, String crawlId) {
    return serve.blocking.getURLStatus(
        URLStatusRequest.newBuilder().setUrl(url).setCrawlID(crawlId).build());
  }

  /** What a process killed now leaves in {@code dir}: its files as the OS holds them. */
  private static void copyState(Path dir, Path to) throws IOException {
    Files.createDirectories(to);
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path file : files.toList()) {
        if (!file.equals(dir) && !file.getFileName().toString().equals("lock")) {
          Files.copy(file, to.resolve(dir.relativize(file).toString()));
        }
      }
    }
  }

  private static List<Path> journals(Path dir) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files.filter(f -> f.getFileName().toString().startsWith("journal-")).sorted()
          .toList();
    }
  }
}
