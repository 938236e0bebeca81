package dev.sieve.serve;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import crawlercommons.urlfrontier.Urlfrontier.GetParams;
import dev.sieve.frontier.Lease;
import dev.sieve.frontier.Politeness;
import dev.sieve.frontier.QueueKey;
import dev.sieve.frontier.urlfrontier.ServiceFrontier;
import dev.sieve.url.Url;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The crawl's {@link ServiceFrontier} against a real {@code serve} on a free loopback port, both
 * on the fixture's clock: what the crawl loop relies on beyond the frontier contract (the end,
 * retries, host controls, a second process taking expired leases, failures).
 */
class ServiceFrontierOnServeTest {
  private static final Politeness POLITE = new Politeness(Duration.ZERO, 1, Long.MAX_VALUE,
      QueueKey.HOST);

  private final ServeFixture serve = newFixture();
  private final List<ServiceFrontier> opened = new ArrayList<>();

  private static ServeFixture newFixture() {
    try {
      return new ServeFixture();
    } catch (java.io.IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @AfterEach
  void close() throws InterruptedException {
    opened.forEach(ServiceFrontier::disconnect);
    serve.close();
  }

  private ServiceFrontier frontier(String crawlId, Duration lease) {
    ServiceFrontier frontier = ServiceFrontier.connect(
        "urlfrontier://127.0.0.1:" + serve.server.port(), crawlId, POLITE, lease, serve.clock);
    opened.add(frontier);
    return frontier;
  }

  private ServiceFrontier frontier() {
    return frontier("client", Duration.ofSeconds(30));
  }

  @Test
  void take_nothingPendingOrLeased_returnsNull() throws InterruptedException {
    ServiceFrontier frontier = frontier();
    assertThat(frontier.take()).as("a crawl ID the service never saw").isNull();

    frontier.push(url("http://a.example/"), 0, null, null);
    Lease lease = frontier.take();
    assertThat(frontier.isFinished()).as("leased").isFalse();
    assertThat(frontier.stats().inFlight()).isEqualTo(1);
    frontier.complete(lease, Map.of());

    assertThat(frontier.take()).isNull();
    assertThat(frontier.isFinished()).isTrue();
    assertThat(serve.stats("", "client").getCountsMap()).containsEntry("completed", 1L);
  }

  @Test
  void take_leaseOfAProcessThatDied_isHandedToAnotherOnceExpired() throws Exception {
    ServiceFrontier dead = frontier("client", Duration.ofSeconds(5));
    dead.push(url("http://a.example/x"), 3, "http://a.example/", null);
    assertThat(dead.poll().url().toString()).isEqualTo("http://a.example/x");
    ServiceFrontier other = frontier("client", Duration.ofSeconds(5));
    assertThat(other.poll()).as("leased to the first").isNull();

    CompletableFuture<Lease> taken = CompletableFuture.supplyAsync(() -> {
      try {
        return other.take();
      } catch (InterruptedException e) {
        throw new IllegalStateException(e);
      }
    });
    serve.clock.advance(5);
    Lease lease = taken.get(30, TimeUnit.SECONDS);

    assertThat(lease.url().toString()).isEqualTo("http://a.example/x");
    assertThat(lease.depth()).isEqualTo(3);
    assertThat(lease.via()).isEqualTo("http://a.example/");
  }

  @Test
  void retry_isDueAfterItsBackoff_asTheNextAttempt() {
    ServiceFrontier frontier = frontier();
    frontier.push(url("http://a.example/"), 0, null, null);
    frontier.retry(frontier.poll(), Duration.ofMillis(9_500), Map.of());

    assertThat(frontier.poll()).as("backing off").isNull();
    assertThat(frontier.isFinished()).as("due later is not finished").isFalse();
    serve.clock.advance(10);
    Lease again = frontier.poll();

    assertThat(again.url().toString()).isEqualTo("http://a.example/");
    assertThat(again.attempt()).isEqualTo(1);
  }

  @Test
  void putBack_isFirstInItsQueueAgain() {
    ServiceFrontier frontier = frontier();
    frontier.pushAll(List.of(url("http://a.example/1"), url("http://a.example/2")), 1, null);
    Lease first = frontier.poll();
    frontier.putBack(first);

    assertThat(frontier.poll().url().toString()).isEqualTo(first.url().toString());
  }

  @Test
  void push_seenUrl_isNotNew_andPushAllCountsOnlyNewOnes() {
    ServiceFrontier frontier = frontier();

    assertThat(frontier.push(url("http://a.example/"), 0, null, null)).isTrue();
    assertThat(frontier.push(url("http://a.example/"), 0, null, null)).isFalse();
    assertThat(frontier.pushAll(List.of(url("http://a.example/"), url("http://b.example/")), 1, null))
        .isEqualTo(1);
    assertThat(frontier.stats().hosts()).isEqualTo(2);
    assertThat(frontier.stats().pending()).isEqualTo(2);
    assertThat(frontier.stats().approximateSeen()).isEqualTo(2);
  }

  @Test
  void delayHost_blocksTheQueueUntilTheWaitHasPassed() {
    ServiceFrontier frontier = frontier();
    frontier.pushAll(List.of(url("http://a.example/1"), url("http://a.example/2")), 1, null);
    frontier.complete(frontier.poll(), Map.of());
    frontier.delayHost("http://a.example", Duration.ofSeconds(30));

    assertThat(frontier.poll()).isNull();
    serve.clock.advance(30);
    assertThat(frontier.poll().url().toString()).isEqualTo("http://a.example/2");
  }

  @Test
  void setHostDelay_spacesTheQueuesProductions() {
    ServiceFrontier frontier = frontier();
    frontier.pushAll(List.of(url("http://a.example/1"), url("http://a.example/2")), 1, null);
    frontier.setHostDelay("http://a.example", Duration.ofSeconds(4));
    frontier.complete(frontier.poll(), Map.of());

    assertThat(frontier.poll()).as("within the Crawl-delay").isNull();
    serve.clock.advance(4);
    assertThat(frontier.poll()).isNotNull();
  }

  @Test
  void skipHost_deletesItsQueue_andDropsLaterLinksToIt() throws InterruptedException {
    ServiceFrontier frontier = frontier();
    frontier.pushAll(List.of(url("http://a.example/1"), url("http://a.example/2"),
        url("http://a.example/3")), 1, null);
    Lease lease = frontier.poll();

    assertThat(frontier.skipHost(lease.hostKey())).isEqualTo(3);
    frontier.putBack(lease);
    assertThat(frontier.push(url("http://a.example/4"), 1, null, null)).isFalse();
    assertThat(frontier.stats().droppedBySkippedHost()).isEqualTo(4);
    assertThat(frontier.take()).as("nothing left of the skipped host").isNull();
  }

  @Test
  void close_givesBufferedLeasesBack() {
    ServiceFrontier frontier = frontier();
    frontier.pushAll(List.of(url("http://a.example/"), url("http://b.example/")), 0, null);
    Lease held = frontier.poll();

    frontier.close();

    assertThat(frontier.poll()).as("closed").isNull();
    assertThat(frontier.stats().inFlight()).as("only the lease a worker holds").isEqualTo(1);
    assertThat(serve.get(GetParams.newBuilder().setCrawlID("client").build()))
        .as("the other is due at once").hasSize(1).doesNotContain(held.url().toString());
  }

  @Test
  void serviceUnreachable_failsInOneLineNamingTheServiceAndTheRpc() {
    ServiceFrontier frontier = ServiceFrontier.connect("urlfrontier://127.0.0.1:1", "x", POLITE,
        Duration.ofSeconds(30), serve.clock);
    opened.add(frontier);

    assertThatThrownBy(() -> frontier.push(url("http://a.example/"), 0, null, null))
        .isInstanceOf(UncheckedIOException.class)
        .hasMessageStartingWith("URL Frontier at urlfrontier://127.0.0.1:1: PutDiscovered failed (UNAVAILABLE")
        .hasMessageNotContaining("\n");
  }

  @Test
  void connect_notAUrlFrontierUri_namesTheOption() {
    assertThatThrownBy(() -> ServiceFrontier.connect("http://127.0.0.1:7071", "x", POLITE,
        Duration.ofSeconds(30), serve.clock))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("--frontier (http://127.0.0.1:7071) must be urlfrontier://HOST:PORT or"
            + " urlfrontier+tls://HOST:PORT");
  }

  private static Url url(String text) {
    return Url.parse(text).orElseThrow();
  }
}
