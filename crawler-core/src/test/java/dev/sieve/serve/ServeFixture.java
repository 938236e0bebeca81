package dev.sieve.serve;

import crawlercommons.urlfrontier.URLFrontierGrpc;
import crawlercommons.urlfrontier.Urlfrontier.AckMessage;
import crawlercommons.urlfrontier.Urlfrontier.GetParams;
import crawlercommons.urlfrontier.Urlfrontier.QueueWithinCrawlParams;
import crawlercommons.urlfrontier.Urlfrontier.Stats;
import crawlercommons.urlfrontier.Urlfrontier.URLItem;
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
 * of it. Close it after each test.
 */
final class ServeFixture implements AutoCloseable {
  /** Seconds since the epoch at which the clock starts. */
  static final long START = 1_700_000_000L;

  final SecondsClock clock = new SecondsClock(START);
  final List<String[]> logLevels = new ArrayList<>();
  final FrontierServer server;
  final ManagedChannel channel;
  final URLFrontierGrpc.URLFrontierBlockingStub blocking;
  final URLFrontierGrpc.URLFrontierStub async;

  ServeFixture() throws IOException {
    this(ServeSettings.builder().port(0));
  }

  ServeFixture(ServeSettings.Builder settings) throws IOException {
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

  /** A UTC clock standing at a whole second until {@link #advance} moves it. */
  static final class SecondsClock extends Clock {
    private final AtomicLong seconds;

    SecondsClock(long epochSecond) {
      seconds = new AtomicLong(epochSecond);
    }

    long now() {
      return seconds.get();
    }

    void advance(long by) {
      seconds.addAndGet(by);
    }

    @Override
    public Instant instant() {
      return Instant.ofEpochSecond(seconds.get());
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
