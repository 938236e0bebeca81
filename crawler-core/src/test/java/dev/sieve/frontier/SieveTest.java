package dev.sieve.frontier;

import static dev.sieve.testing.SyntheticUrls.url;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import dev.sieve.bloom.BlockedBloomFilter;
import dev.sieve.bloom.BloomFilter;
import dev.sieve.bloom.Hash128;
import dev.sieve.bloom.MembershipFilter;
import dev.sieve.testing.CapturedLogs;
import dev.sieve.testing.Concurrently;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;

class SieveTest {
  private static ExecutorService pool;

  @BeforeAll
  static void startPool() {
    pool = Executors.newFixedThreadPool(16);
  }

  @AfterAll
  static void stopPool() {
    pool.shutdownNow();
  }

  @Test
  void push_newUrl_enqueuedAndPoppedInOrder() {
    SieveQueue sieve = SieveQueue.create(1000, 0.001);

    assertThat(sieve.push("https://a.example/1")).isTrue();
    assertThat(sieve.push("https://a.example/2", 3)).isTrue();
    assertThat(sieve.pending()).isEqualTo(2);

    assertThat(sieve.pop()).contains(new PendingUrl("https://a.example/1", 0));
    assertThat(sieve.pop()).contains(new PendingUrl("https://a.example/2", 3));
    assertThat(sieve.pop()).isEmpty();
    assertThat(sieve.pending()).isZero();
  }

  @Test
  void push_seenUrl_droppedEvenAfterItWasPopped() {
    SieveQueue sieve = SieveQueue.create(1000, 0.001);
    sieve.push("https://a.example/");
    sieve.pop();

    assertThat(sieve.push("https://a.example/")).isFalse();
    assertThat(sieve.pending()).isZero();
    assertThat(sieve.mightHaveSeen("https://a.example/")).isTrue();
    assertThat(sieve.approximateSeen()).isEqualTo(1);
  }

  @RepeatedTest(25)
  void push_sameUrlsFromSixteenThreads_eachEnqueuedExactlyOnce() throws Exception {
    SieveQueue sieve = SieveQueue.create(1_000_000, 1e-6);
    int urls = 5_000;
    int accepted = pushFromSixteenThreads(sieve, urls);

    Set<String> popped = new HashSet<>();
    int pops = 0;
    for (Optional<PendingUrl> next = sieve.pop(); next.isPresent(); next = sieve.pop()) {
      popped.add(next.get().url());
      pops++;
    }
    assertThat(accepted).isEqualTo(urls);
    assertThat(pops).isEqualTo(urls);
    assertThat(popped).hasSize(urls);
  }

  @Test
  void admitAll_batchWithRepeatsAndASeenUrl_marksEachNewUrlOnce() {
    SieveQueue sieve = SieveQueue.create(1000, 0.001);
    sieve.admit("https://a.example/seen");
    boolean[] isNew = new boolean[4];

    int added = sieve.admitAll(List.of("https://a.example/1", "https://a.example/seen",
        "https://a.example/1", "https://a.example/2"), isNew);

    assertThat(added).isEqualTo(2);
    assertThat(isNew).containsExactly(true, false, false, true);
    assertThat(sieve.pending()).as("admitting queues nothing here").isZero();
  }

  @RepeatedTest(10)
  void admitAll_samePagesFromSixteenThreads_eachUrlAdmittedExactlyOnce() throws Exception {
    SieveQueue sieve = SieveQueue.create(1_000_000, 1e-6);
    int urls = 3_000;

    assertThat(admitSamePagesFromSixteenThreads(sieve, urls)).isEqualTo(urls);
  }

  @RepeatedTest(5)
  void admitAll_overClassicFilterSamePagesFromSixteenThreads_eachUrlAdmittedExactlyOnce()
      throws Exception {
    // The classic filter's put is not exactly-once by itself: the Sieve locks for it.
    SieveQueue sieve = SieveQueue.over(BloomFilter.create(1_000_000, 1e-6), 1e-6, warning -> {});
    int urls = 3_000;

    assertThat(admitSamePagesFromSixteenThreads(sieve, urls)).isEqualTo(urls);
  }

  /** Sixteen threads admit the same pages of 50 of {@code urls} URLs; the URLs admitted as new. */
  private static int admitSamePagesFromSixteenThreads(SieveQueue sieve, int urls)
      throws Exception {
    return Concurrently.sum(pool, 16, thread -> {
      int mine = 0;
      for (int from = 0; from < urls; from += 50) {
        List<String> page = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
          page.add(url(0, (from + i + thread * 50) % urls));
        }
        mine += sieve.admitAll(page, new boolean[page.size()]);
      }
      return mine;
    });
  }

  @Test
  void mightHaveSeen_byHash_agreesWithAdmitByHash() {
    SieveQueue sieve = SieveQueue.create(1000, 0.001);
    Hash128 hash = Hash128.of("https://a.example/");

    assertThat(sieve.mightHaveSeen(hash)).isFalse();
    assertThat(sieve.admit(hash)).isTrue();
    assertThat(sieve.mightHaveSeen(hash)).isTrue();
    assertThat(sieve.mightHaveSeen("https://a.example/")).as("the same key as the String").isTrue();
    assertThat(sieve.admit("https://a.example/")).isFalse();
  }

  @Test
  void push_badArguments_refusedBeforeTheUrlIsMarkedSeen() {
    SieveQueue sieve = SieveQueue.create(1000, 0.01);

    assertThatThrownBy(() -> sieve.push("https://a.example/", -1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("depth (-1) must be >= 0");
    assertThatThrownBy(() -> sieve.push(null, 0)).isInstanceOf(NullPointerException.class);
    assertThat(sieve.mightHaveSeen("https://a.example/")).isFalse();
    assertThat(sieve.push("https://a.example/", 1)).isTrue();
  }

  @Test
  void create_default_isTheBlockedFilterDefaultFilterBuilds() {
    SieveQueue sieve = SieveQueue.create(1_000_000, 0.01);
    MembershipFilter filter = Sieve.defaultFilter(1_000_000, 0.01);

    assertThat(filter).isInstanceOf(BlockedBloomFilter.class);
    assertThat(sieve.filterBits()).isEqualTo(filter.bitSize());
    assertThat(sieve.capacity()).isEqualTo(1_000_000);
  }

  @RepeatedTest(5)
  void push_overClassicFilterFromSixteenThreads_eachEnqueuedExactlyOnce() throws Exception {
    SieveQueue sieve = SieveQueue.over(BloomFilter.create(1_000_000, 1e-6), 1e-6, warning -> {});
    int urls = 5_000;

    int accepted = pushFromSixteenThreads(sieve, urls);

    assertThat(accepted).isEqualTo(urls);
    assertThat(sieve.pending()).isEqualTo(urls);
  }

  @Test
  void push_pastCapacity_warnsOncePerThreshold() {
    List<CapacityWarning> warnings = new ArrayList<>();
    try (CapturedLogs logs = new CapturedLogs(Sieve.CAPACITY_LOGGER)) {
      SieveQueue sieve = SieveQueue.create(1000, 0.01, warnings::add);
      for (int i = 0; i < 3_500; i++) {
        sieve.push(url(0, i));
      }

      assertThat(warnings).extracting(CapacityWarning::threshold).containsExactly(1.0, 1.5, 2.0, 3.0);
      assertThat(sieve.capacityWarnings()).isEqualTo(4);
      assertThat(logs.events()).hasSize(4).allMatch(e -> e.getLevel() == Level.WARN);
      assertThat(logs.messages())
          .allMatch(m -> m.startsWith("Sieve capacity exceeded:"))
          .allMatch(m -> m.contains("capacity 1,000") && m.contains("(target 0.0100)"));
      assertThat(logs.messages().get(0)).contains("100% of capacity");
      assertThat(logs.messages().get(3)).contains("300% of capacity");
      CapacityWarning first = warnings.get(0);
      assertThat(first.estimatedCount()).isBetween(1000L, 1030L);
      // The default (blocked) filter for 1,000 URLs rounds up to 20 whole 512-bit blocks, so at
      // capacity its rate is a little under the target.
      assertThat(first.estimatedFpp()).isBetween(0.008, 0.012);
      assertThat(warnings.get(3).estimatedFpp()).isGreaterThan(0.1);
    }
  }

  @Test
  void push_belowCapacity_neverWarns() {
    try (CapturedLogs logs = new CapturedLogs(Sieve.CAPACITY_LOGGER)) {
      SieveQueue sieve = SieveQueue.create(10_000, 0.01);
      for (int i = 0; i < 9_000; i++) {
        sieve.push(url(0, i));
      }
      assertThat(logs.events()).isEmpty();
      assertThat(sieve.capacityWarnings()).isZero();
    }
  }

  @RepeatedTest(10)
  void push_pastCapacityFromEightThreads_eachThresholdLoggedOnce() throws Exception {
    List<CapacityWarning> warnings = new CopyOnWriteArrayList<>();
    try (CapturedLogs logs = new CapturedLogs(Sieve.CAPACITY_LOGGER)) {
      SieveQueue sieve = SieveQueue.create(2_000, 0.01, warnings::add);
      CountDownLatch start = new CountDownLatch(1);
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < 8; t++) {
        int stream = t;
        done.add(pool.submit(() -> {
          start.await();
          for (int i = 0; i < 875; i++) {
            sieve.push(url(stream, i));
          }
          return null;
        }));
      }
      start.countDown();
      for (Future<?> f : done) {
        f.get();
      }

      // 7,000 URLs into a filter for 2,000: the estimate passes 100%, 150%, 200% and 300%.
      assertThat(warnings).extracting(CapacityWarning::threshold).containsExactlyInAnyOrder(1.0, 1.5, 2.0, 3.0);
      assertThat(logs.events()).extracting(ILoggingEvent::getLevel).containsOnly(Level.WARN).hasSize(4);
    }
  }

  /** Pushes the same {@code urls} URLs from 16 threads at once; returns how many were enqueued. */
  private static int pushFromSixteenThreads(SieveQueue sieve, int urls) throws Exception {
    return pushFromSixteenThreads(pool, sieve, urls);
  }

  /** As above, on the threads of {@code pool} (16 or more); also for SieveOverFilterVariantsTest. */
  static int pushFromSixteenThreads(ExecutorService pool, SieveQueue sieve, int urls) throws Exception {
    return Concurrently.sum(pool, 16, thread -> {
      int mine = 0;
      for (int i = 0; i < urls; i++) {
        if (sieve.push(url(0, (i + thread * 313) % urls))) {
          mine++;
        }
      }
      return mine;
    });
  }
}
