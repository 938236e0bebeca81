package dev.sieve.frontier.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.common.base.Ticker;
import dev.sieve.frontier.Lease;
import dev.sieve.frontier.QueueKey;
import dev.sieve.frontier.Sieve;
import dev.sieve.url.Url;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class LocalFrontierTest {
  private static final long SECOND = 1_000_000_000L;
  private final FakeTicker ticker = new FakeTicker();

  @Test
  void poll_oneHost_leasesAtMostOneAtATimeSpacedByTheDelay() {
    LocalFrontier frontier = frontier(Duration.ofSeconds(2), 1);
    for (int i = 0; i < 3; i++) {
      frontier.push(url("http://a.example/" + i), 0, null, null);
    }

    Lease first = frontier.poll();
    assertThat(first.url().toString()).isEqualTo("http://a.example/0");
    assertThat(frontier.poll()).as("one in flight per host").isNull();

    ticker.advance(5 * SECOND);
    frontier.complete(first, Map.of());
    assertThat(frontier.poll()).as("delay runs from completion").isNull();
    assertThat(frontier.nanosUntilReady()).isEqualTo(2 * SECOND);

    ticker.advance(2 * SECOND);
    Lease second = frontier.poll();
    assertThat(second.url().toString()).isEqualTo("http://a.example/1");
  }

  @Test
  void poll_manyHostsRandomCompletions_startsOfOneHostNeverCloserThanTheDelay() {
    long delay = SECOND;
    LocalFrontier frontier = frontier(Duration.ofNanos(delay), 1);
    for (int h = 0; h < 20; h++) {
      for (int i = 0; i < 10; i++) {
        frontier.push(url("http://host" + h + ".example/" + i), 0, null, null);
      }
    }
    Map<String, List<Long>> starts = new HashMap<>();
    List<Lease> inFlight = new ArrayList<>();
    java.util.Random random = new java.util.Random(7);
    while (!frontier.isFinished()) {
      for (Lease lease = frontier.poll(); lease != null; lease = frontier.poll()) {
        starts.computeIfAbsent(lease.hostKey(), k -> new ArrayList<>()).add(ticker.read());
        inFlight.add(lease);
      }
      ticker.advance(random.nextInt(300_000_000));
      if (!inFlight.isEmpty() && random.nextBoolean()) {
        frontier.complete(inFlight.remove(random.nextInt(inFlight.size())), Map.of());
      }
    }

    assertThat(starts).hasSize(20);
    starts.forEach((host, times) -> {
      assertThat(times).hasSize(10);
      for (int i = 1; i < times.size(); i++) {
        assertThat(times.get(i) - times.get(i - 1)).as(host).isGreaterThanOrEqualTo(delay);
      }
    });
  }

  @Test
  void poll_manyHosts_leasesOnePerHostAtOnce() {
    LocalFrontier frontier = frontier(Duration.ofSeconds(1), 1);
    for (int h = 0; h < 50; h++) {
      frontier.push(url("http://host" + h + ".example/a"), 0, null, null);
      frontier.push(url("http://host" + h + ".example/b"), 0, null, null);
    }

    List<Lease> leased = new ArrayList<>();
    for (Lease lease = frontier.poll(); lease != null; lease = frontier.poll()) {
      leased.add(lease);
    }

    assertThat(leased).hasSize(50).extracting(Lease::hostKey).doesNotHaveDuplicates();
    assertThat(frontier.stats().pending()).isEqualTo(50);
    assertThat(frontier.stats().inFlight()).isEqualTo(50);
  }

  @Test
  void poll_perHostLimit_allowsThatManyInFlight() {
    LocalFrontier frontier = frontier(Duration.ZERO, 3);
    for (int i = 0; i < 10; i++) {
      frontier.push(url("http://a.example/" + i), 0, null, null);
    }

    List<Lease> leased = new ArrayList<>();
    for (Lease lease = frontier.poll(); lease != null; lease = frontier.poll()) {
      leased.add(lease);
    }

    assertThat(leased).hasSize(3);
  }

  @Test
  void pushAll_batchWithRepeatsAndSeenUrls_queuesEachNewUrlOnce() {
    LocalFrontier frontier = frontier(Duration.ZERO, 1);
    frontier.push(url("http://a.example/seen"), 0, null, null);

    int added = frontier.pushAll(List.of(url("http://a.example/1"), url("http://b.example/2"),
        url("http://a.example/1"), url("http://a.example/seen")), 1, null);

    assertThat(added).isEqualTo(2);
    assertThat(frontier.stats().pending()).isEqualTo(3);
  }

  @Test
  void pushAll_samePagesFromEightThreads_eachUrlQueuedOnce() throws Exception {
    LocalFrontier frontier = frontier(Duration.ZERO, 1000);
    List<Url> page = new ArrayList<>();
    for (int i = 0; i < 500; i++) {
      page.add(url("http://host" + (i % 7) + ".example/" + i));
    }
    java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(8);
    java.util.concurrent.CountDownLatch start = new java.util.concurrent.CountDownLatch(1);
    List<java.util.concurrent.Future<Integer>> added = new ArrayList<>();
    for (int t = 0; t < 8; t++) {
      added.add(pool.submit(() -> {
        start.await();
        return frontier.pushAll(page, 1, null);
      }));
    }
    start.countDown();
    int total = 0;
    for (java.util.concurrent.Future<Integer> f : added) {
      total += f.get();
    }
    pool.shutdown();

    assertThat(total).isEqualTo(500);
    assertThat(frontier.stats().pending()).isEqualTo(500);
  }

  @Test
  void push_seenUrl_notQueuedAgain() {
    LocalFrontier frontier = frontier(Duration.ZERO, 1);

    assertThat(frontier.push(url("http://a.example/x"), 0, null, null)).isTrue();
    assertThat(frontier.push(url("http://a.example/x"), 3, null, null)).isFalse();
    assertThat(frontier.stats().pending()).isEqualTo(1);
  }

  @Test
  void retry_requeuesFirstAndHoldsTheHostForTheBackoff() {
    LocalFrontier frontier = frontier(Duration.ofSeconds(1), 1);
    frontier.push(url("http://a.example/1"), 0, null, null);
    frontier.push(url("http://a.example/2"), 0, null, null);

    Lease lease = frontier.poll();
    frontier.retry(lease, Duration.ofSeconds(10), Map.of());
    ticker.advance(9 * SECOND);
    assertThat(frontier.poll()).isNull();
    ticker.advance(SECOND);
    Lease again = frontier.poll();

    assertThat(again.url().toString()).isEqualTo("http://a.example/1");
    assertThat(again.attempt()).isEqualTo(1);
  }

  @Test
  void delayHost_retryAfter_holdsOnlyThatHost() {
    LocalFrontier frontier = frontier(Duration.ZERO, 1);
    frontier.push(url("http://slow.example/1"), 0, null, null);
    frontier.push(url("http://fast.example/1"), 0, null, null);

    frontier.delayHost("http://slow.example", Duration.ofSeconds(30));

    assertThat(frontier.poll().hostKey()).isEqualTo("http://fast.example");
    assertThat(frontier.poll()).isNull();
    ticker.advance(30 * SECOND);
    assertThat(frontier.poll().hostKey()).isEqualTo("http://slow.example");
  }

  @Test
  void setHostDelay_crawlDelay_spacesThatHostFurther() {
    LocalFrontier frontier = frontier(Duration.ofSeconds(1), 1);
    frontier.setHostDelay("http://a.example", Duration.ofSeconds(5));
    frontier.push(url("http://a.example/1"), 0, null, null);
    frontier.push(url("http://a.example/2"), 0, null, null);

    frontier.complete(frontier.poll(), Map.of());
    ticker.advance(4 * SECOND);
    assertThat(frontier.poll()).isNull();
    ticker.advance(SECOND);
    assertThat(frontier.poll()).isNotNull();
  }

  @Test
  void skipHost_dropsPendingAndLaterUrlsAndCountsThem() {
    LocalFrontier frontier = frontier(Duration.ZERO, 1);
    frontier.push(url("http://a.example/1"), 0, null, null);
    frontier.push(url("http://a.example/2"), 0, null, null);

    assertThat(frontier.skipHost("http://a.example")).isEqualTo(2);
    assertThat(frontier.push(url("http://a.example/3"), 0, null, null)).isFalse();
    assertThat(frontier.stats().droppedBySkippedHost()).isEqualTo(3);
    assertThat(frontier.isFinished()).isTrue();
  }

  @Test
  void takeAll_leasesTheHostsQueueAtOnceWhateverItsDelay_otherHostsKeepTheirs() {
    LocalFrontier frontier = frontier(Duration.ofSeconds(10), 1);
    for (int i = 0; i < 5; i++) {
      frontier.push(url("http://dead.example/" + i), 0, null, null);
    }
    frontier.push(url("http://live.example/0"), 0, null, null);
    Lease first = frontier.poll();
    assertThat(first.hostKey()).isEqualTo("http://dead.example");

    List<Lease> rest = frontier.takeAll("http://dead.example", 3);

    assertThat(rest).extracting(lease -> lease.url().toString())
        .containsExactly("http://dead.example/1", "http://dead.example/2", "http://dead.example/3");
    assertThat(frontier.stats().inFlight()).isEqualTo(4);
    frontier.complete(first, Map.of());
    rest.forEach(lease -> frontier.complete(lease, Map.of()));
    assertThat(frontier.takeAll("http://dead.example", 100)).extracting(lease -> lease.url().toString())
        .containsExactly("http://dead.example/4");
    assertThat(frontier.poll().hostKey()).isEqualTo("http://live.example");
    assertThat(frontier.takeAll("http://nowhere.example", 100)).isEmpty();
  }

  @Test
  void queueKeyHost_portsOfOneHostAreSeparateQueues() {
    LocalFrontier frontier = frontier(Duration.ofSeconds(1), 1);
    frontier.push(url("http://127.0.0.1:9/a"), 0, null, null);
    frontier.push(url("http://127.0.0.1:18001/a"), 0, null, null);

    assertThat(frontier.poll().hostKey()).isEqualTo("http://127.0.0.1:9");
    assertThat(frontier.poll().hostKey()).as("not held by port 9's delay").isEqualTo("http://127.0.0.1:18001");
    assertThat(frontier.stats().hosts()).isEqualTo(2);
  }

  @Test
  void push_overHostBudget_droppedAndCounted() {
    LocalFrontier frontier = LocalFrontier.builder(Sieve.create(1000, 0.001)).ticker(ticker)
        .politenessDelay(Duration.ZERO).maxUrlsPerHost(2).build();

    frontier.push(url("http://a.example/1"), 0, null, null);
    frontier.push(url("http://a.example/2"), 0, null, null);
    assertThat(frontier.push(url("http://a.example/3"), 0, null, null)).isFalse();
    assertThat(frontier.push(url("http://b.example/1"), 0, null, null)).isTrue();
    assertThat(frontier.stats().droppedByHostBudget()).isEqualTo(1);
  }

  @Test
  void queueKeyDomain_subdomainsShareOnePolitenessQueue() {
    LocalFrontier frontier = LocalFrontier.builder(Sieve.create(1000, 0.001)).ticker(ticker)
        .politenessDelay(Duration.ofSeconds(1)).queueKey(QueueKey.DOMAIN).build();
    frontier.push(url("http://a.example.co.uk/"), 0, null, null);
    frontier.push(url("http://b.example.co.uk/"), 0, null, null);

    assertThat(frontier.poll().hostKey()).isEqualTo("example.co.uk:80");
    assertThat(frontier.poll()).isNull();
  }

  @Test
  void queueKeyIp_hostNamesOfOneAddressShareOnePolitenessQueue() {
    LocalFrontier frontier = LocalFrontier.builder(Sieve.create(1000, 0.001)).ticker(ticker)
        .politenessDelay(Duration.ofSeconds(1)).queueKey(QueueKey.IP).build();
    // Two spellings of one address (an IPv4-mapped IPv6 literal resolves to the IPv4 address),
    // so no DNS is needed.
    frontier.push(url("http://127.0.0.1:8080/a"), 0, null, null);
    frontier.push(url("http://[::ffff:7f00:1]:8080/b"), 0, null, null);

    assertThat(frontier.poll().hostKey()).isEqualTo("127.0.0.1:8080");
    assertThat(frontier.poll()).as("the second waits for the shared delay").isNull();
    assertThat(frontier.stats().hosts()).isEqualTo(1);
  }

  @Test
  void take_finished_returnsNullToEveryWorker() throws InterruptedException {
    LocalFrontier frontier = frontier(Duration.ZERO, 1);
    frontier.push(url("http://a.example/1"), 0, null, null);

    Lease lease = frontier.take();
    frontier.complete(lease, Map.of());

    assertThat(frontier.take()).isNull();
    assertThat(frontier.isFinished()).isTrue();
  }

  @Test
  void complete_leaseFromElsewhere_refused() {
    LocalFrontier frontier = frontier(Duration.ZERO, 1);
    Lease stranger = new Lease(Lease.stored("http://a.example/"), 0, "a.example", 0, List.of());

    assertThatThrownBy(() -> frontier.complete(stranger, Map.of())).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void build_badSettings_messageNamesTheValue() {
    Sieve sieve = Sieve.create(10, 0.1);
    assertThatThrownBy(() -> LocalFrontier.builder(sieve).maxInFlightPerHost(0).build())
        .hasMessage("maxInFlightPerHost (0) must be >= 1");
    assertThatThrownBy(() -> LocalFrontier.builder(sieve).politenessDelay(Duration.ofMillis(-1)).build())
        .hasMessage("politenessDelay (PT-0.001S) must be >= 0");
  }

  private LocalFrontier frontier(Duration delay, int perHost) {
    return LocalFrontier.builder(Sieve.create(10_000, 0.001))
        .ticker(ticker)
        .politenessDelay(delay)
        .maxInFlightPerHost(perHost)
        .build();
  }

  private static Url url(String url) {
    return Url.parse(url).orElseThrow();
  }

  /** A ticker the test moves by hand. */
  static final class FakeTicker extends Ticker {
    private final AtomicLong nanos = new AtomicLong(1_000 * SECOND);

    @Override
    public long read() {
      return nanos.get();
    }

    void advance(long delta) {
      nanos.addAndGet(delta);
    }
  }
}
