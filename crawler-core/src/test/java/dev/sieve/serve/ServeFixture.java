package dev.sieve.serve;

import crawlercommons.urlfrontier.URLFrontierGrpc;
import crawlercommons.urlfrontier.Urlfrontier.AckMessage;
import crawlercommons.urlfrontier.Urlfrontier.GetParams;
import crawlercommons.urlfrontier.Urlfrontier.QueueWithinCrawlParams;
import crawlercommons.urlfrontier.Urlfrontier.Stats;
import crawlercommons.urlfrontier.Urlfrontier.URLItem;
import dev.sieve.testing.RedisServers;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import java.io.IOException;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A real {@link FrontierServer} on a free loopback port with a clock the test moves, and a client
 * of it; its crawls in memory or in a real Redis ({@link Store}). Close it after each test.
 */
final class ServeFixture implements AutoCloseable {
  /** Seconds since the epoch at which the clock starts. */
  static final long START = 1_700_000_000L;

  /** Where the server keeps its crawls: the conformance tests run over each. */
  enum Store {
    MEMORY,
    /** A redis-server shared by the tests of this JVM, emptied for each fixture. */
    REDIS
  }

  final SecondsClock clock;
  final List<String[]> logLevels = new ArrayList<>();
  final FrontierServer server;
  final ManagedChannel channel;
  final URLFrontierGrpc.URLFrontierBlockingStub blocking;
  final URLFrontierGrpc.URLFrontierStub async;

  ServeFixture() throws IOException {
    this(ServeSettings.builder().port(0));
  }

  ServeFixture(ServeSettings.Builder settings) throws IOException {
    this(settings, new SecondsClock(START));
  }

  ServeFixture(Store store) throws IOException {
    this(store, ServeSettings.builder());
  }

  ServeFixture(Store store, ServeSettings.Builder settings) throws IOException {
    this(store == Store.REDIS ? settings.frontier(SharedRedis.emptied()) : settings);
  }

  /** A server on {@code settings} with {@code clock}: another node of a Redis frontier. */
  ServeFixture(ServeSettings.Builder settings, SecondsClock clock) throws IOException {
    this.clock = clock;
    server = FrontierServer.start(settings.host("127.0.0.1").port(0).build(), clock,
        (name, level) -> logLevels.add(new String[] {name, level}));
    channel = ManagedChannelBuilder.forAddress("127.0.0.1", server.port()).usePlaintext().build();
    blocking = URLFrontierGrpc.newBlockingStub(channel).withDeadlineAfter(30, TimeUnit.SECONDS);
    async = URLFrontierGrpc.newStub(channel);
  }

  static URLItem discovered(String url) {
    return FrontierClient.discovered(url);
  }

  static URLItem discovered(String url, String key, String crawlId) {
    return FrontierClient.discovered(url, key, crawlId);
  }

  static URLItem known(String url, long refetchFrom) {
    return FrontierClient.known(url, refetchFrom);
  }

  /** Streams {@code items} through one PutURLs call and returns the acks, in order. */
  List<AckMessage> put(URLItem... items) {
    return put(List.of(items));
  }

  List<AckMessage> put(List<URLItem> items) {
    return FrontierClient.put(channel, items);
  }

  /** The URLs one GetURLs call hands out. */
  List<String> get(GetParams params) {
    List<String> urls = new ArrayList<>();
    blocking.getURLs(params).forEachRemaining(info -> urls.add(info.getUrl()));
    return urls;
  }

  /** GetURLs from the default crawl, any number, with a lease of {@code leaseSeconds}. */
  List<String> getAll(int leaseSeconds) {
    return get(GetParams.newBuilder().setCrawlID("DEFAULT").setDelayRequestable(leaseSeconds)
        .build());
  }

  Stats stats(String key, String crawlId) {
    return blocking.getStats(
        QueueWithinCrawlParams.newBuilder().setKey(key).setCrawlID(crawlId).build());
  }

  @Override
  public void close() throws InterruptedException {
    channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    server.close();
  }

  /** The redis-server of this test JVM, started by the first test that needs it. */
  static final class SharedRedis {
    private static RedisServers servers;

    private SharedRedis() {}

    /** Its URI, emptied of what earlier tests left. */
    static synchronized String emptied() throws IOException {
      if (servers == null) {
        servers = RedisServers.standalone();
        RedisServers started = servers;
        Runtime.getRuntime().addShutdownHook(new Thread(started::close, "redis-server-stop"));
      }
      String reply = servers.cli("FLUSHALL");
      if (!reply.startsWith("OK")) {
        throw new IOException("redis-cli FLUSHALL answered " + reply);
      }
      return servers.uri();
    }

    /** Its URI, as it is (another node joins the first one's frontier). */
    static synchronized String uri() {
      return servers.uri();
    }
  }

  /**
   * A UTC clock standing still until moved: by whole seconds ({@link #advance}), the API's unit,
   * or by milliseconds ({@link #advanceMillis}), the engine's.
   */
  static final class SecondsClock extends Clock {
    private final AtomicLong millis;

    SecondsClock(long epochSecond) {
      millis = new AtomicLong(epochSecond * 1000);
    }

    /** The epoch second it stands in. */
    long now() {
      return Math.floorDiv(millis.get(), 1000);
    }

    void advance(long seconds) {
      millis.addAndGet(seconds * 1000);
    }

    void advanceMillis(long by) {
      millis.addAndGet(by);
    }

    @Override
    public Instant instant() {
      return Instant.ofEpochMilli(millis.get());
    }

    @Override
    public ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
      return this;
    }
  }
}
