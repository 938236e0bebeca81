package dev.sieve.frontier.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sieve.frontier.Frontier;
import dev.sieve.frontier.Lease;
import dev.sieve.frontier.Sieve;
import dev.sieve.testing.CapturedLogs;
import dev.sieve.testing.RedisServers;
import dev.sieve.url.Url;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/**
 * {@link RedisFrontier} against a real redis-server: two instances in one JVM stand for two
 * crawler processes sharing a crawl.
 */
class RedisFrontierTest {
  private static RedisServers redis;
  private final List<RedisFrontier> opened = new CopyOnWriteArrayList<>();

  @BeforeAll
  static void startRedis() throws IOException {
    redis = RedisServers.standalone();
  }

  @AfterAll
  static void stopRedis() {
    if (redis != null) {
      redis.close();
    }
  }

  @org.junit.jupiter.api.AfterEach
  void disconnect() {
    opened.forEach(RedisFrontier::disconnect);
  }

  private RedisFrontierBuilder builder(String crawlId) {
    return RedisFrontier.builder().uri(redis.uri()).crawlId(crawlId)
        .expectedUrls(100_000).falsePositiveRate(1e-6).politenessDelay(Duration.ZERO)
        .connections(20);
  }

  private RedisFrontier open(RedisFrontierBuilder builder) {
    RedisFrontier frontier = builder.build();
    opened.add(frontier);
    return frontier;
  }

  private static String id(TestInfo info) {
    return info.getTestMethod().orElseThrow().getName().replaceAll("[^A-Za-z0-9]", "-")
        + "-" + System.nanoTime();
  }

  static Url url(String text) {
    return Url.parse(text).orElseThrow();
  }

  static List<Url> urls(int count, int hosts) {
    List<Url> urls = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      urls.add(url("http://h" + (i % hosts) + ".example/p/" + i));
    }
    return urls;
  }

  @Test
  void pushAll_sameUrlsFrom16ThreadsThroughTwoProcesses_admitsEachExactlyOnce(TestInfo info)
      throws Exception {
    String crawl = id(info);
    RedisFrontier a = open(builder(crawl));
    RedisFrontier b = open(builder(crawl));
    assertExactlyOnce(a, b, urls(3000, 20));
  }

  /** 16 threads push every URL, in their own order and batches; each is queued once. */
  static void assertExactlyOnce(Frontier a, Frontier b, List<Url> all) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(16);
    AtomicInteger queued = new AtomicInteger();
    try {
      List<Future<?>> futures = new ArrayList<>();
      for (int t = 0; t < 16; t++) {
        Frontier frontier = t % 2 == 0 ? a : b;
        List<Url> mine = new ArrayList<>(all);
        Collections.shuffle(mine, new Random(t));
        futures.add(pool.submit(() -> {
          for (int i = 0; i < mine.size(); i += 37) {
            queued.addAndGet(frontier.pushAll(mine.subList(i, Math.min(mine.size(), i + 37)), 1, null));
          }
        }));
      }
      for (Future<?> future : futures) {
        future.get(120, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }
    assertThat(queued.get()).isEqualTo(all.size());
    assertThat(a.stats().pending()).isEqualTo(all.size());
    Map<String, Integer> taken = new HashMap<>();
    for (int i = 0; ; i++) {
      Frontier frontier = i % 2 == 0 ? a : b;
      Lease lease = frontier.poll();
      if (lease == null) {
        break;
      }
      taken.merge(lease.url().toString(), 1, Integer::sum);
      frontier.complete(lease, Map.of());
    }
    assertThat(taken).hasSize(all.size());
    assertThat(taken.values()).containsOnly(1);
    assertThat(a.isFinished()).isTrue();
    assertThat(b.take()).isNull();
    assertThat(a.stats().approximateSeen()).isBetween((long) (all.size() * 0.97), (long) (all.size() * 1.03));
  }

  @Test
  void takeAll_leasesOneHostsQueueAtOnceWhateverItsDelay_givenBackLikeAnyLease(TestInfo info)
      throws Exception {
    RedisFrontier frontier = open(builder(id(info)).politenessDelay(Duration.ofHours(1)));
    frontier.pushAll(urls(10, 2), 0, null);
    Lease first = frontier.poll();
    String host = first.hostKey();

    List<Lease> rest = frontier.takeAll(host, 3);

    assertThat(rest).hasSize(3).extracting(Lease::hostKey).containsOnly(host);
    assertThat(rest).extracting(lease -> lease.url().toString()).doesNotContain(first.url().toString());
    assertThat(frontier.stats().inFlight()).isEqualTo(4);
    frontier.complete(first, Map.of());
    rest.forEach(lease -> frontier.complete(lease, Map.of()));
    assertThat(frontier.takeAll(host, 100)).hasSize(1).allSatisfy(lease -> frontier.complete(lease, Map.of()));
    assertThat(frontier.takeAll(host, 100)).isEmpty();
    assertThat(frontier.stats().pending()).isEqualTo(5);
    assertThat(frontier.poll().hostKey()).as("the other host is untouched").isNotEqualTo(host);
  }

  @Test
  void take_acrossTwoProcesses_keepsEachHostsOrder(TestInfo info) throws Exception {
    String crawl = id(info);
    RedisFrontier a = open(builder(crawl));
    RedisFrontier b = open(builder(crawl));
    List<Url> all = urls(60, 3);
    a.pushAll(all.subList(0, 30), 0, null);
    b.pushAll(all.subList(30, 60), 0, null);
    Map<String, List<String>> order = new HashMap<>();
    for (int i = 0; ; i++) {
      RedisFrontier frontier = i % 2 == 0 ? a : b;
      Lease lease = frontier.take();
      if (lease == null) {
        break;
      }
      order.computeIfAbsent(lease.hostKey(), h -> new ArrayList<>()).add(lease.url().toString());
      frontier.complete(lease, Map.of());
    }
    assertThat(order).hasSize(3);
    for (int h = 0; h < 3; h++) {
      List<String> expected = new ArrayList<>();
      for (Url url : all) {
        if (url.host().equals("h" + h + ".example")) {
          expected.add(url.toString());
        }
      }
      assertThat(order.get("http://h" + h + ".example")).containsExactlyElementsOf(expected);
    }
  }

  @Test
  void take_afterAProcessDiesHoldingALease_requeuesItsUrlOnExpiry(TestInfo info) throws Exception {
    String crawl = id(info);
    RedisFrontier dead = open(builder(crawl).leaseDuration(Duration.ofMillis(300)));
    RedisFrontier alive = open(builder(crawl));
    dead.push(url("http://a.example/1"), 0, null, null);
    dead.push(url("http://a.example/2"), 0, null, null);
    Lease lost = dead.take();
    assertThat(lost.url().toString()).isEqualTo("http://a.example/1");
    // The dead process never gives it back; the live one takes /2, then /1 once the lease expires.
    List<String> taken = new ArrayList<>();
    Lease lease;
    while ((lease = alive.take()) != null) {
      taken.add(lease.url().toString());
      alive.complete(lease, Map.of());
    }
    assertThat(taken).containsExactlyInAnyOrder("http://a.example/1", "http://a.example/2");
    assertThat(alive.status().expiredLeases()).isEqualTo(1);
    assertThat(alive.isFinished()).isTrue();
    // The dead process's late give-back is harmless: the URL is neither queued nor counted again.
    dead.complete(lost, Map.of());
    assertThat(alive.stats().pending()).isZero();
    assertThat(alive.stats().inFlight()).isZero();
  }

  @Test
  void take_byTwoProcesses_neverLeasesAHostCloserThanTheDelay(TestInfo info) throws Exception {
    String crawl = id(info);
    long delayMs = 60;
    Map<String, List<Long>> leasedAt = new ConcurrentHashMap<>();
    RedisFrontierBuilder builder = builder(crawl).politenessDelay(Duration.ofMillis(delayMs))
        .pollInterval(Duration.ofMillis(5))
        .onLease((host, millis) -> leasedAt.computeIfAbsent(host, h -> new CopyOnWriteArrayList<>())
            .add(millis));
    RedisFrontier a = open(builder);
    RedisFrontier b = open(builder);
    a.pushAll(urls(24, 2), 0, null);
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Future<Integer>> workers = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        RedisFrontier frontier = t % 2 == 0 ? a : b;
        workers.add(pool.submit(() -> {
          int done = 0;
          Lease lease;
          while ((lease = frontier.take()) != null) {
            frontier.complete(lease, Map.of());
            done++;
          }
          return done;
        }));
      }
      int done = 0;
      for (Future<Integer> worker : workers) {
        done += worker.get(60, TimeUnit.SECONDS);
      }
      assertThat(done).isEqualTo(24);
    } finally {
      pool.shutdownNow();
    }
    assertThat(leasedAt).hasSize(2);
    for (List<Long> times : leasedAt.values()) {
      List<Long> sorted = new ArrayList<>(times);
      Collections.sort(sorted);
      assertThat(sorted).hasSize(12);
      for (int i = 1; i < sorted.size(); i++) {
        assertThat(sorted.get(i) - sorted.get(i - 1)).as("gap before lease %d", i)
            .isGreaterThanOrEqualTo(delayMs);
      }
    }
  }

  @Test
  void take_whileAnotherProcessHoldsALease_waitsThenEndsInBoth(TestInfo info) throws Exception {
    String crawl = id(info);
    RedisFrontier a = open(builder(crawl));
    RedisFrontier b = open(builder(crawl));
    a.push(url("http://a.example/"), 0, null, null);
    Lease lease = b.take();
    CompletableFuture<Lease> waiting = CompletableFuture.supplyAsync(() -> {
      try {
        return a.take();
      } catch (InterruptedException e) {
        throw new IllegalStateException(e);
      }
    });
    // Not finished while b holds its lease: b may still find links.
    assertThatThrownBy(() -> waiting.get(300, TimeUnit.MILLISECONDS))
        .isInstanceOf(TimeoutException.class);
    assertThat(a.isFinished()).isFalse();
    b.pushAll(List.of(url("http://a.example/next")), 1, null);
    b.complete(lease, Map.of());
    Lease next = waiting.get(10, TimeUnit.SECONDS);
    assertThat(next.url().toString()).isEqualTo("http://a.example/next");
    a.complete(next, Map.of());
    assertThat(b.take()).isNull();
    assertThat(a.take()).isNull();
    assertThat(a.isFinished()).isTrue();
  }

  @Test
  void push_pastCapacityFromTwoProcesses_logsEachThresholdOnce(TestInfo info) throws Exception {
    String crawl = id(info);
    RedisFrontier a = open(builder(crawl).expectedUrls(200).falsePositiveRate(0.01)
        .growOnCapacity(false));
    RedisFrontier b = open(builder(crawl).expectedUrls(200).falsePositiveRate(0.01)
        .growOnCapacity(false));
    try (CapturedLogs logs = new CapturedLogs(Sieve.CAPACITY_LOGGER)) {
      List<Url> all = urls(330, 5);
      for (int i = 0; i < all.size(); i += 10) {
        (i % 20 == 0 ? a : b).pushAll(all.subList(i, i + 10), 0, null);
      }
      List<String> warnings = logs.messages().stream()
          .filter(m -> m.startsWith("Sieve capacity exceeded:")).toList();
      assertThat(warnings).hasSize(2);
      assertThat(warnings.get(0)).contains("100% of capacity 200");
      assertThat(warnings.get(1)).contains("150% of capacity 200");
    }
    assertThat(a.stats().capacityWarnings()).isEqualTo(2);
    assertThat(b.stats().capacityWarnings()).isEqualTo(2);
    assertThat(a.stats().seenFpp()).isGreaterThan(0.01);
  }

  @Test
  void build_joiningWithOtherSettings_isRefusedNamingThem(TestInfo info) {
    String crawl = id(info);
    open(builder(crawl).expectedUrls(1000));
    assertThatThrownBy(() -> open(builder(crawl).expectedUrls(2000)))
        .isInstanceOf(RedisFrontierException.class)
        .hasMessageContaining("crawl '" + crawl + "' in Redis was created with")
        .hasMessageContaining("expected-urls 1000 (this process: 2000)");
    assertThatThrownBy(() -> open(builder(crawl).expectedUrls(1000).politenessDelay(Duration.ofMillis(5))))
        .hasMessageContaining("delay-ms 0 (this process: 5)");
  }

  @Test
  void build_withRedisUnreachable_saysSoInOneLine() throws IOException {
    int port;
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = socket.getLocalPort();
    }
    assertThatThrownBy(() -> RedisFrontier.builder().uri("redis://127.0.0.1:" + port)
        .crawlId("x").build())
        .isInstanceOf(RedisFrontierException.class)
        .hasMessageStartingWith("cannot reach Redis at redis://127.0.0.1:" + port + ": ")
        .hasMessageNotContaining("\n");
  }

  @Test
  void builder_badValues_areNamed() {
    assertThatThrownBy(() -> RedisFrontier.builder().uri("http://x").crawlId("c").build())
        .hasMessageContaining("frontier (http://x) must be local, redis://");
    assertThatThrownBy(() -> RedisFrontier.builder().uri("redis://h:1").crawlId("a b").build())
        .hasMessageContaining("crawl-id (a b)");
    assertThatThrownBy(() -> RedisFrontier.builder().uri("redis://h:1").crawlId("c")
        .maxInFlightPerHost(0).build())
        .hasMessageContaining("maxInFlightPerHost (0)");
  }

  @Test
  void entry_roundTripsDepthAttemptAndChain() {
    String entry = QueueEntry.encode("http://a.example/x", 3, 2, List.of("http://a/1", "http://a/2"),
        null, null);
    Lease lease = QueueEntry.decode(entry, "a.example");
    assertThat(lease).isEqualTo(new Lease(Lease.stored("http://a.example/x"), 3, "a.example", 2,
        List.of("http://a/1", "http://a/2")));
    assertThat(new HashSet<>(Set.of(lease))).contains(lease);
  }

  @Test
  void entry_roundTripsViaAndLastmod() {
    java.time.Instant lastmod = java.time.Instant.parse("2025-03-04T05:06:07.123456789Z");
    Lease link = new Lease(Lease.stored("http://a.example/x"), 1, "a.example", 0, List.of(),
        "http://a.example/page", lastmod);
    Lease redirected = new Lease(Lease.stored("http://a.example/y"), 1, "a.example", 1,
        List.of("http://a/1", "http://a/2"), "http://a/2", null);
    assertThat(QueueEntry.decode(QueueEntry.encode(link), "a.example")).usingRecursiveComparison()
        .isEqualTo(link);
    assertThat(QueueEntry.decode(QueueEntry.encode(redirected), "a.example"))
        .usingRecursiveComparison().isEqualTo(redirected);
    assertThat(QueueEntry.encode(redirected)).endsWith("\t<");
    assertThat(QueueEntry.encode(link)).contains("\t<17:page\t");
  }

  @Test
  void entry_writtenBeforeReferrersWereKept_readsWithNoViaOrLastmod() {
    Lease lease = QueueEntry.decode("1\t2\thttp://a.example/x\thttp://a/1", "a.example");
    assertThat(lease.redirectChain()).containsExactly("http://a/1");
    assertThat(lease.via()).isNull();
    assertThat(lease.lastmod()).isNull();
  }
}
