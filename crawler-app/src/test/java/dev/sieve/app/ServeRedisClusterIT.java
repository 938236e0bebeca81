package dev.sieve.app;

import static dev.sieve.serve.FrontierClient.discovered;
import static org.assertj.core.api.Assertions.assertThat;

import crawlercommons.urlfrontier.URLFrontierGrpc;
import crawlercommons.urlfrontier.Urlfrontier.AckMessage;
import crawlercommons.urlfrontier.Urlfrontier.Empty;
import crawlercommons.urlfrontier.Urlfrontier.GetParams;
import crawlercommons.urlfrontier.Urlfrontier.Pagination;
import crawlercommons.urlfrontier.Urlfrontier.QueueWithinCrawlParams;
import crawlercommons.urlfrontier.Urlfrontier.URLInfo;
import crawlercommons.urlfrontier.Urlfrontier.URLItem;
import dev.sieve.serve.FrontierClient;
import dev.sieve.testing.RedisServers;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two {@code crawler.jar serve} processes share one frontier on a real three-master Redis Cluster
 * ({@code --frontier redis-cluster://…}): URLs put through either node, some through both, are
 * each handed out exactly once between them, and the crawl's keys lie on every master.
 */
class ServeRedisClusterIT {
  private static final int QUEUES = 60;
  private static final int URLS = 3_000;

  @TempDir Path dir;

  @Test
  void twoServeNodes_onARedisCluster_handOutEveryUrlExactlyOnce() throws Exception {
    try (RedisServers cluster = RedisServers.cluster()) {
      CrawlerJar.Started a = new CrawlerJar(dir.resolve("a"))
          .start("serve", "--port", "0", "--frontier", cluster.clusterUri());
      CrawlerJar.Started b = new CrawlerJar(dir.resolve("b"))
          .start("serve", "--port", "0", "--frontier", cluster.clusterUri());
      List<ManagedChannel> channels = new ArrayList<>();
      ExecutorService getters = Executors.newFixedThreadPool(2);
      try {
        ManagedChannel toA = channel(ServeIT.awaitPort(a), channels);
        ManagedChannel toB = channel(ServeIT.awaitPort(b), channels);
        List<URLItem> first = new ArrayList<>();
        List<URLItem> second = new ArrayList<>();
        Set<String> all = new HashSet<>();
        for (int i = 0; i < URLS; i++) {
          String url = "http://h" + (i % QUEUES) + ".test/page/" + i;
          all.add(url);
          (i % 2 == 0 ? first : second).add(discovered(url));
          if (i % 10 == 0) {
            (i % 2 == 0 ? second : first).add(discovered(url)); // put through both nodes
          }
        }
        Future<List<AckMessage>> acksA = getters.submit(() -> FrontierClient.put(toA, first));
        Future<List<AckMessage>> acksB = getters.submit(() -> FrontierClient.put(toB, second));
        List<AckMessage> acks = new ArrayList<>(acksA.get(120, TimeUnit.SECONDS));
        acks.addAll(acksB.get(120, TimeUnit.SECONDS));
        assertThat(acks).hasSize(URLS + URLS / 10);
        assertThat(acks.stream().filter(ack -> ack.getStatus() == AckMessage.Status.OK))
            .as("each URL admitted once, whichever node it came through").hasSize(URLS);
        assertThat(acks.stream().filter(ack -> ack.getStatus() == AckMessage.Status.SKIPPED))
            .hasSize(URLS / 10);
        assertThat(blocking(toB).listQueues(Pagination.newBuilder().setSize(1000).build())
            .getValuesList()).as("B lists the queues put through A too").hasSize(QUEUES);
        assertThat(blocking(toA).getStats(QueueWithinCrawlParams.getDefaultInstance()).getSize())
            .isEqualTo(URLS);

        List<String> gotA = Collections.synchronizedList(new ArrayList<>());
        List<String> gotB = Collections.synchronizedList(new ArrayList<>());
        Future<?> drainA = getters.submit(drain(toA, gotA, gotB));
        Future<?> drainB = getters.submit(drain(toB, gotB, gotA));
        drainA.get(180, TimeUnit.SECONDS);
        drainB.get(180, TimeUnit.SECONDS);

        List<String> handedOut = new ArrayList<>(gotA);
        handedOut.addAll(gotB);
        assertThat(handedOut).as("no URL handed out twice").doesNotHaveDuplicates();
        assertThat(Set.copyOf(handedOut)).as("every URL handed out").isEqualTo(all);
        assertThat(gotA).as("node A handed out some").isNotEmpty();
        assertThat(gotB).as("node B handed out some").isNotEmpty();
        for (int port : cluster.ports()) {
          assertThat(dbsize(port)).as("keys on the master at port %d", port).isPositive();
        }
      } finally {
        getters.shutdownNow();
        for (ManagedChannel channel : channels) {
          channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        }
        a.process().destroy();
        b.process().destroy();
        a.finish();
        b.finish();
      }
    }
  }

  private static ManagedChannel channel(int port, List<ManagedChannel> channels) {
    ManagedChannel channel = ManagedChannelBuilder.forAddress("127.0.0.1", port).usePlaintext()
        .build();
    channels.add(channel);
    return channel;
  }

  private static URLFrontierGrpc.URLFrontierBlockingStub blocking(ManagedChannel channel) {
    return URLFrontierGrpc.newBlockingStub(channel).withDeadlineAfter(60, TimeUnit.SECONDS);
  }

  /** Gets 50 URLs a call (leased 10 minutes) until both nodes together had every URL. */
  private static Callable<Void> drain(ManagedChannel channel, List<String> mine,
      List<String> theirs) {
    return () -> {
      GetParams params = GetParams.newBuilder().setMaxUrlsPerQueue(5).setMaxQueues(10)
          .setDelayRequestable(600).build();
      while (mine.size() + theirs.size() < URLS) {
        List<String> got = new ArrayList<>();
        blocking(channel).getURLs(params).forEachRemaining((URLInfo info) -> got.add(info.getUrl()));
        mine.addAll(got);
        if (got.isEmpty() && mine.size() + theirs.size() < URLS) {
          LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50)); // queues wait out their delay
        }
      }
      return null;
    };
  }

  private static long dbsize(int port) throws Exception {
    Process cli = new ProcessBuilder("redis-cli", "-h", "127.0.0.1", "-p", Integer.toString(port),
        "DBSIZE").redirectErrorStream(true).start();
    String out = new String(cli.getInputStream().readAllBytes()).strip();
    cli.waitFor(30, TimeUnit.SECONDS);
    return Long.parseLong(out);
  }
}
