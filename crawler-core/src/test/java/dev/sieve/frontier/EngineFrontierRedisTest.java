package dev.sieve.frontier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sieve.frontier.queue.QueueSettings;
import dev.sieve.frontier.redis.PatientCrawlStore;
import dev.sieve.frontier.redis.RedisStore;
import dev.sieve.testing.CapturedLogs;
import dev.sieve.testing.MillisClock;
import dev.sieve.testing.RedisServers;
import dev.sieve.url.Url;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/**
 * The crawl's {@link EngineFrontier} over the engine's Redis store, against a real redis-server
 * and a three-master Redis Cluster: two frontiers in one JVM stand for two crawler processes
 * sharing a crawl ID.
 */
class EngineFrontierRedisTest {
  private static RedisServers redis;
  private static RedisServers cluster;
  private final List<EngineFrontier> opened = new CopyOnWriteArrayList<>();

  @BeforeAll
  static void startRedis() throws IOException {
    redis = RedisServers.standalone();
    cluster = RedisServers.cluster();
  }

  @AfterAll
  static void stopRedis() {
    if (redis != null) {
      redis.close();
    }
    if (cluster != null) {
      cluster.close();
    }
  }

  @AfterEach
  void disconnect() {
    opened.forEach(EngineFrontier::disconnect);
  }

  /** A process of crawl {@code crawlId} in the Redis at {@code uri}, on {@code clock}. */
  private EngineFrontier open(String uri, String crawlId, long expected, double fpp,
      Politeness politeness, Duration lease, Clock clock) {
    PatientCrawlStore crawl = RedisStore.openCrawl(uri,
        new QueueSettings(expected, fpp, politeness.delay(), 1 << 20, null, null), 20, crawlId,
        Duration.ZERO, () -> false);
    EngineFrontier frontier = new EngineFrontier(crawl, politeness, lease, clock,
        Duration.ofMillis(5), crawl::outages, crawl::close);
    opened.add(frontier);
    return frontier;
  }

  private EngineFrontier open(String crawlId) {
    return open(redis.uri(), crawlId, 100_000, 1e-6, Politeness.DEFAULT.withDelay(Duration.ZERO),
        Duration.ofSeconds(120), Clock.systemUTC());
  }

  private static String id(TestInfo info) {
    return info.getTestMethod().orElseThrow().getName() + "-" + System.nanoTime();
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
    assertExactlyOnce(open(crawl), open(crawl), urls(3000, 20));
  }

  @Test
  void pushAll_inRedisCluster_sameUrlsThroughTwoProcesses_admitsEachExactlyOnce(TestInfo info)
      throws Exception {
    String crawl = id(info);
    Politeness politeness = Politeness.DEFAULT.withDelay(Duration.ZERO);
    EngineFrontier a = open(cluster.clusterUri(), crawl, 20_000, 1e-6, politeness,
        Duration.ofSeconds(120), Clock.systemUTC());
    EngineFrontier b = open(cluster.clusterUri(), crawl, 20_000, 1e-6, politeness,
        Duration.ofSeconds(120), Clock.systemUTC());
    assertExactlyOnce(a, b, urls(3000, 40));
  }

  @Test
  void pushAll_sameUrlsFrom16ThreadsWhileTheFilterGrows_admitsEachExactlyOnce(TestInfo info)
      throws Exception {
    String crawl = id(info);
    Politeness politeness = Politeness.DEFAULT.withDelay(Duration.ZERO);
    EngineFrontier a = open(redis.uri(), crawl, 300, 1e-6, politeness, Duration.ofSeconds(120),
        Clock.systemUTC());
    EngineFrontier b = open(redis.uri(), crawl, 300, 1e-6, politeness, Duration.ofSeconds(120),
        Clock.systemUTC());
    assertExactlyOnce(a, b, urls(3000, 20));
    assertThat(a.stats().seenLayers()).isGreaterThanOrEqualTo(3).isEqualTo(b.stats().seenLayers());
  }

  @Test
  void push_tenTimesCapacityFromTwoProcesses_growsLayersAndKeepsMeasuredRateNearTarget(
      TestInfo info) {
    String crawl = id(info);
    Politeness politeness = Politeness.DEFAULT.withDelay(Duration.ZERO);
    List<EngineFrontier> processes = List.of(
        open(redis.uri(), crawl, 1000, 0.01, politeness, Duration.ofSeconds(120), Clock.systemUTC()),
        open(redis.uri(), crawl, 1000, 0.01, politeness, Duration.ofSeconds(120), Clock.systemUTC()));
    pushRoundRobin(processes, distinct("seen", 10_000));
    int probes = 20_000;
    double measured = 1 - (double) pushRoundRobin(processes, distinct("probe", probes)) / probes;
    assertThat(measured).isLessThan(0.015);
    assertThat(processes.get(0).stats().seenLayers()).isGreaterThanOrEqualTo(5);
    assertThat(processes.get(1).stats().seenFpp()).isLessThan(0.0105);
    assertThat(processes.get(1).stats().approximateSeen()).isBetween(28_500L, 31_500L);
  }

  @Test
  void push_pastCapacityFromTwoProcesses_logsEachThresholdOnce(TestInfo info) {
    String crawl = id(info);
    Politeness politeness = Politeness.DEFAULT.withDelay(Duration.ZERO);
    EngineFrontier a = open(redis.uri(), crawl, 200, 0.01, politeness, Duration.ofSeconds(120),
        Clock.systemUTC());
    EngineFrontier b = open(redis.uri(), crawl, 200, 0.01, politeness, Duration.ofSeconds(120),
        Clock.systemUTC());
    List<String> warnings;
    try (CapturedLogs logs = new CapturedLogs(Sieve.CAPACITY_LOGGER)) {
      pushRoundRobin(List.of(a, b), distinct("seen", 330));
      warnings = logs.messages().stream()
          .filter(m -> m.startsWith("Sieve capacity exceeded:")).toList();
    }
    assertThat(warnings).hasSize(2);
    assertThat(warnings.get(0)).contains("100% of capacity 200").contains("The filter grows");
    assertThat(warnings.get(1)).contains("150% of capacity 200");
  }

  /** {@code count} distinct URLs named with {@code tag}, over 50 hosts. */
  private static List<Url> distinct(String tag, int count) {
    List<Url> urls = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      urls.add(url("http://h" + (i % 50) + ".example/" + tag + "/" + i));
    }
    return urls;
  }

  /** Pushes {@code urls} in batches of 50, round-robin over {@code processes}; returns queued. */
  private static int pushRoundRobin(List<? extends Frontier> processes, List<Url> urls) {
    int queued = 0;
    for (int i = 0, p = 0; i < urls.size(); i += 50, p++) {
      queued += processes.get(p % processes.size())
          .pushAll(urls.subList(i, Math.min(urls.size(), i + 50)), 1, null);
    }
    return queued;
  }

  /** 16 threads push every URL, in their own order and batches; each is queued and leased once. */
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
            queued.addAndGet(frontier.pushAll(mine.subList(i, Math.min(mine.size(), i + 37)), 1,
                null));
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
  }

  @Test
  void take_acrossTwoProcesses_keepsEachHostsOrderOfPuts(TestInfo info) throws Exception {
    String crawl = id(info);
    // Each put a millisecond after the last: the engine orders a queue by due time.
    AtomicLong millis = new AtomicLong(System.currentTimeMillis());
    Clock ticking = new MillisClock(millis::incrementAndGet);
    Politeness politeness = Politeness.DEFAULT.withDelay(Duration.ZERO);
    EngineFrontier a = open(redis.uri(), crawl, 100_000, 1e-6, politeness,
        Duration.ofSeconds(120), ticking);
    EngineFrontier b = open(redis.uri(), crawl, 100_000, 1e-6, politeness,
        Duration.ofSeconds(120), ticking);
    List<Url> all = urls(60, 3);
    for (int i = 0; i < all.size(); i++) {
      (i < 30 ? a : b).push(all.get(i), 0, null, null);
    }
    Map<String, List<String>> order = new HashMap<>();
    for (int i = 0; ; i++) {
      EngineFrontier frontier = i % 2 == 0 ? a : b;
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
    Politeness politeness = Politeness.DEFAULT.withDelay(Duration.ZERO);
    EngineFrontier dead = open(redis.uri(), crawl, 100_000, 1e-6, politeness,
        Duration.ofMillis(300), Clock.systemUTC());
    EngineFrontier alive = open(crawl);
    dead.push(url("http://a.example/1"), 0, null, null);
    dead.push(url("http://a.example/2"), 0, null, null);
    Lease lost = dead.take();
    // The dead process never gives it back; the live one takes the other, then it once expired.
    List<String> taken = new ArrayList<>();
    Lease lease;
    while ((lease = alive.take()) != null) {
      taken.add(lease.url().toString());
      alive.complete(lease, Map.of());
    }
    assertThat(taken).containsExactlyInAnyOrder("http://a.example/1", "http://a.example/2");
    assertThat(lost.url().toString()).isIn(taken);
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
    // The time each take asked the engine at, by thread: a lease's time is its take's last read.
    ThreadLocal<Long> lastRead = new ThreadLocal<>();
    Clock recording = new MillisClock(() -> {
      long now = System.currentTimeMillis();
      lastRead.set(now);
      return now;
    });
    Politeness politeness = Politeness.DEFAULT.withDelay(Duration.ofMillis(delayMs));
    EngineFrontier a = open(redis.uri(), crawl, 100_000, 1e-6, politeness,
        Duration.ofSeconds(120), recording);
    EngineFrontier b = open(redis.uri(), crawl, 100_000, 1e-6, politeness,
        Duration.ofSeconds(120), recording);
    a.pushAll(urls(24, 2), 0, null);
    Map<String, List<Long>> leasedAt = new ConcurrentHashMap<>();
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Future<Integer>> workers = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        EngineFrontier frontier = t % 2 == 0 ? a : b;
        workers.add(pool.submit(() -> {
          int done = 0;
          Lease lease;
          while ((lease = frontier.take()) != null) {
            leasedAt.computeIfAbsent(lease.hostKey(), h -> new CopyOnWriteArrayList<>())
                .add(lastRead.get());
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
    EngineFrontier a = open(crawl);
    EngineFrontier b = open(crawl);
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
  void push_pastTheHostBudget_isRefusedOnceAndCountedInEveryProcess(TestInfo info) {
    String crawl = id(info);
    Politeness politeness = Politeness.DEFAULT.withDelay(Duration.ZERO).withMaxUrlsPerHost(3);
    EngineFrontier a = open(redis.uri(), crawl, 100_000, 1e-6, politeness,
        Duration.ofSeconds(120), Clock.systemUTC());
    EngineFrontier b = open(redis.uri(), crawl, 100_000, 1e-6, politeness,
        Duration.ofSeconds(120), Clock.systemUTC());
    assertThat(a.pushAll(urls(4, 1), 1, null)).isEqualTo(3);
    assertThat(b.pushAll(urls(6, 1), 1, null)).as("two more over the budget, four seen").isZero();
    assertThat(b.stats().droppedByHostBudget()).isEqualTo(3);
    assertThat(a.stats().pending()).isEqualTo(3);
  }

  @Test
  void skipHost_dropsItsUrlsAndRefusesItsNewOnesInEveryProcess(TestInfo info) {
    String crawl = id(info);
    EngineFrontier a = open(crawl);
    EngineFrontier b = open(crawl);
    a.pushAll(List.of(url("http://a.example/1"), url("http://a.example/2"),
        url("http://a.example/3")), 0, null);
    Lease first = a.poll();
    a.push(url("http://b.example/1"), 0, null, null);

    int dropped = a.skipHost(first.hostKey());

    assertThat(dropped).as("those waiting, not the one leased").isEqualTo(2);
    assertThat(b.push(url("http://a.example/new"), 1, null, null)).isFalse();
    a.complete(first, Map.of());
    assertThat(b.stats().droppedBySkippedHost()).as("two waiting, one new").isEqualTo(3);
    assertThat(b.poll().url().toString()).isEqualTo("http://b.example/1");
    assertThat(a.poll()).isNull();
  }

  @Test
  void open_withRedisUnreachable_saysSoInOneLine() throws IOException {
    int port;
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = socket.getLocalPort();
    }
    String uri = "redis://127.0.0.1:" + port;
    assertThatThrownBy(() -> Frontiers.open(FrontierSettings.builder()
        .redis(uri, "x", Duration.ofSeconds(1), 2).build()))
        .isInstanceOf(FrontierStoreException.class)
        .hasMessageStartingWith("cannot reach Redis at " + uri + ": ")
        .hasMessageNotContaining("\n");
  }
}
