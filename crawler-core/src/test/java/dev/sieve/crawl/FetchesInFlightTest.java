package dev.sieve.crawl;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sieve.url.Url;
import java.io.IOException;
import java.net.InetAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Fetches in flight follow the hosts that are ready, up to {@code maxInFlight}, whatever the
 * threads for parsing; a slow host holds only its own; a host's connection outlives its
 * politeness delay. Each host is a server on its own loopback address (127.0.1.N).
 */
class FetchesInFlightTest {
  private static final Duration WAIT = Duration.ofSeconds(30);

  private final List<MockWebServer> servers = new ArrayList<>();
  private final List<PageRecord> records = new CopyOnWriteArrayList<>();
  /** A permit per record. */
  private final Semaphore recorded = new Semaphore(0);
  private final ExecutorService background = Executors.newSingleThreadExecutor();

  @AfterEach
  void stop() {
    background.shutdownNow();
    servers.forEach(MockWebServer::close);
  }

  @Test
  void fetchesInFlight_growWithReadyHosts_notWithThreads() throws Exception {
    Held held = new Held(6);
    List<Url> seeds = hosts(6, held);

    Future<CrawlProgress> crawl = crawl(config(seeds).threads(1).maxInFlight(100));

    assertThat(held.reached.await(WAIT.toSeconds(), TimeUnit.SECONDS))
        .as("all 6 hosts fetched at once with 1 thread for parsing").isTrue();
    held.release.countDown();
    CrawlProgress summary = crawl.get(WAIT.toSeconds(), TimeUnit.SECONDS);
    assertThat(summary.pages()).isEqualTo(6);
    assertThat(held.most.get()).isEqualTo(6);
    assertThat(summary.connections().mostFetching()).isEqualTo(6);
  }

  @Test
  void fetchesInFlight_neverAboveMaxInFlight() throws Exception {
    Held held = new Held(3);
    List<Url> seeds = hosts(8, held);

    Future<CrawlProgress> crawl = crawl(config(seeds).maxInFlight(3));

    assertThat(held.reached.await(WAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();
    held.release.countDown();
    CrawlProgress summary = crawl.get(WAIT.toSeconds(), TimeUnit.SECONDS);
    assertThat(summary.pages()).isEqualTo(8);
    assertThat(held.most.get()).as("requests waiting at once on the servers").isEqualTo(3);
    assertThat(summary.connections().mostFetching()).isEqualTo(3);
  }

  @Test
  void slowHost_holdsOnlyItsOwnSlot_otherHostsFinish() throws Exception {
    Held slow = new Held(1);
    Url slowSeed = hosts(1, slow).get(0);
    List<Url> fast = hosts(3, null);
    List<Url> seeds = new ArrayList<>(fast);
    seeds.add(slowSeed);

    Future<CrawlProgress> crawl = crawl(config(seeds).maxInFlight(2));

    assertThat(slow.reached.await(WAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();
    // Every page of the fast hosts (5 each, linked in a chain) is recorded while the slow one
    // still holds its fetch, through the one slot left.
    awaitRecords(15);
    assertThat(records).extracting(PageRecord::url)
        .noneMatch(url -> url.startsWith(slowSeed.origin()));
    slow.release.countDown();
    CrawlProgress summary = crawl.get(WAIT.toSeconds(), TimeUnit.SECONDS);
    assertThat(summary.pages()).isEqualTo(16);
  }

  @Test
  void connection_keptAcrossPolitenessDelay_onePerHost() throws Exception {
    MockWebServer server = server(1, null);
    Url seed = Url.parse("http://" + host(1) + ":" + server.getPort() + "/p/0.html").orElseThrow();

    CrawlProgress summary = crawl(config(List.of(seed)).politenessDelay(Duration.ofMillis(300)))
        .get(WAIT.toSeconds(), TimeUnit.SECONDS);

    assertThat(summary.pages()).isEqualTo(5);
    List<Integer> connections = new ArrayList<>();
    while (server.getRequestCount() > connections.size()) {
      connections.add(server.takeRequest().getConnectionIndex());
    }
    assertThat(connections).as("robots.txt and 5 pages, each 300 ms after the last")
        .hasSize(6).containsOnly(0);
    assertThat(summary.connections().opened()).isEqualTo(1);
    assertThat(summary.connections().reused()).isEqualTo(5);
  }

  /** Holds each page request until released, counting those held at once. */
  private static final class Held {
    final CountDownLatch reached;
    final CountDownLatch release = new CountDownLatch(1);
    final AtomicInteger now = new AtomicInteger();
    final AtomicInteger most = new AtomicInteger();

    Held(int expected) {
      this.reached = new CountDownLatch(expected);
    }

    void hold() throws InterruptedException {
      most.accumulateAndGet(now.incrementAndGet(), Math::max);
      reached.countDown();
      try {
        release.await(WAIT.toSeconds(), TimeUnit.SECONDS);
      } finally {
        now.decrementAndGet();
      }
    }
  }

  private CrawlConfig.Builder config(List<Url> seeds) {
    return CrawlConfig.builder()
        .seeds(seeds)
        .threads(2)
        .politenessDelay(Duration.ZERO)
        .expectedUrls(10_000)
        .robots(r -> r.respect(true));
  }

  private Future<CrawlProgress> crawl(CrawlConfig.Builder config) {
    Crawler crawler = Crawler.open(config.build(), new CrawlListener() {
      @Override
      public void onPage(PageRecord record) {
        records.add(record);
        recorded.release();
      }
    });
    return background.submit(crawler::run);
  }

  private void awaitRecords(int count) throws InterruptedException {
    assertThat(recorded.tryAcquire(count, WAIT.toSeconds(), TimeUnit.SECONDS))
        .as(count + " records").isTrue();
  }

  /**
   * {@code count} hosts on addresses of their own: with {@code held}, one page waiting on it;
   * without, pages 0-4 (0 links 1, …) answered at once.
   */
  private List<Url> hosts(int count, Held held) throws IOException {
    List<Url> seeds = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      int n = servers.size() + 1;
      MockWebServer server = server(n, held);
      seeds.add(Url.parse("http://" + host(n) + ":" + server.getPort() + "/p/0.html").orElseThrow());
    }
    return seeds;
  }

  private static String host(int n) {
    return "127.0.1." + n;
  }

  /** A host of one page waiting on {@code held}, or of 5 answered at once (null). */
  private MockWebServer server(int n, Held held) throws IOException {
    MockWebServer server = new MockWebServer();
    server.setDispatcher(new Dispatcher() {
      @Override
      public MockResponse dispatch(RecordedRequest request) throws InterruptedException {
        String path = request.getUrl().encodedPath();
        if (!path.startsWith("/p/")) {
          return new MockResponse.Builder().code(404).build();
        }
        if (held != null) {
          held.hold();
        }
        int page = Integer.parseInt(path.substring(3, path.indexOf('.')));
        String next = held == null && page < 4 ? "<a href=\"/p/" + (page + 1) + ".html\">next</a>" : "";
        return new MockResponse.Builder().code(200)
            .setHeader("Content-Type", "text/html; charset=utf-8")
            .body("<html><body>" + next + "</body></html>").build();
      }
    });
    server.start(InetAddress.getByName(host(n)), 0);
    servers.add(server);
    return server;
  }
}
