package dev.sieve.frontier.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sieve.frontier.Lease;
import dev.sieve.testing.RedisServers;
import dev.sieve.url.Url;
import java.io.IOException;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** {@link RedisFrontier} against a three-master Redis Cluster, filter segments over many slots. */
class RedisClusterFrontierTest {
  private static RedisServers cluster;

  @BeforeAll
  static void startCluster() throws IOException {
    cluster = RedisServers.cluster();
  }

  @AfterAll
  static void stopCluster() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void pushAll_sameUrlsFrom16ThreadsThroughTwoProcesses_admitsEachExactlyOnce() throws Exception {
    // 8-block segments: the filter spans dozens of keys, in slots on all three masters.
    RedisFrontierBuilder builder = RedisFrontier.builder().uri(cluster.clusterUri())
        .crawlId("cluster-" + System.nanoTime()).expectedUrls(20_000).falsePositiveRate(1e-6)
        .politenessDelay(Duration.ZERO).segmentBits(8 * 512).connections(20);
    RedisFrontier a = builder.build();
    RedisFrontier b = builder.build();
    try {
      assertThat(a.status().segments()).isGreaterThan(30);
      RedisFrontierTest.assertExactlyOnce(a, b, RedisFrontierTest.urls(3000, 20));
    } finally {
      a.disconnect();
      b.disconnect();
    }
  }

  /** Processes of one new crawl with small segments and a 300 ms lease (stale intents). */
  private static RedisFrontierBuilder crawl(String name) {
    return RedisFrontier.builder().uri(cluster.clusterUri()).crawlId(name + "-" + System.nanoTime())
        .expectedUrls(20_000).falsePositiveRate(1e-6).politenessDelay(Duration.ZERO)
        .segmentBits(8 * 512).leaseDuration(Duration.ofMillis(300)).connections(20);
  }

  /** Takes and completes every URL until the crawl ends, counting each URL's leases. */
  private static Map<String, Integer> drain(RedisFrontier frontier) throws InterruptedException {
    Map<String, Integer> taken = new HashMap<>();
    for (Lease lease = frontier.take(); lease != null; lease = frontier.take()) {
      taken.merge(lease.url().toString(), 1, Integer::sum);
      frontier.complete(lease, Map.of());
    }
    return taken;
  }

  private static List<String> texts(List<Url> urls) {
    return urls.stream().map(Url::toString).toList();
  }

  @Test
  void push_tenTimesCapacityFromTwoProcesses_growsLayersAndKeepsMeasuredRateNearTarget() {
    RedisFrontierBuilder builder = crawl("grow").expectedUrls(500).falsePositiveRate(0.01);
    RedisFrontier a = builder.build();
    RedisFrontier b = builder.build();
    try {
      RedisGrowTest.pushRoundRobin(List.of(a, b), RedisGrowTest.distinct("seen", 5_000));
      double measured = RedisGrowTest.measuredFpp(List.of(a, b), 10_000);
      assertThat(measured).isLessThan(0.015);
      assertThat(a.status().layers()).isGreaterThanOrEqualTo(5).isEqualTo(b.status().layers());
      assertThat(b.stats().seenFpp()).isLessThan(0.0105);
    } finally {
      a.disconnect();
      b.disconnect();
    }
  }

  @Test
  void pushAll_sameUrlsFrom16ThreadsWhileTheFilterGrows_admitsEachExactlyOnce() throws Exception {
    RedisFrontierBuilder builder = crawl("grow-once").expectedUrls(150);
    RedisFrontier a = builder.build();
    RedisFrontier b = builder.build();
    try {
      RedisFrontierTest.assertExactlyOnce(a, b, RedisFrontierTest.urls(1500, 20));
      assertThat(a.status().layers()).isGreaterThanOrEqualTo(3).isEqualTo(b.status().layers());
    } finally {
      a.disconnect();
      b.disconnect();
    }
  }

  @Test
  void pushAll_killedBetweenFilterAndQueueStep_losesNoUrl() throws Exception {
    RedisFrontierBuilder builder = crawl("killed");
    RedisFrontier dying = builder.afterFilterStep(() -> {
      throw new IllegalStateException("killed between the filter and the queue step");
    }).build();
    RedisFrontier survivor = builder.afterFilterStep(() -> {}).build();
    try {
      List<Url> links = RedisFrontierTest.urls(200, 7);
      assertThatThrownBy(() -> dying.pushAll(links, 1, null)).hasMessageContaining("killed");
      dying.disconnect();
      // The filter has them and no queue does: a push of the same links queues nothing.
      assertThat(survivor.pushAll(links, 1, null)).isZero();
      assertThat(survivor.stats().pending()).isZero();
      assertThat(survivor.isFinished()).isFalse();
      Map<String, Integer> taken = drain(survivor);
      assertThat(taken.keySet()).containsExactlyInAnyOrderElementsOf(texts(links));
      assertThat(taken.values()).containsOnly(1);
      CrawlStatus status = survivor.status();
      assertThat(status.recoveredUrls()).isEqualTo(200);
      assertThat(status.lateUrls()).isZero();
      assertThat(survivor.isFinished()).isTrue();
    } finally {
      dying.disconnect();
      survivor.disconnect();
    }
  }

  @Test
  void pushAll_stalledBetweenStepsPastItsLease_isRecoveredOnceAndQueuesNothingTwice()
      throws Exception {
    RedisFrontierBuilder builder = crawl("stalled");
    CountDownLatch filtered = new CountDownLatch(1);
    CountDownLatch recovered = new CountDownLatch(1);
    RedisFrontier slow = builder.afterFilterStep(() -> {
      filtered.countDown();
      try {
        recovered.await(60, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }).build();
    RedisFrontier other = builder.afterFilterStep(() -> {}).build();
    try {
      List<Url> links = RedisFrontierTest.urls(120, 4);
      CompletableFuture<Integer> push = CompletableFuture.supplyAsync(() -> slow.pushAll(links, 1, null));
      assertThat(filtered.await(60, TimeUnit.SECONDS)).isTrue();
      Lease first = other.take(); // waits until the intent is stale, then recovers it
      assertThat(first).isNotNull();
      recovered.countDown();
      // Intents go stale one segment at a time: the recovery may have taken only some of them;
      // the push queues the rest, and none twice.
      int queuedByPush = push.get(60, TimeUnit.SECONDS);
      other.complete(first, Map.of());
      Map<String, Integer> taken = drain(other);
      taken.merge(first.url().toString(), 1, Integer::sum);
      assertThat(taken.keySet()).containsExactlyInAnyOrderElementsOf(texts(links));
      assertThat(taken.values()).containsOnly(1);
      CrawlStatus status = other.status();
      assertThat(status.recoveredUrls()).isPositive().isEqualTo(120 - queuedByPush);
      assertThat(status.lateUrls()).isEqualTo(status.recoveredUrls());
    } finally {
      slow.disconnect();
      other.disconnect();
    }
  }
}
