package dev.sieve.frontier.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sieve.frontier.Frontier;
import dev.sieve.frontier.Sieve;
import dev.sieve.testing.CapturedLogs;
import dev.sieve.testing.RedisServers;
import dev.sieve.url.Url;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/**
 * On-capacity grow in Redis: the filter adds layers that every process sharing the crawl agrees
 * on, and the measured false-positive rate stays near the target however far past capacity.
 */
class RedisGrowTest {
  private static RedisServers redis;
  private final List<RedisFrontier> opened = new CopyOnWriteArrayList<>();

  @BeforeAll
  static void startRedis() throws IOException {
    redis = RedisServers.standalone();
  }

  @AfterAll
  static void stopRedis() {
    Optional.ofNullable(redis).ifPresent(RedisServers::close);
  }

  @AfterEach
  void disconnect() {
    opened.forEach(RedisFrontier::disconnect);
  }

  private RedisFrontier open(String crawl, long expected, double fpp, boolean grow) {
    RedisFrontier frontier = RedisFrontier.builder().uri(redis.uri()).crawlId(crawl)
        .expectedUrls(expected).falsePositiveRate(fpp).growOnCapacity(grow)
        .politenessDelay(Duration.ZERO).connections(20).build();
    opened.add(frontier);
    return frontier;
  }

  private static String id(TestInfo info) {
    return info.getTestMethod().orElseThrow().getName() + "-" + System.nanoTime();
  }

  /** {@code count} distinct URLs named with {@code tag}, over 50 hosts. */
  static List<Url> distinct(String tag, int count) {
    List<Url> urls = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      urls.add(RedisFrontierTest.url("http://h" + (i % 50) + ".example/" + tag + "/" + i));
    }
    return urls;
  }

  /** Pushes {@code urls} in batches of 50, round-robin over {@code processes}; returns queued. */
  static int pushRoundRobin(List<? extends Frontier> processes, List<Url> urls) {
    int queued = 0;
    for (int i = 0, p = 0; i < urls.size(); i += 50, p++) {
      queued += processes.get(p % processes.size())
          .pushAll(urls.subList(i, Math.min(urls.size(), i + 50)), 1, null);
    }
    return queued;
  }

  /** The share of never-seen URLs the crawl reports as seen: its measured false-positive rate. */
  static double measuredFpp(List<? extends Frontier> processes, int probes) {
    int queued = pushRoundRobin(processes, distinct("probe", probes));
    return 1 - (double) queued / probes;
  }

  @Test
  void push_tenTimesCapacityFromThreeProcesses_growsLayersAndKeepsMeasuredRateNearTarget(
      TestInfo info) {
    String crawl = id(info);
    List<RedisFrontier> processes = List.of(open(crawl, 1000, 0.01, true),
        open(crawl, 1000, 0.01, true), open(crawl, 1000, 0.01, true));
    List<String> warnings;
    double measured;
    try (CapturedLogs logs = new CapturedLogs(Sieve.CAPACITY_LOGGER)) {
      pushRoundRobin(processes, distinct("seen", 10_000));
      measured = measuredFpp(processes, 20_000);
      warnings = logs.messages().stream()
          .filter(m -> m.startsWith("Sieve capacity exceeded:")).toList();
    }
    // 1,000 + 2,000 + 4,000 + 8,000 + 16,000 hold 30,000 URLs: at least 5 layers.
    int layers = processes.get(0).status().layers();
    assertThat(layers).isGreaterThanOrEqualTo(5);
    for (RedisFrontier process : processes) {
      assertThat(process.status().layers()).isEqualTo(layers);
      assertThat(process.status().grows()).isTrue();
    }
    assertThat(measured).isLessThan(0.015);
    assertThat(processes.get(1).stats().seenFpp()).isLessThan(0.0105);
    assertThat(processes.get(2).stats().approximateSeen()).isBetween(28_500L, 31_500L);
    assertThat(warnings).isNotEmpty().doesNotHaveDuplicates()
        .allMatch(w -> w.contains("of capacity 1,000") && w.contains("The filter grows ("));
  }

  @Test
  void push_tenTimesCapacityWithoutGrow_measuredRateClimbsFarPastTarget(TestInfo info) {
    String crawl = id(info);
    List<RedisFrontier> processes = List.of(open(crawl, 1000, 0.01, false),
        open(crawl, 1000, 0.01, false));
    pushRoundRobin(processes, distinct("seen", 10_000));
    assertThat(measuredFpp(processes, 2_000)).isGreaterThan(0.5);
    assertThat(processes.get(0).status().layers()).isEqualTo(1);
  }

  @Test
  void pushAll_sameUrlsFrom16ThreadsWhileTheFilterGrows_admitsEachExactlyOnce(TestInfo info)
      throws Exception {
    String crawl = id(info);
    RedisFrontier a = open(crawl, 300, 1e-6, true);
    RedisFrontier b = open(crawl, 300, 1e-6, true);
    RedisFrontierTest.assertExactlyOnce(a, b, RedisFrontierTest.urls(3000, 20));
    assertThat(a.status().layers()).isGreaterThanOrEqualTo(3).isEqualTo(b.status().layers());
  }

  @Test
  void build_joiningWithOtherOnCapacity_isRefusedNamingIt(TestInfo info) {
    String crawl = id(info);
    open(crawl, 1000, 0.01, true);
    assertThatThrownBy(() -> open(crawl, 1000, 0.01, false))
        .isInstanceOf(RedisFrontierException.class)
        .hasMessageContaining("on-capacity grow (this process: warn)");
  }
}
