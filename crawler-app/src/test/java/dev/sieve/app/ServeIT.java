package dev.sieve.app;

import static dev.sieve.serve.FrontierClient.discovered;
import static org.assertj.core.api.Assertions.assertThat;

import crawlercommons.urlfrontier.URLFrontierGrpc;
import crawlercommons.urlfrontier.Urlfrontier.AckMessage;
import crawlercommons.urlfrontier.Urlfrontier.DeleteCrawlMessage;
import crawlercommons.urlfrontier.Urlfrontier.Empty;
import crawlercommons.urlfrontier.Urlfrontier.GetParams;
import crawlercommons.urlfrontier.Urlfrontier.Pagination;
import crawlercommons.urlfrontier.Urlfrontier.QueueWithinCrawlParams;
import crawlercommons.urlfrontier.Urlfrontier.URLItem;
import dev.sieve.serve.FrontierClient;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code crawler.jar serve} as a process on a free loopback port, driven by a gRPC client the way
 * a crawler drives it: put, dedupe, lease, complete, inspect, then SIGTERM.
 */
class ServeIT {
  private static final Pattern LISTENING = Pattern.compile("on 127\\.0\\.0\\.1:(\\d+)");

  @TempDir Path dir;

  @Test
  void serve_asAProcess_answersTheApiAndStopsOnSigterm() throws Exception {
    CrawlerJar.Started serve = new CrawlerJar(dir).start("serve", "--port", "0");
    ManagedChannel channel = null;
    try {
      int port = awaitPort(serve);
      channel = ManagedChannelBuilder.forAddress("127.0.0.1", port).usePlaintext().build();
      URLFrontierGrpc.URLFrontierBlockingStub client = URLFrontierGrpc.newBlockingStub(channel)
          .withDeadlineAfter(60, TimeUnit.SECONDS);

      List<AckMessage> acks = put(channel, discovered("http://a.test/"),
          discovered("http://a.test/"), discovered("no url at all"), discovered("http://b.test/x"));
      assertThat(acks).extracting(AckMessage::getStatus).containsExactly(AckMessage.Status.OK,
          AckMessage.Status.SKIPPED, AckMessage.Status.SKIPPED, AckMessage.Status.OK);
      assertThat(client.listQueues(Pagination.getDefaultInstance()).getValuesList())
          .containsExactly("a.test", "b.test");

      List<String> got = new ArrayList<>();
      // Leases of 5 s: long enough to see both in process on a loaded CI machine, short enough
      // to wait out below. (With 1 s, a slow first call once let them expire before the count.)
      client.getURLs(GetParams.newBuilder().setCrawlID("DEFAULT").setDelayRequestable(5).build())
          .forEachRemaining(info -> got.add(info.getUrl()));
      assertThat(got).containsExactlyInAnyOrder("http://a.test/", "http://b.test/x");
      assertThat(client.getStats(QueueWithinCrawlParams.getDefaultInstance()).getInProcess())
          .isEqualTo(2);
      await(() -> client.getStats(QueueWithinCrawlParams.getDefaultInstance()).getInProcess() == 0,
          "leases of 5 s expire");

      put(channel, known("http://a.test/"), known("http://b.test/x"));
      assertThat(client.getStats(QueueWithinCrawlParams.getDefaultInstance()).getCountsMap())
          .containsEntry("completed", 2L).containsEntry("service.put.rejected.malformed_url", 1L);
      assertThat(client.listNodes(Empty.getDefaultInstance()).getValuesList())
          .containsExactly("127.0.0.1:" + port);
      assertThat(client.deleteCrawl(DeleteCrawlMessage.getDefaultInstance()).getValue()).isZero();
    } finally {
      if (channel != null) {
        channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
      }
      serve.process().destroy();
    }
    CrawlerJar.Run run = serve.finish();
    assertThat(run.exitCode()).as(run.stderr()).isEqualTo(143);
  }

  static int awaitPort(CrawlerJar.Started serve) throws Exception {
    return awaitPort(serve, 30);
  }

  /** The port {@code serve} printed, waiting up to {@code seconds} for it. */
  static int awaitPort(CrawlerJar.Started serve, int seconds) throws Exception {
    int[] port = {0};
    await(() -> {
      try {
        Matcher m = LISTENING.matcher(Files.readString(serve.stdout()));
        port[0] = m.find() ? Integer.parseInt(m.group(1)) : 0;
      } catch (java.io.IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
      return port[0] != 0 || !serve.process().isAlive();
    }, "serve prints its address", seconds);
    assertThat(port[0]).as("serve died: " + Files.readString(serve.stderr())).isPositive();
    return port[0];
  }

  /** Waits up to 30 s for {@code condition}, looking every 50 ms. */
  static void await(BooleanSupplier condition, String what) {
    await(condition, what, 30);
  }

  private static void await(BooleanSupplier condition, String what, int seconds) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    while (!condition.getAsBoolean()) {
      assertThat(System.nanoTime()).as("within " + seconds + " s: " + what).isLessThan(deadline);
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50));
    }
  }

  private static URLItem known(String url) {
    return FrontierClient.known(url, 0);
  }

  private static List<AckMessage> put(ManagedChannel channel, URLItem... items) {
    return FrontierClient.put(channel, List.of(items));
  }
}
