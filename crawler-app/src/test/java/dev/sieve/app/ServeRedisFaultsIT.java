package dev.sieve.app;

import static dev.sieve.serve.FrontierClient.discovered;
import static dev.sieve.serve.FrontierClient.known;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import crawlercommons.urlfrontier.URLFrontierGrpc;
import crawlercommons.urlfrontier.Urlfrontier.AckMessage;
import crawlercommons.urlfrontier.Urlfrontier.GetParams;
import crawlercommons.urlfrontier.Urlfrontier.QueueDelayParams;
import crawlercommons.urlfrontier.Urlfrontier.QueueWithinCrawlParams;
import crawlercommons.urlfrontier.Urlfrontier.URLItem;
import dev.sieve.serve.FrontierClient;
import dev.sieve.testing.RedisServers;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code serve --frontier redis://} under the faults docs/guarantees.md names: a serve node killed
 * with SIGKILL while it holds leases, and the redis-server killed and started again under a node.
 * Real processes: {@code crawler.jar serve} and {@code redis-server} on loopback.
 */
class ServeRedisFaultsIT {
  private static final int QUEUES = 20;
  /** How long node A leases what it gets: the other node hands those URLs out after it. */
  private static final int LEASE_SECONDS = 4;

  @TempDir Path dir;

  @ParameterizedTest(name = "on {0}")
  @ValueSource(strings = {"one server", "a cluster"})
  void nodeKilledDashNine_withUrlsLeased_theOtherHandsThemOutOnceTheLeaseEnds(String redis)
      throws Exception {
    int urls = 2_000;
    try (RedisServers servers = redis.equals("a cluster") ? RedisServers.cluster()
        : RedisServers.standalone()) {
      String uri = redis.equals("a cluster") ? servers.clusterUri() : servers.uri();
      CrawlerJar.Started a = serve("a", uri);
      CrawlerJar.Started b = serve("b", uri);
      ManagedChannel toA = channel(ServeIT.awaitPort(a, 180));
      ManagedChannel toB = channel(ServeIT.awaitPort(b, 180));
      try {
        Set<String> all = new HashSet<>();
        List<URLItem> items = new ArrayList<>();
        for (int i = 0; i < urls; i++) {
          String url = "http://h" + (i % QUEUES) + ".test/page/" + i;
          all.add(url);
          items.add(discovered(url));
        }
        assertThat(FrontierClient.put(toA, items)).hasSize(urls)
            .allMatch(ack -> ack.getStatus() == AckMessage.Status.OK);
        blocking(toA).setDelay(QueueDelayParams.newBuilder().setDelayRequestable(0).build());

        // A leases half the queues' URLs, completes every other one, and dies holding the rest.
        List<String> leasedByA = get(toA, QUEUES / 2, LEASE_SECONDS);
        long leaseEnds = System.currentTimeMillis() + LEASE_SECONDS * 1000L;
        assertThat(leasedByA).isNotEmpty();
        List<URLItem> completions = new ArrayList<>();
        Set<String> completedByA = new HashSet<>();
        for (int i = 0; i < leasedByA.size(); i += 2) {
          completions.add(known(leasedByA.get(i), 0));
          completedByA.add(leasedByA.get(i));
        }
        assertThat(FrontierClient.put(toA, completions))
            .allMatch(ack -> ack.getStatus() == AckMessage.Status.OK);
        a.process().destroyForcibly();
        assertThat(a.process().waitFor(30, TimeUnit.SECONDS)).isTrue();

        // B drains the crawl, completing what it gets, until every URL A did not complete came.
        Map<String, Long> handedOutAt = new HashMap<>();
        List<String> handedOut = new ArrayList<>();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (handedOut.size() < urls - completedByA.size()) {
          assertThat(System.nanoTime()).as("B hands out the rest within 120 s").isLessThan(deadline);
          List<String> got = get(toB, QUEUES, 600);
          long now = System.currentTimeMillis();
          got.forEach(url -> handedOutAt.putIfAbsent(url, now));
          handedOut.addAll(got);
          if (got.isEmpty()) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100)); // A's leases still run
            continue;
          }
          assertThat(FrontierClient.put(toB, got.stream().map(url -> known(url, 0)).toList()))
              .allMatch(ack -> ack.getStatus() == AckMessage.Status.OK);
        }
        assertThat(handedOut).as("no URL handed out twice").doesNotHaveDuplicates()
            .doesNotContainAnyElementsOf(completedByA);
        Set<String> done = new HashSet<>(handedOut);
        done.addAll(completedByA);
        assertThat(done).as("every URL completed once, by A or by B").isEqualTo(all);
        for (String url : leasedByA) {
          if (!completedByA.contains(url)) {
            assertThat(handedOutAt.get(url)).as("%s handed out by B after A's lease", url)
                .isGreaterThanOrEqualTo(leaseEnds - 1_000); // the lease's end is in whole seconds
          }
        }
        assertThat(blocking(toB).getStats(QueueWithinCrawlParams.getDefaultInstance()).getSize())
            .as("nothing pending").isZero();
      } finally {
        toA.shutdownNow();
        toB.shutdownNow();
        a.process().destroy();
        b.process().destroy();
        a.finish();
        b.finish();
      }
    }
  }

  @Test
  void redisKilledAndStartedAgain_serveAnswersUnavailable_thenGoesOnWithEveryUrl()
      throws Exception {
    int urls = 10_000;
    try (RedisServers redis = RedisServers.appendOnly()) {
      CrawlerJar.Started serve = serve("serve", redis.uri());
      ManagedChannel channel = channel(ServeIT.awaitPort(serve, 120));
      try {
        List<URLItem> items = new ArrayList<>();
        for (int i = 0; i < urls; i++) {
          items.add(discovered("http://h" + (i % QUEUES) + ".test/page/" + i));
        }
        assertThat(FrontierClient.put(channel, items))
            .allMatch(ack -> ack.getStatus() == AckMessage.Status.OK);

        redis.kill();
        StatusRuntimeException down = catchThrowableOfType(StatusRuntimeException.class,
            () -> blocking(channel).getStats(QueueWithinCrawlParams.getDefaultInstance()));
        assertThat(down.getStatus().getCode()).isEqualTo(Status.Code.UNAVAILABLE);
        assertThat(down.getStatus().getDescription()).as("names the cause").contains("GetStats")
            .containsIgnoringCase("redis");
        StatusRuntimeException getting = catchThrowableOfType(StatusRuntimeException.class,
            () -> get(channel, QUEUES, 60));
        assertThat(getting.getStatus().getCode()).isEqualTo(Status.Code.UNAVAILABLE);
        Throwable putting = catchThrowable(
            () -> FrontierClient.put(channel, List.of(discovered("http://late.test/1"))));
        assertThat(Status.fromThrowable(putting).getCode()).as("PutURLs ends, nothing acked")
            .isEqualTo(Status.Code.UNAVAILABLE);
        assertThat(Status.fromThrowable(putting).getDescription()).contains("PutURLs")
            .containsIgnoringCase("redis");

        redis.restart();
        long[] size = {-1};
        ServeIT.await(() -> {
          try {
            size[0] = blocking(channel).getStats(QueueWithinCrawlParams.getDefaultInstance())
                .getSize();
            return true;
          } catch (StatusRuntimeException e) {
            return false;
          }
        }, "serve answers again once Redis is back");
        assertThat(size[0]).as("every acked URL is still pending").isEqualTo(urls);
        blocking(channel).setDelay(QueueDelayParams.newBuilder().setDelayRequestable(0).build());
        List<String> handedOut = new ArrayList<>();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (handedOut.size() < urls) {
          assertThat(System.nanoTime()).as("drained within 120 s").isLessThan(deadline);
          handedOut.addAll(get(channel, QUEUES, 600));
        }
        assertThat(handedOut).doesNotHaveDuplicates().hasSize(urls);
      } finally {
        channel.shutdownNow();
        serve.process().destroy();
      }
      String stderr = serve.finish().stderr();
      assertThat(stderr).as("one line per failure, no stack trace").doesNotContain("\tat ")
          .doesNotContain("Exception:");
    }
  }

  private CrawlerJar.Started serve(String name, String redisUri) throws Exception {
    Path home = Files.createDirectories(dir.resolve(name));
    return new CrawlerJar(home).start("serve", "--port", "0", "--frontier", redisUri);
  }

  private static ManagedChannel channel(int port) {
    return ManagedChannelBuilder.forAddress("127.0.0.1", port).usePlaintext().build();
  }

  private static URLFrontierGrpc.URLFrontierBlockingStub blocking(ManagedChannel channel) {
    return URLFrontierGrpc.newBlockingStub(channel).withDeadlineAfter(60, TimeUnit.SECONDS);
  }

  /** One GetURLs call over up to {@code queues} queues, leasing for {@code seconds}. */
  private static List<String> get(ManagedChannel channel, int queues, int seconds) {
    List<String> got = new ArrayList<>();
    blocking(channel).getURLs(GetParams.newBuilder().setMaxQueues(queues)
            .setMaxUrlsPerQueue(1_000).setDelayRequestable(seconds).build())
        .forEachRemaining(info -> got.add(info.getUrl()));
    return got;
  }
}
