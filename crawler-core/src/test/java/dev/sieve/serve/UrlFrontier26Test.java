package dev.sieve.serve;

import static org.assertj.core.api.Assertions.assertThat;

import crawlercommons.urlfrontier.Urlfrontier.AckMessage;
import crawlercommons.urlfrontier.Urlfrontier.AckMessage.Status;
import crawlercommons.urlfrontier.Urlfrontier.BatchAck;
import crawlercommons.urlfrontier.Urlfrontier.DiscoveredBatch;
import crawlercommons.urlfrontier.Urlfrontier.GetParams;
import crawlercommons.urlfrontier.Urlfrontier.ListUrlParams;
import crawlercommons.urlfrontier.Urlfrontier.PurgeUrlParams;
import crawlercommons.urlfrontier.Urlfrontier.URLItem;
import crawlercommons.urlfrontier.Urlfrontier.URLStatusRequest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * What URL Frontier 2.6 adds, against a real server on loopback: PutDiscovered's per-URL acks,
 * PurgeURLs by age on the test's clock, and creation dates set by the server and kept across a
 * restart on the state directory.
 */
class UrlFrontier26Test {
  private static final long DAY = 86_400;

  @TempDir Path tmp;

  private static List<BatchAck> putDiscovered(ServeFixture serve, DiscoveredBatch... batches) {
    return FrontierClient.putDiscovered(serve.channel, List.of(batches));
  }

  @ParameterizedTest
  @EnumSource(ServeFixture.Store.class)
  void putDiscovered_acksEachUrlInOrder_duplicatesSkipped(ServeFixture.Store store)
      throws Exception {
    try (ServeFixture serve = new ServeFixture(store)) {
      serve.put(ServeFixture.discovered("http://a.test/known"));
      List<BatchAck> acks = putDiscovered(serve,
          FrontierClient.batch("page1", "http://a.test/1", "http://a.test/known",
              "http://b.test/2", "http://a.test/1", "not a url"),
          FrontierClient.batch("page2"),
          FrontierClient.batch("page3", "http://b.test/2", "http://c.test/3"));

      assertThat(acks).extracting(BatchAck::getID).containsExactly("page1", "page2", "page3");
      assertThat(acks.get(0).getStatusesList()).as("in the batch's order").containsExactly(
          Status.OK, Status.SKIPPED, Status.OK, Status.SKIPPED, Status.SKIPPED);
      assertThat(acks.get(1).getStatusesList()).isEmpty();
      assertThat(acks.get(2).getStatusesList()).containsExactly(Status.SKIPPED, Status.OK);
      assertThat(serve.stats("", "DEFAULT").getSize()).as("pending").isEqualTo(4);
    }
  }

  @Test
  void putDiscovered_manyBatchesOnOneStream_allAckedAndQueued() throws Exception {
    try (ServeFixture serve = new ServeFixture()) {
      List<DiscoveredBatch> batches = new ArrayList<>();
      for (int b = 0; b < 200; b++) {
        String[] urls = new String[50];
        for (int i = 0; i < urls.length; i++) {
          urls[i] = "http://h" + (i % 7) + ".test/" + b + "/" + i;
        }
        batches.add(FrontierClient.batch("b" + b, urls));
      }
      List<BatchAck> acks = FrontierClient.putDiscovered(serve.channel, batches);

      assertThat(acks).hasSize(200);
      assertThat(acks).flatExtracting(BatchAck::getStatusesList).hasSize(10_000)
          .containsOnly(Status.OK);
      assertThat(serve.stats("", "DEFAULT").getSize()).isEqualTo(10_000);
    }
  }

  @Test
  void putDiscovered_withState_isJournaledAndSurvivesRestart() throws Exception {
    Path crashed = killedAfter(first -> assertThat(putDiscovered(first,
        FrontierClient.batch("p", "http://a.test/1", "http://a.test/1", "http://a.test/2"))
        .get(0).getStatusesList()).containsExactly(Status.OK, Status.SKIPPED, Status.OK));

    try (ServeFixture second = durable(crashed)) {
      assertThat(second.stats("", "DEFAULT").getSize()).isEqualTo(2);
      assertThat(putDiscovered(second, FrontierClient.batch("again", "http://a.test/2"))
          .get(0).getStatusesList()).as("the Sieve remembers").containsExactly(Status.SKIPPED);
    }
  }

  @ParameterizedTest
  @EnumSource(ServeFixture.Store.class)
  void creationDate_isTheServersAndIgnoresTheClients(ServeFixture.Store store) throws Exception {
    try (ServeFixture serve = new ServeFixture(store)) {
      serve.put(ServeFixture.discovered("http://a.test/1").toBuilder().setCreationDate(42)
          .build());
      serve.clock.advance(100);
      putDiscovered(serve, FrontierClient.batch("p", "http://a.test/2"));
      serve.clock.advance(100);
      serve.put(ServeFixture.known("http://a.test/1", ServeFixture.START + 1000));

      assertThat(status(serve, "http://a.test/1").getCreationDate())
          .as("a refetch date keeps the creation date").isEqualTo(ServeFixture.START);
      assertThat(status(serve, "http://a.test/2").getCreationDate())
          .isEqualTo(ServeFixture.START + 100);
      assertThat(list(serve)).extracting(URLItem::getCreationDate)
          .containsExactlyInAnyOrder(ServeFixture.START, ServeFixture.START + 100);
    }
  }

  @ParameterizedTest
  @EnumSource(ServeFixture.Store.class)
  void creationDate_ofALeasedUrlGivenARefetchDate_isKept(ServeFixture.Store store)
      throws Exception {
    try (ServeFixture serve = new ServeFixture(store)) {
      serve.put(ServeFixture.discovered("http://a.test/1"));
      serve.clock.advance(100);
      assertThat(serve.get(GetParams.newBuilder().setCrawlID("DEFAULT").setKey("a.test")
          .setDelayRequestable(600).build())).as("leased").containsExactly("http://a.test/1");
      assertThat(status(serve, "http://a.test/1").getCreationDate()).as("leased")
          .isEqualTo(ServeFixture.START);
      serve.clock.advance(100);
      serve.put(ServeFixture.known("http://a.test/1", ServeFixture.START + 1000));

      assertThat(status(serve, "http://a.test/1").getCreationDate())
          .isEqualTo(ServeFixture.START);
      assertThat(list(serve)).extracting(URLItem::getCreationDate)
          .containsExactly(ServeFixture.START);
    }
  }

  @Test
  void creationDates_surviveRestartFromJournalAndFromCheckpoint() throws Exception {
    Path crashed = killedAfter(first -> {
      first.put(ServeFixture.discovered("http://a.test/checkpointed"));
      first.clock.advance(50);
      first.put(ServeFixture.known("http://a.test/checkpointed", ServeFixture.START + 9000));
      first.server.checkpoint();
      first.clock.advance(50);
      putDiscovered(first, FrontierClient.batch("p", "http://a.test/journaled"));
    });

    try (ServeFixture second = durable(crashed)) {
      second.clock.advance(5000);
      assertThat(status(second, "http://a.test/checkpointed").getCreationDate())
          .isEqualTo(ServeFixture.START);
      assertThat(status(second, "http://a.test/journaled").getCreationDate())
          .isEqualTo(ServeFixture.START + 100);
    }
  }

  @ParameterizedTest
  @EnumSource(ServeFixture.Store.class)
  void purgeUrls_dropsOnlyUrlsCreatedMoreThanTheDaysAgo(ServeFixture.Store store)
      throws Exception {
    try (ServeFixture serve = new ServeFixture(store)) {
      purgeOldUrls(serve);

      assertThat(list(serve)).extracting(item -> item.getKnown().getInfo().getUrl())
          .containsExactly("http://a.test/new");
      assertThat(serve.put(ServeFixture.discovered("http://b.test/old")))
          .extracting(AckMessage::getStatus).as("the Sieve still remembers a purged URL")
          .containsExactly(Status.SKIPPED);
    }
  }

  @Test
  void purgeUrls_isJournaledAndReplayed() throws Exception {
    Path crashed = killedAfter(UrlFrontier26Test::purgeOldUrls);

    try (ServeFixture second = durable(crashed)) {
      assertThat(list(second)).extracting(item -> item.getKnown().getInfo().getUrl())
          .containsExactly("http://a.test/new");
    }
  }

  /**
   * Puts two URLs, three days later a third, and a day later purges: none older than 5 days, one
   * of queue a.test older than 2, then the other one of every queue older than 2 (one leased).
   */
  private static void purgeOldUrls(ServeFixture serve) {
    serve.put(ServeFixture.discovered("http://a.test/old"),
        ServeFixture.discovered("http://b.test/old"));
    serve.clock.advance(3 * DAY);
    serve.put(ServeFixture.discovered("http://a.test/new"));
    serve.clock.advance(DAY);
    assertThat(serve.get(GetParams.newBuilder().setCrawlID("DEFAULT").setKey("b.test")
        .setDelayRequestable(600).build())).as("leased").containsExactly("http://b.test/old");

    assertThat(serve.blocking.purgeURLs(PurgeUrlParams.newBuilder().setDays(5).build())
        .getValue()).as("nothing is 5 days old").isZero();
    assertThat(serve.blocking.purgeURLs(PurgeUrlParams.newBuilder().setKey("a.test")
        .setDays(2).build()).getValue()).as("one queue").isEqualTo(1);
    assertThat(list(serve)).extracting(item -> item.getKnown().getInfo().getUrl())
        .containsExactlyInAnyOrder("http://a.test/new", "http://b.test/old");
    assertThat(serve.blocking.purgeURLs(PurgeUrlParams.newBuilder().setDays(2).build())
        .getValue()).as("every queue").isEqualTo(1);
    assertThat(serve.stats("", "DEFAULT").getSize()).isEqualTo(1);
  }

  @ParameterizedTest
  @EnumSource(ServeFixture.Store.class)
  void purgeUrls_ofAnUnknownCrawl_answersZero(ServeFixture.Store store) throws Exception {
    try (ServeFixture serve = new ServeFixture(store)) {
      assertThat(serve.blocking.purgeURLs(PurgeUrlParams.newBuilder().setCrawlID("none")
          .build()).getValue()).isZero();
    }
  }

  private static URLItem status(ServeFixture serve, String url) {
    return serve.blocking.getURLStatus(URLStatusRequest.newBuilder().setUrl(url).build());
  }

  private static List<URLItem> list(ServeFixture serve) {
    List<URLItem> out = new ArrayList<>();
    serve.blocking.listURLs(ListUrlParams.newBuilder().setSize(1000).build())
        .forEachRemaining(out::add);
    return out;
  }

  private static ServeFixture durable(Path dir) throws IOException {
    return new ServeFixture(ServeSettings.builder().stateDir(dir).queueDelaySeconds(0));
  }

  /** What a server on a state directory leaves there when killed right after {@code steps}. */
  private Path killedAfter(Steps steps) throws Exception {
    Path dir = tmp.resolve("state");
    Path crashed = tmp.resolve("crashed");
    try (ServeFixture first = durable(dir)) {
      steps.run(first);
      Files.createDirectories(crashed);
      try (Stream<Path> files = Files.list(dir)) {
        for (Path file : files.toList()) {
          if (!file.getFileName().toString().equals("lock")) {
            Files.copy(file, crashed.resolve(file.getFileName()));
          }
        }
      }
    }
    return crashed;
  }

  private interface Steps {
    void run(ServeFixture serve) throws Exception;
  }
}
