package dev.sieve.frontier.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sieve.testing.RedisServers;
import java.io.IOException;
import java.time.Duration;
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
}
