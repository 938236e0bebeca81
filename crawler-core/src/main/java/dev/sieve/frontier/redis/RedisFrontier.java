package dev.sieve.frontier.redis;

import static dev.sieve.frontier.redis.RedisConnection.asLong;
import static dev.sieve.frontier.redis.RedisConnection.asString;

import dev.sieve.frontier.Frontier;
import dev.sieve.frontier.FrontierLifecycle;
import dev.sieve.frontier.FrontierSettings;
import dev.sieve.frontier.FrontierStats;
import dev.sieve.frontier.Lease;
import dev.sieve.frontier.redis.RedisConnection.Script;
import dev.sieve.url.Url;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link Frontier} kept in Redis, so that every crawler process given the same Redis and crawl
 * id works on one crawl: one seen filter, one set of host queues, one politeness schedule.
 *
 * <p><b>Seen filter.</b> Redis bitmaps in the blocked Bloom filter layout ({@link SeenBitmaps}):
 * exactly one process, of all, learns that a URL is new. With on-capacity grow (the default) the
 * filter is a stack of layers in Redis, as the in-process scalable filter: when the newest reaches
 * its capacity, any process seals it and adds one for twice the URLs at a tighter rate, atomically,
 * so the rate stays under the target however many URLs arrive; every check goes through all
 * layers. Without grow it is one fixed filter whose rate climbs past capacity. Both log the
 * capacity warnings, once per crawl.
 *
 * <p><b>Queues and politeness.</b> Pending URLs are Redis lists per politeness key; hosts that can
 * be leased from wait in a sorted set by the time they may be (Redis's clock, so processes agree).
 * A host's fetch starts are the delay apart and at most {@code maxInFlightPerHost} are in flight,
 * across all processes; with one in flight the next starts no sooner than the delay after the
 * previous one was given back, as in {@code LocalFrontier}.
 *
 * <p><b>Leases.</b> Every URL taken is a lease with an expiry. One not given back before it expires
 * (its process died) is queued again, first in its host, by the next {@link #take} of any process.
 * A fetch that outlives its lease may therefore be done twice: the lease duration must be longer
 * than a fetch can take (default {@value #DEFAULT_LEASE_SECONDS} s).
 *
 * <p><b>Atomicity.</b> Every operation is one Lua script ({@link RedisScripts}); a push of a
 * page's links is one call on a single server. In Redis Cluster the filter and the queues lie in
 * different slots, so a push is ordered steps ({@link ClusterPush}): check the older layers; set
 * the bits in the newest layer and, in the same script, record the new URLs as the push's intent;
 * queue them; clear the intent. A process killed between the steps loses nothing: an intent older
 * than the lease duration is queued by another process (while it waits for work, and before it
 * concludes the crawl is over). The worst case is a process killed after queueing but before
 * clearing its intent: those URLs are queued twice, counted in {@link CrawlStatus#recoveredUrls()},
 * which bounds such duplicates.
 *
 * <p><b>End.</b> The crawl is finished when nothing is pending or leased in Redis; {@link #take}
 * then returns null in every process. A process that joins later finds it finished.
 *
 * <p><b>Outages.</b> While Redis cannot be reached (killed, restarting, loading its data), every
 * call waits and is tried again ({@link RedisOutage}), for up to the lease duration: longer, this
 * process's leases would have expired anyway. Past that, or for any other Redis failure, the call
 * throws an {@link UncheckedIOException} naming Redis, which the {@code Crawler} treats as the
 * frontier's storage failing: it stops.
 *
 * <p>Thread-safe.
 */
public final class RedisFrontier implements Frontier, FrontierLifecycle {
  /** Bits per filter segment by default: 2²⁸ (32 MiB), well under Redis's 2³²-bit strings. */
  public static final long DEFAULT_SEGMENT_BITS = 1L << 28;

  /** The lease duration by default, in seconds. */
  public static final long DEFAULT_LEASE_SECONDS = FrontierSettings.DEFAULT_LEASE_SECONDS;

  private static final Logger log = LoggerFactory.getLogger(RedisFrontier.class);

  private final RedisConnection connection;
  private final String crawlId;
  private final String prefix;
  private final String statsKey;
  private final SharedSettings settings;
  private final SeenBitmaps bitmaps;
  private final RedisPush pushes;
  private final long leaseMs;
  private final long pollMs;
  private final BiConsumer<String, Long> onLease;
  private final Script take = RedisScripts.TAKE;
  private final Script release = RedisScripts.RELEASE;
  private final Script host = RedisScripts.HOST;
  private final Script takeAll = RedisScripts.TAKE_ALL;

  /** The leases this process holds, by value, to their ids in Redis. */
  private final HeldLeases leaseIds = new HeldLeases();
  private final LocalChanges changes = new LocalChanges();
  private final RedisOutage outage;
  private volatile boolean closed;
  private volatile long recoveredAt;

  RedisFrontier(RedisConnection connection, String crawlId, SharedSettings settings, long leaseMs,
      long pollMs, BiConsumer<String, Long> onLease, Runnable afterFilterStep) {
    this.connection = connection;
    this.crawlId = crawlId;
    this.prefix = "sieve:{" + crawlId + "}:";
    this.statsKey = prefix + "stats";
    this.settings = settings;
    this.bitmaps = new SeenBitmaps(connection, crawlId, settings, false);
    this.pushes = new RedisPush(connection, bitmaps, settings, prefix, afterFilterStep);
    this.leaseMs = leaseMs;
    this.pollMs = pollMs;
    this.onLease = onLease;
    this.outage = RedisOutage.of(connection.where, Duration.ofMillis(leaseMs));
  }

  /** Runs {@code call}, riding out an outage of Redis (see {@link RedisOutage}). */
  private <T> T patiently(Supplier<T> call) {
    return outage.call(call, () -> false);
  }

  public static RedisFrontierBuilder builder() {
    return new RedisFrontierBuilder();
  }

  // ---------------------------------------------------------------- push

  @Override
  public boolean push(Url url, int depth, String via, Instant lastmod) {
    return offer(List.of(url), depth, List.of(), via, lastmod) == 1;
  }

  /** Offers a page's links in one round trip (a few, pipelined, in Redis Cluster). */
  @Override
  public int pushAll(List<Url> urls, int depth, String via) {
    return urls.isEmpty() ? 0 : offer(urls, depth, List.of(), via, null);
  }

  @Override
  public boolean pushRedirect(Url target, Lease from) {
    List<String> chain = new ArrayList<>(from.redirectChain());
    chain.add(from.url().toString());
    return offer(List.of(target), from.depth(), chain, from.url().toString(), null) == 1;
  }

  private int offer(List<Url> urls, int depth, List<String> chain, String via, Instant lastmod) {
    int queued = patiently(() -> pushes.offer(urls, depth, chain, via, lastmod));
    if (queued > 0) {
      changes.signal();
    }
    patiently(() -> {
      bitmaps.checkCapacity();
      return null;
    });
    return queued;
  }

  // ---------------------------------------------------------------- take and give back

  @Override
  public Lease take() throws InterruptedException {
    while (!closed) {
      long version = changes.version();
      List<?> out = takeOnce();
      String kind = asString(out.get(0));
      if (kind.equals("lease")) {
        return lease(out);
      }
      long waitMs;
      if (kind.equals("done")) {
        if (recoverPushes(true) == 0) {
          return null;
        }
        waitMs = pollMs; // a push between its steps: wait for it, or for its intent to go stale
      } else {
        recoverPushes(false);
        long hint = asLong(out.get(1));
        waitMs = hint < 0 ? pollMs : Math.max(1, Math.min(hint, pollMs));
      }
      changes.await(version, waitMs, () -> closed);
    }
    return null;
  }

  @Override
  public Lease poll() {
    if (closed) {
      return null;
    }
    List<?> out = takeOnce();
    return asString(out.get(0)).equals("lease") ? lease(out) : null;
  }

  /**
   * In Redis Cluster: queues the URLs of pushes whose process died between the filter and the
   * queue step (at most once a second unless {@code now}); returns the pushes found between steps.
   */
  private int recoverPushes(boolean now) {
    if (!connection.cluster) {
      return 0;
    }
    long t = System.nanoTime();
    if (!now && t - recoveredAt < 1_000_000_000L) {
      return 0;
    }
    recoveredAt = t;
    return patiently(() -> connection.command("recover interrupted pushes",
        r -> pushes.cluster().recover(leaseMs)));
  }

  /** One take script; waiting out an outage unless the frontier is closed meanwhile. */
  private List<?> takeOnce() {
    return outage.call(() -> (List<?>) connection.run("take", take, List.of(statsKey),
        List.of(prefix, Long.toString(leaseMs), Integer.toString(settings.maxInFlightPerHost()),
            Long.toString(settings.delayMs()))), () -> closed);
  }

  private Lease lease(List<?> out) {
    String id = asString(out.get(1));
    String hostKey = asString(out.get(2));
    Lease lease = QueueEntry.decode(asString(out.get(3)), hostKey);
    leaseIds.hold(lease, id);
    onLease.accept(hostKey, asLong(out.get(4)));
    return lease;
  }

  /** Leases up to {@code max} of the host's pending URLs now, in one round trip. */
  @Override
  public List<Lease> takeAll(String hostKey, int max) {
    if (closed) {
      return List.of();
    }
    List<?> out = outage.call(() -> (List<?>) connection.run("take the URLs of " + hostKey,
        takeAll, List.of(statsKey), List.of(prefix, hostKey, Integer.toString(max),
            Long.toString(leaseMs), Integer.toString(settings.maxInFlightPerHost()))),
        () -> closed);
    List<Lease> leases = new ArrayList<>(out.size() / 2);
    for (int i = 0; i + 1 < out.size(); i += 2) {
      Lease lease = QueueEntry.decode(asString(out.get(i + 1)), hostKey);
      leaseIds.hold(lease, asString(out.get(i)));
      leases.add(lease);
    }
    return leases;
  }

  /** Gives back a lease whose URL is done; Redis keeps no crawl counters ({@code counts}). */
  @Override
  public void complete(Lease lease, Map<String, Long> counts) {
    give(lease, "complete", 0, lease);
  }

  @Override
  public void retry(Lease lease, Duration backoff, Map<String, Long> counts) {
    give(lease, "retry", backoff.toMillis(), lease.nextAttempt());
  }

  @Override
  public void putBack(Lease lease) {
    give(lease, "back", 0, lease);
  }

  private void give(Lease lease, String mode, long backoffMs, Lease requeued) {
    String id = leaseIds.release(lease);
    if (id == null) {
      throw new IllegalStateException("lease not taken from this frontier: " + lease);
    }
    Object out = patiently(() -> connection.run("give back a lease", release, List.of(statsKey),
        List.of(prefix, id, mode, Integer.toString(settings.maxInFlightPerHost()),
            Long.toString(settings.delayMs()), Long.toString(backoffMs),
            QueueEntry.encode(requeued))));
    if (asLong(out) == 0) {
      log.warn("Lease of {} had expired and was queued again before it was given back ({});"
          + " it may be fetched twice: raise the lease duration", lease.url(), mode);
    }
    changes.signal();
  }

  // ---------------------------------------------------------------- hosts

  @Override
  public void delayHost(String hostKey, Duration wait) {
    hostOp("delay", hostKey, wait.toMillis());
    changes.signal();
  }

  @Override
  public void setHostDelay(String hostKey, Duration delay) {
    hostOp("spacing", hostKey, delay.toMillis());
  }

  @Override
  public int skipHost(String hostKey) {
    return (int) hostOp("skip", hostKey, 0);
  }

  private long hostOp(String op, String hostKey, long value) {
    return asLong(patiently(() -> connection.run("update host " + hostKey, host,
        List.of(statsKey), List.of(prefix, op, hostKey, Long.toString(value),
            Integer.toString(settings.maxInFlightPerHost()), Long.toString(settings.delayMs())))));
  }

  /** Stops handing out URLs in this process and closes the connections. */
  @Override
  public void close() {
    boolean wasClosed = closed;
    closed = true;
    changes.signal();
    if (!wasClosed) {
      log.debug("Closing the Redis frontier of crawl {}", crawlId);
    }
  }

  /**
   * Closes the connections to Redis. Call after {@link #close()} once nothing uses the frontier:
   * the crawl's workers may still give leases back after close().
   */
  @Override
  public void disconnect() {
    closed = true;
    connection.close();
  }

  // ---------------------------------------------------------------- counters

  @Override
  public boolean isFinished() {
    Map<String, Long> stats = counters();
    return stats.get("pending") <= 0 && stats.get("leased") <= 0 && recoverPushes(true) == 0;
  }

  /** The crawl's shared counters, and this process's view of the shared seen filter. */
  @Override
  public FrontierStats stats() {
    return patiently(() -> {
      Map<String, Long> stats = counters();
      return new FrontierStats(stats.get("pending"), stats.get("leased"),
          (int) (long) stats.get("hosts"), stats.get("droppedBudget"),
          stats.get("droppedSkipped"), 0, bitmaps.layers().size(), bitmaps.approximateSeen(),
          bitmaps.seenFpp(), bitmaps.capacityWarnings(), bitmaps.bits(), 0, 0, outage.outages());
    });
  }

  private static final List<String> STATS = List.of(
      "pending", "leased", "hosts", "droppedBudget", "droppedSkipped", "expired", "recovered",
      "late");

  /** The crawl's shared counters. */
  private Map<String, Long> counters() {
    List<String> values = patiently(() -> connection.command("read the crawl's counters",
        r -> r.hmget(statsKey, STATS.toArray(new String[0]))));
    Map<String, Long> stats = new LinkedHashMap<>();
    for (int i = 0; i < STATS.size(); i++) {
      stats.put(STATS.get(i), values.get(i) == null ? 0 : Long.parseLong(values.get(i)));
    }
    return stats;
  }

  /** The crawl's shared state, for {@code crawl --status}. */
  public CrawlStatus status() {
    bitmaps.refreshCounts(true);
    Map<String, Long> stats = counters();
    double n = bitmaps.estimate();
    return new CrawlStatus(crawlId, stats.get("pending"), stats.get("leased"),
        (int) (long) stats.get("hosts"), Math.round(n), bitmaps.fpp(), settings.expectedUrls(),
        settings.fpp(), stats.get("droppedBudget"), stats.get("droppedSkipped"),
        stats.get("expired"), bitmaps.bits(), bitmaps.layers().get(0).hashes,
        bitmaps.segments(), bitmaps.setBits(), settings.grow(), bitmaps.layers().size(),
        stats.get("recovered"), stats.get("late"));
  }
}
