package dev.sieve.frontier;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sieve.bloom.MembershipFilter;
import dev.sieve.frontier.local.LocalFrontier;
import dev.sieve.serve.FrontierServer;
import dev.sieve.serve.ServeSettings;
import dev.sieve.testing.RedisServers;
import dev.sieve.url.Url;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * What every {@link Frontier} keeps of a URL besides the URL: its referrer ({@code via}) and its
 * sitemap {@code lastmod}, from push to lease, through retries, and across a restart (the local
 * frontier's snapshot with spilled URLs and the journal after it; a second process on the same
 * Redis crawl, or on the same crawl of a URL Frontier service, here an in-process {@code serve} on a
 * free loopback port).
 */
class FrontierContractTest {
  private static final Instant LASTMOD = Instant.parse("2025-06-01T12:30:00.5Z");
  private static RedisServers redis;
  private static FrontierServer service;

  @TempDir Path dir;
  private final List<Runnable> cleanup = new CopyOnWriteArrayList<>();

  /**
   * The frontiers under test: every store {@link Frontiers#open} makes (memory, a state
   * directory, Redis, a URL Frontier service), and the local frontier journaled by hand. All but
   * memory can stand for a process that stops and resumes.
   */
  enum Kind {
    MEMORY,
    STATE_DIR,
    LOCAL,
    REDIS,
    URLFRONTIER
  }

  /** A frontier in a URL Frontier service, Redis or a directory survives its process. */
  private static final String RESUMABLE = "^(?!MEMORY$).*";

  @AfterEach
  void disconnect() {
    cleanup.forEach(Runnable::run);
  }

  @AfterAll
  static void stopServers() throws InterruptedException {
    if (redis != null) {
      redis.close();
    }
    if (service != null) {
      service.close();
    }
  }

  @ParameterizedTest
  @EnumSource(Kind.class)
  void push_seed_leaseHasNoViaAndNoLastmod(Kind kind) {
    Frontier frontier = open(kind).frontier();
    frontier.push(url("http://a.example/"), 0, null, null);

    Lease lease = frontier.poll();

    assertThat(lease.via()).isNull();
    assertThat(lease.lastmod()).isNull();
  }

  @ParameterizedTest
  @EnumSource(Kind.class)
  void pushAll_linksOfAPage_leasesCarryThePageAsVia(Kind kind) throws InterruptedException {
    Frontier frontier = open(kind).frontier();
    frontier.pushAll(List.of(url("http://a.example/1"), url("http://b.example/2")), 1,
        "http://a.example/");

    Map<String, Lease> leases = drain(frontier);

    assertThat(leases).containsOnlyKeys("http://a.example/1", "http://b.example/2");
    assertThat(leases.values()).allSatisfy(lease -> {
      assertThat(lease.via()).isEqualTo("http://a.example/");
      assertThat(lease.lastmod()).isNull();
    });
  }

  @ParameterizedTest
  @EnumSource(Kind.class)
  void pushRedirect_target_viaIsTheRedirectingUrl(Kind kind) {
    Frontier frontier = open(kind).frontier();
    frontier.push(url("http://a.example/old"), 2, "http://a.example/sitemap.xml", LASTMOD);
    Lease old = frontier.poll();
    frontier.pushRedirect(url("http://a.example/new"), old);
    frontier.complete(old, Map.of());

    Lease target = frontier.poll();

    assertThat(target.url().toString()).isEqualTo("http://a.example/new");
    assertThat(target.via()).isEqualTo("http://a.example/old");
    assertThat(target.redirectChain()).containsExactly("http://a.example/old");
    assertThat(target.depth()).isEqualTo(2);
    assertThat(target.lastmod()).as("the sitemap's date is about the listed URL").isNull();
  }

  @ParameterizedTest
  @EnumSource(Kind.class)
  void retryAndPutBack_keepViaAndLastmod(Kind kind) {
    Frontier frontier = open(kind).frontier();
    frontier.push(url("http://a.example/listed"), 1, "http://a.example/sitemap.xml", LASTMOD);

    Lease first = frontier.poll();
    frontier.retry(first, Duration.ZERO, Map.of());
    Lease second = frontier.poll();
    frontier.putBack(second);
    Lease third = frontier.poll();

    assertThat(third.attempt()).isEqualTo(1);
    assertThat(third.via()).isEqualTo("http://a.example/sitemap.xml");
    assertThat(third.lastmod()).isEqualTo(LASTMOD);
  }

  @ParameterizedTest
  @EnumSource(Kind.class)
  void complete_copyCarryingItsLastFetch_givesTheLeaseBack(Kind kind) {
    Frontier frontier = open(kind).frontier();
    frontier.push(url("http://a.example/"), 0, null, null);
    Lease taken = frontier.poll();

    frontier.complete(taken.fetched(new LastFetch(1, LASTMOD, "\"v1\"", null, null, null)),
        Map.of());

    assertThat(frontier.stats().inFlight()).as("leases still out").isZero();
    assertThat(frontier.isFinished()).isTrue();
  }

  @ParameterizedTest
  @EnumSource(value = Kind.class, mode = EnumSource.Mode.MATCH_ALL, names = RESUMABLE)
  void restart_keepsViaAndLastmodOfEveryPendingAndLeasedUrl(Kind kind) throws Exception {
    Opened opened = open(kind);
    Frontier frontier = opened.frontier();
    Map<String, Lease> pushed = new HashMap<>();
    // Enough URLs over few hosts that the local frontier spills most of them.
    for (int i = 0; i < 600; i++) {
      Url link = url("http://h" + (i % 3) + ".example/page/" + i);
      String via = "http://h" + (i % 3) + ".example/page/" + (i / 2);
      Instant lastmod = i % 4 == 0 ? LASTMOD.plusSeconds(i) : null;
      frontier.push(link, 1, i % 5 == 0 ? null : via, lastmod);
      pushed.put(link.toString(), new Lease(link, 1, "-", 0, List.of(),
          i % 5 == 0 ? null : via, lastmod));
    }
    Lease inFlight = frontier.poll();
    opened.checkpoint();
    // After the checkpoint: journaled only (local).
    frontier.pushRedirect(url("http://h0.example/moved"), inFlight);
    pushed.put("http://h0.example/moved", new Lease(Lease.stored("http://h0.example/moved"), 1, "-", 0,
        List.of(inFlight.url().toString()), inFlight.url().toString(), null));

    Map<String, Lease> drained = drain(opened.restart());

    assertThat(drained).containsOnlyKeys(pushed.keySet());
    pushed.forEach((url, expected) -> {
      assertThat(drained.get(url).via()).as("via of %s", url).isEqualTo(expected.via());
      assertThat(drained.get(url).lastmod()).as("lastmod of %s", url)
          .isEqualTo(expected.lastmod());
    });
  }

  /** A frontier, and how to stop and resume it: a checkpoint, then a restart from it. */
  private interface Opened {
    Frontier frontier();

    void checkpoint() throws Exception;

    /** A new frontier, as a new process would have, from the checkpoint and what followed. */
    Frontier restart() throws Exception;
  }

  private Opened open(Kind kind) {
    return switch (kind) {
      case MEMORY -> inMemory();
      case STATE_DIR -> new Kept();
      case LOCAL -> new Local();
      case REDIS -> new Redis("contract-" + System.nanoTime());
      case URLFRONTIER -> service("contract-" + System.nanoTime());
    };
  }

  /** No delay, four fetches of a host at once: every URL pushed can be taken at once. */
  private static final Politeness EAGER = Politeness.DEFAULT.withDelay(Duration.ZERO)
      .withMaxInFlightPerHost(4);

  /** Opened by the factory, its connections released after the test. */
  private Frontier opened(FrontierSettings settings) {
    OpenFrontier opened = Frontiers.open(settings);
    cleanup.add(opened::disconnect);
    return opened.frontier();
  }

  /** In memory, spilling within 4 KiB: it does not outlive its process. */
  private Opened inMemory() {
    Frontier frontier = opened(FrontierSettings.builder().expectedUrls(10_000).politeness(EAGER)
        .pendingMemoryBytes(4 << 10).spillDir(dir.resolve("spill")).build());
    return new Opened() {
      @Override
      public Frontier frontier() {
        return frontier;
      }

      @Override
      public void checkpoint() {
        throw new UnsupportedOperationException("a frontier in memory keeps no state");
      }

      @Override
      public Frontier restart() {
        throw new UnsupportedOperationException("a frontier in memory keeps no state");
      }
    };
  }

  /**
   * In a state directory, as {@code crawl --state} keeps it; a restart is the crawl ending (its
   * final checkpoint) and a new process resuming it.
   */
  private final class Kept implements Opened {
    private final FrontierSettings settings = FrontierSettings.builder().expectedUrls(10_000)
        .politeness(EAGER).pendingMemoryBytes(4 << 10).stateDir(dir.resolve("state")).build();
    private Runnable ending;
    private final OpenFrontier first = open();

    /** Opens the directory and starts its checkpoints; ended after the test unless restarted. */
    private OpenFrontier open() {
      OpenFrontier opened = Frontiers.open(settings);
      opened.lifecycle().orElseThrow().start();
      ending = () -> {
        opened.frontier().close();
        opened.lifecycle().orElseThrow().end();
      };
      cleanup.add(ending);
      return opened;
    }

    @Override
    public Frontier frontier() {
      return first.frontier();
    }

    @Override
    public void checkpoint() {
      assertThat(first.frontier().stats().pendingDiskBytes()).as("most pending URLs spilled")
          .isPositive();
    }

    @Override
    public Frontier restart() {
      cleanup.remove(ending);
      first.frontier().close();
      assertThat(first.lifecycle().orElseThrow().end()).as("final checkpoint").isEmpty();
      OpenFrontier resumed = open();
      assertThat(resumed.lifecycle().orElseThrow().savedSeeds()).isPresent();
      return resumed.frontier();
    }
  }

  /** Spilling within 4 KiB, journaled, checkpointed as the crawl state does. */
  private final class Local implements Opened {
    private final Sieve sieve = Sieve.create(10_000, 1e-6);
    private final LocalFrontier frontier = builder(sieve).build();
    private byte[] filter;
    private byte[] state;

    private Local() {
      try {
        frontier.state().journalTo(dir.resolve("journal-0.log"));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      cleanup.add(() -> closeJournal(frontier));
    }

    private dev.sieve.frontier.local.LocalFrontierBuilder builder(Sieve over) {
      return LocalFrontier.builder(over).politenessDelay(Duration.ZERO).maxInFlightPerHost(4)
          .spillTo(dir.resolve("spill"), 4 << 10);
    }

    @Override
    public Frontier frontier() {
      return frontier;
    }

    @Override
    public void checkpoint() throws Exception {
      ByteArrayOutputStream filterBytes = new ByteArrayOutputStream();
      ByteArrayOutputStream stateBytes = new ByteArrayOutputStream();
      frontier.state().paused(() -> {
        sieve.writeFilter(filterBytes);
        frontier.state().writeState(new DataOutputStream(stateBytes));
        frontier.state().journalTo(dir.resolve("journal-1.log"));
        return null;
      });
      filter = filterBytes.toByteArray();
      state = stateBytes.toByteArray();
      assertThat(frontier.stats().pendingDiskBytes()).as("most pending URLs spilled").isPositive();
    }

    @Override
    public Frontier restart() throws Exception {
      closeJournal(frontier);
      Sieve restored = Sieve.over(MembershipFilter.readFrom(new ByteArrayInputStream(filter)),
          1e-6, w -> {});
      return builder(restored).restore(new DataInputStream(new ByteArrayInputStream(state)),
          List.of(dir.resolve("journal-1.log")));
    }

    private static void closeJournal(LocalFrontier frontier) {
      try {
        frontier.state().closeJournal();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }

  /** A crawl in a real redis-server; a restart is another process joining it. */
  private final class Redis implements Opened {
    private final String crawlId;
    private final Frontier frontier;

    private Redis(String crawlId) {
      this.crawlId = crawlId;
      this.frontier = connect();
    }

    private Frontier connect() {
      if (redis == null) {
        try {
          redis = RedisServers.standalone();
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }
      return opened(FrontierSettings.builder().expectedUrls(10_000).falsePositiveRate(1e-6)
          .politeness(EAGER).redis(redis.uri(), crawlId, Duration.ofMillis(500), 8).build());
    }

    @Override
    public Frontier frontier() {
      return frontier;
    }

    @Override
    public void checkpoint() {
      // Redis keeps every change as it happens.
    }

    /** The first process stops holding a lease: the second takes its URL when it expires. */
    @Override
    public Frontier restart() {
      return connect();
    }
  }

  /**
   * A crawl ID of a URL Frontier service; a restart is another process on it, taking the first
   * one's leases when they expire (after a second). The service keeps every acknowledged change,
   * so a checkpoint has nothing to do.
   */
  private Opened service(String crawlId) {
    if (service == null) {
      try {
        service = FrontierServer.start(ServeSettings.builder().host("127.0.0.1").port(0).build(),
            Clock.systemUTC(), null);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    java.util.function.Supplier<Frontier> connect = () -> opened(FrontierSettings.builder()
        .politeness(EAGER).urlFrontier("urlfrontier://127.0.0.1:" + service.port(), crawlId,
            Duration.ofSeconds(1)).build());
    Frontier first = connect.get();
    return new Opened() {
      @Override
      public Frontier frontier() {
        return first;
      }

      @Override
      public void checkpoint() { }

      @Override
      public Frontier restart() {
        return connect.get();
      }
    };
  }

  @ParameterizedTest
  @EnumSource(Kind.class)
  void skipHost_dropsItsWaitingUrls_refusesItsNewOnes_leavesTheLeasedOneAndOtherHosts(Kind kind)
      throws InterruptedException {
    Frontier frontier = open(kind).frontier();
    frontier.push(url("http://a.example/1"), 0, null, null);
    Lease leased = frontier.poll();
    frontier.pushAll(List.of(url("http://a.example/2"), url("http://a.example/3"),
        url("http://b.example/1")), 1, "http://a.example/1");

    int dropped = frontier.skipHost(leased.hostKey());

    assertThat(frontier.push(url("http://a.example/4"), 1, null, null)).isFalse();
    frontier.complete(leased, Map.of());
    assertThat(drain(frontier)).containsOnlyKeys("http://b.example/1");
    if (kind != Kind.URLFRONTIER) { // the service's client counts what it held of the host too
      assertThat(dropped).isEqualTo(2);
      assertThat(frontier.stats().droppedBySkippedHost()).isEqualTo(3);
    }
  }

  /** Takes and completes until the frontier is finished; leases by URL. */
  private static Map<String, Lease> drain(Frontier frontier) throws InterruptedException {
    Map<String, Lease> leases = new HashMap<>();
    for (Lease lease = frontier.take(); lease != null; lease = frontier.take()) {
      assertThat(leases.put(lease.url().toString(), lease)).as("leased once: %s", lease.url().toString()).isNull();
      frontier.complete(lease, Map.of());
    }
    return leases;
  }

  private static Url url(String text) {
    return Url.parse(text).orElseThrow();
  }
}
