package dev.sieve.app;

import static org.assertj.core.api.Assertions.assertThat;

import crawlercommons.urlfrontier.URLFrontierGrpc;
import crawlercommons.urlfrontier.Urlfrontier.AckMessage;
import crawlercommons.urlfrontier.Urlfrontier.CountUrlParams;
import crawlercommons.urlfrontier.Urlfrontier.ListUrlParams;
import crawlercommons.urlfrontier.Urlfrontier.URLItem;
import dev.sieve.serve.FrontierClient;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 27's listing acceptance: ListURLs of 250,000 URLs, half of them completed, returns every
 * one of them from a {@code serve} whose heap (-Xmx64m, exiting on OutOfMemoryError) could not
 * hold the answer built whole (about 300 bytes an item); CountURLs counts the same.
 */
class ServeListingIT {
  private static final int URLS = 250_000;
  private static final int HOSTS = 50;

  @TempDir Path dir;

  @Test
  void listUrls_of250kPendingAndCompleted_streamsEveryOneInA64MiBHeap() throws Exception {
    CrawlerJar.Started serve = new CrawlerJar(dir).heap("64m").start("serve", "--port", "0",
        "--pending-memory", "8388608", "--expected-urls", "300000");
    ManagedChannel channel = ManagedChannelBuilder
        .forAddress("127.0.0.1", ServeIT.awaitPort(serve)).usePlaintext().build();
    try {
      // Even URLs completed (known, no refetch date), odd ones discovered and pending.
      List<URLItem> items = new ArrayList<>();
      for (int i = 0; i < URLS; i++) {
        items.add(i % 2 == 0 ? FrontierClient.known(url(i), 0)
            : FrontierClient.discovered(url(i)));
      }
      long started = System.nanoTime();
      assertThat(FrontierClient.put(channel, items, 300))
          .allMatch(ack -> ack.getStatus() == AckMessage.Status.OK);
      System.out.printf("ServeListingIT: %d puts took %d ms%n", URLS,
          (System.nanoTime() - started) / 1_000_000);
      URLFrontierGrpc.URLFrontierBlockingStub client = URLFrontierGrpc.newBlockingStub(channel)
          .withDeadlineAfter(120, TimeUnit.SECONDS);

      Set<String> listedCompleted = new HashSet<>();
      Set<String> listedPending = new HashSet<>();
      long[] listed = {0};
      client.listURLs(ListUrlParams.newBuilder().setSize(-1).build()) // 2^32 - 1
          .forEachRemaining(item -> {
            listed[0]++;
            String url = item.getKnown().getInfo().getUrl();
            (item.getKnown().getRefetchableFromDate() == 0 ? listedCompleted : listedPending)
                .add(url);
          });
      long count = client.countURLs(CountUrlParams.getDefaultInstance()).getValue();

      assertThat(listed[0]).as("each URL once").isEqualTo(URLS);
      assertThat(listedCompleted).hasSize(URLS / 2).allMatch(url -> index(url) % 2 == 0);
      assertThat(listedPending).hasSize(URLS / 2).allMatch(url -> index(url) % 2 == 1);
      assertThat(count).isEqualTo(URLS);
      assertThat(serve.process().isAlive()).as("serve within its 64 MiB heap").isTrue();
    } finally {
      channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
      serve.process().destroy();
      serve.process().waitFor(30, TimeUnit.SECONDS);
    }
  }

  private static String url(int i) {
    return "http://h" + (i % HOSTS) + ".test/page/" + i;
  }

  private static int index(String url) {
    return Integer.parseInt(url.substring(url.lastIndexOf('/') + 1));
  }
}
