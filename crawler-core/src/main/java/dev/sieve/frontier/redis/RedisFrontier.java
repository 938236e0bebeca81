package dev.sieve.frontier.redis;

import dev.sieve.bloom.BlockedBloomFilter;
import dev.sieve.bloom.FilterSizing;
import dev.sieve.bloom.Hash128;
import dev.sieve.crawl.Crawler;
import dev.sieve.frontier.Frontier;
import dev.sieve.frontier.Lease;
import dev.sieve.frontier.QueueKey;
import dev.sieve.frontier.Sieve;
import dev.sieve.frontier.local.LocalFrontier;
import dev.sieve.url.Url;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BiConsumer;
import java.util.regex.Pattern;
import org.apache.commons.pool2.impl.GenericObjectPoolConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.clients.jedis.AbstractPipeline;
import redis.clients.jedis.Connection;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.JedisClientConfig;
import redis.clients.jedis.JedisCluster;
import redis.clients.jedis.JedisPooled;
import redis.clients.jedis.Response;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.exceptions.JedisException;
import redis.clients.jedis.exceptions.JedisNoScriptException;
import redis.clients.jedis.params.SetParams;

/**
 * A {@link Frontier} kept in Redis, so that every crawler process given the same Redis and crawl
 * id works on one crawl: one seen filter, one set of host queues, one politeness schedule.
 *
 * <p><b>Seen filter.</b> The {@link BlockedBloomFilter} layout ({@link
 * BlockedBloomFilter#blockOf}, {@link BlockedBloomFilter#bitsOf}), sized as {@link
 * FilterSizing#blocked} sizes it, kept as Redis bitmaps of {@value #DEFAULT_SEGMENT_BITS} bits
 * ("segments"; one Redis string holds at most 2³² bits). A URL's k bits lie in one 512-bit block,
 * so one segment: a single {@code BITFIELD SET} inside a script sets them and returns the old
 * bits, which tells exactly one process, of all, that the URL is new. The same script adds the
 * bits it flipped to the segment's counter, from which every process estimates the distinct URLs
 * seen ({@code n̂ = ln(1 − X/m) / ln(1 − c/b)}, as the in-memory filter does), the current
 * false-positive rate, and the capacity warnings: each threshold is logged once per crawl, by the
 * process that claims it first (a {@code SET NX}), in {@link Sieve}'s format on logger {@value
 * Sieve#CAPACITY_LOGGER}.
 *
 * <p><b>Queues and politeness.</b> Pending URLs are Redis lists per politeness key; hosts that can
 * be leased from wait in a sorted set by the time they may be (Redis's clock, so processes agree).
 * A host's fetch starts are the delay apart and at most {@code maxInFlightPerHost} are in flight,
 * across all processes; with one in flight the next starts no sooner than the delay after the
 * previous one was given back, as in {@link LocalFrontier}.
 *
 * <p><b>Leases.</b> Every URL taken is a lease with an expiry. One not given back before it expires
 * (its process died) is queued again, first in its host, by the next {@link #take} of any process.
 * A fetch that outlives its lease may therefore be done twice: the lease duration must be longer
 * than a fetch can take (default {@value #DEFAULT_LEASE_SECONDS} s).
 *
 * <p><b>Atomicity.</b> Every operation is one Lua script. On a single server a push of many URLs
 * (a page's links, {@link #pushAll}) is one script call that filters and queues them together. In
 * Redis Cluster ({@code redis-cluster://}) the filter segments are spread over slots by hash tags
 * ({@code sieve:{ID:seg:I}}) and the queues share one slot ({@code sieve:{ID}:…}): a push filters
 * per segment (one pipelined call per segment), then queues the new URLs in one call. A process
 * killed between the two steps loses those new URLs (the filter has them, no queue does).
 *
 * <p><b>End.</b> The crawl is finished when nothing is pending or leased in Redis; {@link #take}
 * then returns null in every process. A process that joins later finds it finished.
 *
 * <p>Redis failing during the crawl surfaces as an {@link UncheckedIOException} naming Redis, which
 * the {@code Crawler} treats as the frontier's storage failing: it stops.
 *
 * <p>Thread-safe.
 */
public final class RedisFrontier implements Frontier {
  /** Bits per filter segment by default: 2²⁸ (32 MiB), well under Redis's 2³²-bit strings. */
  public static final long DEFAULT_SEGMENT_BITS = 1L << 28;

  /** The lease duration by default, in seconds. */
  public static final long DEFAULT_LEASE_SECONDS = 120;

  private static final Logger log = LoggerFactory.getLogger(RedisFrontier.class);
  private static final Logger capacityLog = LoggerFactory.getLogger(Sieve.CAPACITY_LOGGER);
  private static final Pattern CRAWL_ID = Pattern.compile("[A-Za-z0-9._-]{1,100}");
  private static final int FORMAT = 1;
  private static final long COUNT_REFRESH_NANOS = TimeUnit.SECONDS.toNanos(1);

  private final UnifiedJedis redis;
  private final boolean cluster;
  private final String where;
  private final String crawlId;
  private final String prefix;
  private final String statsKey;
  private final Settings settings;
  private final long leaseMs;
  private final long pollMs;
  private final long blocksPerSegment;
  private final int segments;
  private final double logUnsetPerKey;
  private final BiConsumer<String, Long> onLease;

  private final Script take;
  private final Script release;
  private final Script push;
  private final Script filter;
  private final Script enqueue;
  private final Script host;
  private final Script takeAll;

  /** The leases this process holds, by identity, to their ids in Redis. */
  private final Map<Lease, String> leaseIds = Collections.synchronizedMap(new IdentityHashMap<>());
  /** Each segment's set-bit count as last seen; counts only grow. */
  private final AtomicLongArray segmentBits;
  private volatile long countsReadAt;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();
  private volatile boolean closed;
  /** Index of the next capacity threshold; guarded by {@code this}. */
  private int nextThreshold;
  private volatile long nextThresholdCount;
  private final AtomicInteger capacityWarnings = new AtomicInteger();

  private RedisFrontier(UnifiedJedis redis, boolean cluster, String where, String crawlId,
      Settings settings, long leaseMs, long pollMs, BiConsumer<String, Long> onLease) {
    this.redis = redis;
    this.cluster = cluster;
    this.where = where;
    this.crawlId = crawlId;
    this.prefix = "sieve:{" + crawlId + "}:";
    this.statsKey = prefix + "stats";
    this.settings = settings;
    this.leaseMs = leaseMs;
    this.pollMs = pollMs;
    this.blocksPerSegment = settings.segmentBits / BlockedBloomFilter.BLOCK_BITS;
    this.segments = (int) ((settings.blocks + blocksPerSegment - 1) / blocksPerSegment);
    double c = -Math.expm1(settings.hashes * Math.log1p(-1.0 / BlockedBloomFilter.BLOCK_BITS));
    this.logUnsetPerKey = Math.log1p(-c / settings.blocks);
    this.segmentBits = new AtomicLongArray(segments);
    this.onLease = onLease;
    this.take = new Script(RedisScripts.TAKE);
    this.release = new Script(RedisScripts.RELEASE);
    this.push = new Script(RedisScripts.PUSH);
    this.filter = new Script(RedisScripts.FILTER);
    this.enqueue = new Script(RedisScripts.ENQUEUE);
    this.host = new Script(RedisScripts.HOST);
    this.takeAll = new Script(RedisScripts.TAKE_ALL);
    this.nextThresholdCount = thresholdCount(0);
  }

  public static Builder builder() {
    return new Builder();
  }

  // ---------------------------------------------------------------- push

  @Override
  public boolean push(Url url, int depth) {
    return offer(List.of(url), depth, List.of()) == 1;
  }

  /** Offers a page's links in one round trip (a few, pipelined, in Redis Cluster). */
  @Override
  public int pushAll(List<Url> urls, int depth) {
    return urls.isEmpty() ? 0 : offer(urls, depth, List.of());
  }

  @Override
  public boolean pushRedirect(Url target, Lease from) {
    List<String> chain = new ArrayList<>(from.redirectChain());
    chain.add(from.url());
    return offer(List.of(target), from.depth(), chain) == 1;
  }

  private int offer(List<Url> urls, int depth, List<String> chain) {
    if (depth < 0) {
      throw new IllegalArgumentException("depth (" + depth + ") must be >= 0");
    }
    int k = settings.hashes;
    int[] positions = new int[k];
    int n = urls.size();
    int[] segmentOf = new int[n];
    String[][] offsets = new String[n][k];
    String[] hosts = new String[n];
    String[] entries = new String[n];
    for (int i = 0; i < n; i++) {
      Url url = urls.get(i);
      String text = url.toString();
      Hash128 hash = Hash128.of(text);
      long block = BlockedBloomFilter.blockOf(hash, settings.blocks);
      segmentOf[i] = (int) (block / blocksPerSegment);
      long base = (block % blocksPerSegment) * BlockedBloomFilter.BLOCK_BITS;
      BlockedBloomFilter.bitsOf(hash, k, positions);
      for (int j = 0; j < k; j++) {
        offsets[i][j] = Long.toString(base + positions[j]);
      }
      hosts[i] = settings.queueKey.of(url);
      entries[i] = encode(text, depth, 0, chain);
    }
    int queued;
    try {
      queued = cluster
          ? offerCluster(n, segmentOf, offsets, hosts, entries)
          : offerSingle(n, segmentOf, offsets, hosts, entries);
    } catch (JedisException e) {
      throw failure("push", e);
    }
    if (queued > 0) {
      signal();
    }
    checkCapacity();
    return queued;
  }

  /** One script call filters and queues every URL atomically. */
  private int offerSingle(int n, int[] segmentOf, String[][] offsets, String[] hosts,
      String[] entries) {
    Map<Integer, Integer> pairOf = new LinkedHashMap<>();
    List<String> keys = new ArrayList<>();
    keys.add(statsKey);
    List<String> args = new ArrayList<>();
    args.add(prefix);
    args.add(Long.toString(settings.maxUrlsPerHost));
    args.add(Integer.toString(settings.maxInFlightPerHost));
    args.add(Integer.toString(settings.hashes));
    for (int i = 0; i < n; i++) {
      Integer pair = pairOf.get(segmentOf[i]);
      if (pair == null) {
        pair = pairOf.size() + 1;
        pairOf.put(segmentOf[i], pair);
        keys.add(segmentKey(segmentOf[i]));
        keys.add(countKey(segmentOf[i]));
      }
      args.add(Integer.toString(pair));
      args.add(hosts[i]);
      args.add(entries[i]);
      args.addAll(Arrays.asList(offsets[i]));
    }
    List<?> out = (List<?>) eval(push, keys, args);
    int queued = 0;
    for (int i = 0; i < n; i++) {
      if (asLong(out.get(i)) == 1) {
        queued++;
      }
    }
    int p = n;
    for (int segment : pairOf.keySet()) {
      noteCount(segment, asLong(out.get(p++)));
    }
    return queued;
  }

  /** Filters per segment (pipelined, one slot each), then queues the new URLs in the queue slot. */
  private int offerCluster(int n, int[] segmentOf, String[][] offsets, String[] hosts,
      String[] entries) {
    Map<Integer, List<Integer>> bySegment = new LinkedHashMap<>();
    for (int i = 0; i < n; i++) {
      bySegment.computeIfAbsent(segmentOf[i], s -> new ArrayList<>()).add(i);
    }
    Map<Integer, List<String>> keysOf = new LinkedHashMap<>();
    Map<Integer, List<String>> argsOf = new LinkedHashMap<>();
    Map<Integer, Response<Object>> responses = new LinkedHashMap<>();
    try (AbstractPipeline pipeline = redis.pipelined()) {
      for (Map.Entry<Integer, List<Integer>> group : bySegment.entrySet()) {
        int segment = group.getKey();
        List<String> keys = List.of(segmentKey(segment), countKey(segment));
        List<String> args = new ArrayList<>();
        args.add(Integer.toString(settings.hashes));
        for (int i : group.getValue()) {
          args.addAll(Arrays.asList(offsets[i]));
        }
        keysOf.put(segment, keys);
        argsOf.put(segment, args);
        responses.put(segment, pipeline.evalsha(filter.sha, keys, args));
      }
      pipeline.sync();
    }
    List<String> args = new ArrayList<>();
    args.add(prefix);
    args.add(Long.toString(settings.maxUrlsPerHost));
    args.add(Integer.toString(settings.maxInFlightPerHost));
    for (Map.Entry<Integer, List<Integer>> group : bySegment.entrySet()) {
      int segment = group.getKey();
      List<?> out;
      try {
        out = (List<?>) responses.get(segment).get();
      } catch (JedisDataException e) {
        if (e.getMessage() == null || !e.getMessage().startsWith("NOSCRIPT")) {
          throw e;
        }
        // Not run: the node had no cached script, so run it now with its source.
        out = (List<?>) redis.eval(filter.source, keysOf.get(segment), argsOf.get(segment));
      }
      List<Integer> members = group.getValue();
      for (int m = 0; m < members.size(); m++) {
        if (asLong(out.get(m)) == 1) {
          int i = members.get(m);
          args.add(hosts[i]);
          args.add(entries[i]);
        }
      }
      noteCount(segment, asLong(out.get(members.size())));
    }
    if (args.size() == 3) {
      return 0;
    }
    List<?> out = (List<?>) eval(enqueue, List.of(statsKey), args);
    int queued = 0;
    for (Object flag : out) {
      if (asLong(flag) == 1) {
        queued++;
      }
    }
    return queued;
  }

  // ---------------------------------------------------------------- take and give back

  @Override
  public Lease take() throws InterruptedException {
    while (!closed) {
      long version = version();
      List<?> out = takeOnce();
      String kind = asString(out.get(0));
      if (kind.equals("lease")) {
        return lease(out);
      }
      if (kind.equals("done")) {
        return null;
      }
      long hint = asLong(out.get(1));
      long waitMs = hint < 0 ? pollMs : Math.max(1, Math.min(hint, pollMs));
      await(version, waitMs);
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

  private List<?> takeOnce() {
    try {
      return (List<?>) eval(take, List.of(statsKey), List.of(prefix, Long.toString(leaseMs),
          Integer.toString(settings.maxInFlightPerHost), Long.toString(settings.delayMs)));
    } catch (JedisException e) {
      throw failure("take", e);
    }
  }

  private Lease lease(List<?> out) {
    String id = asString(out.get(1));
    String hostKey = asString(out.get(2));
    Lease lease = decode(asString(out.get(3)), hostKey);
    leaseIds.put(lease, id);
    onLease.accept(hostKey, asLong(out.get(4)));
    return lease;
  }

  /** Leases up to {@code max} of the host's pending URLs now, in one round trip. */
  @Override
  public List<Lease> takeAll(String hostKey, int max) {
    if (closed) {
      return List.of();
    }
    List<?> out;
    try {
      out = (List<?>) eval(takeAll, List.of(statsKey), List.of(prefix, hostKey,
          Integer.toString(max), Long.toString(leaseMs),
          Integer.toString(settings.maxInFlightPerHost)));
    } catch (JedisException e) {
      throw failure("take the URLs of " + hostKey, e);
    }
    List<Lease> leases = new ArrayList<>(out.size() / 2);
    for (int i = 0; i + 1 < out.size(); i += 2) {
      Lease lease = decode(asString(out.get(i + 1)), hostKey);
      leaseIds.put(lease, asString(out.get(i)));
      leases.add(lease);
    }
    return leases;
  }

  @Override
  public void complete(Lease lease) {
    give(lease, "complete", 0, lease);
  }

  @Override
  public void retry(Lease lease, Duration backoff) {
    give(lease, "retry", backoff.toMillis(), lease.nextAttempt());
  }

  @Override
  public void putBack(Lease lease) {
    give(lease, "back", 0, lease);
  }

  private void give(Lease lease, String mode, long backoffMs, Lease requeued) {
    String id = leaseIds.remove(lease);
    if (id == null) {
      throw new IllegalStateException("lease not taken from this frontier: " + lease);
    }
    Object out;
    try {
      out = eval(release, List.of(statsKey), List.of(prefix, id, mode,
          Integer.toString(settings.maxInFlightPerHost), Long.toString(settings.delayMs),
          Long.toString(backoffMs), encode(requeued.url(), requeued.depth(), requeued.attempt(),
              requeued.redirectChain())));
    } catch (JedisException e) {
      throw failure("give back a lease", e);
    }
    if (asLong(out) == 0) {
      log.warn("Lease of {} had expired and was queued again before it was given back ({});"
          + " it may be fetched twice: raise the lease duration", lease.url(), mode);
    }
    signal();
  }

  // ---------------------------------------------------------------- hosts

  @Override
  public void delayHost(String hostKey, Duration wait) {
    hostOp("delay", hostKey, wait.toMillis());
    signal();
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
    try {
      return asLong(eval(host, List.of(statsKey), List.of(prefix, op, hostKey,
          Long.toString(value), Integer.toString(settings.maxInFlightPerHost),
          Long.toString(settings.delayMs))));
    } catch (JedisException e) {
      throw failure("update host " + hostKey, e);
    }
  }

  // ---------------------------------------------------------------- waiting

  /** A counter of local changes: a waiting take() retries as soon as this process changes Redis. */
  private long changes;

  private long version() {
    lock.lock();
    try {
      return changes;
    } finally {
      lock.unlock();
    }
  }

  private void await(long version, long waitMs) throws InterruptedException {
    lock.lockInterruptibly();
    try {
      long nanos = TimeUnit.MILLISECONDS.toNanos(waitMs);
      // Other processes' changes are seen on the next poll; this one's wake the waiters now.
      while (!closed && changes == version && nanos > 0) {
        nanos = changed.awaitNanos(nanos);
      }
    } finally {
      lock.unlock();
    }
  }

  private void signal() {
    lock.lock();
    try {
      changes++;
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /** Stops handing out URLs in this process and closes the connections. */
  @Override
  public void close() {
    boolean wasClosed = closed;
    closed = true;
    signal();
    if (!wasClosed) {
      log.debug("Closing the Redis frontier of crawl {}", crawlId);
    }
  }

  /**
   * Closes the connections to Redis. Call after {@link #close()} once nothing uses the frontier:
   * the crawl's workers may still give leases back after close().
   */
  public void disconnect() {
    closed = true;
    redis.close();
  }

  // ---------------------------------------------------------------- counters

  @Override
  public boolean isFinished() {
    Map<String, Long> stats = stats();
    return stats.get("pending") <= 0 && stats.get("leased") <= 0;
  }

  @Override
  public long pending() {
    return stats().get("pending");
  }

  @Override
  public long inFlight() {
    return stats().get("leased");
  }

  @Override
  public int hosts() {
    return (int) (long) stats().get("hosts");
  }

  @Override
  public long droppedByHostBudget() {
    return stats().get("droppedBudget");
  }

  @Override
  public long droppedBySkippedHost() {
    return stats().get("droppedSkipped");
  }

  private static final List<String> STATS = List.of(
      "pending", "leased", "hosts", "droppedBudget", "droppedSkipped", "expired");

  /** The crawl's shared counters. */
  private Map<String, Long> stats() {
    List<String> values;
    try {
      values = redis.hmget(statsKey, STATS.toArray(new String[0]));
    } catch (JedisException e) {
      throw failure("read the crawl's counters", e);
    }
    Map<String, Long> stats = new LinkedHashMap<>();
    for (int i = 0; i < STATS.size(); i++) {
      stats.put(STATS.get(i), values.get(i) == null ? 0 : Long.parseLong(values.get(i)));
    }
    return stats;
  }

  @Override
  public String hostKey(Url url) {
    return settings.queueKey.of(url);
  }

  @Override
  public long approximateSeen() {
    refreshCounts(false);
    return Math.round(estimate());
  }

  @Override
  public double seenFpp() {
    refreshCounts(false);
    return fppAt(estimate());
  }

  @Override
  public int capacityWarnings() {
    return capacityWarnings.get();
  }

  /** The crawl's shared state, for {@code crawl --status}. */
  public Status status() {
    refreshCounts(true);
    Map<String, Long> stats = stats();
    double n = estimate();
    return new Status(crawlId, stats.get("pending"), stats.get("leased"),
        (int) (long) stats.get("hosts"), Math.round(n), fppAt(n), settings.expectedUrls,
        settings.fpp, stats.get("droppedBudget"), stats.get("droppedSkipped"),
        stats.get("expired"), settings.blocks * BlockedBloomFilter.BLOCK_BITS, settings.hashes,
        segments, setBits());
  }

  /**
   * The shared state of a crawl in Redis.
   *
   * @param expiredLeases leases re-queued because they expired (a process died or was too slow)
   * @param setBits bits set in the seen filter (X)
   */
  public record Status(String crawlId, long pending, long leased, int hosts, long seenEstimate,
      double seenFpp, long capacity, double targetFpp, long droppedByHostBudget,
      long droppedBySkippedHost, long expiredLeases, long filterBits, int hashes, int segments,
      long setBits) {}

  private long setBits() {
    long total = 0;
    for (int i = 0; i < segments; i++) {
      total += segmentBits.get(i);
    }
    return total;
  }

  private double estimate() {
    long bits = settings.blocks * BlockedBloomFilter.BLOCK_BITS;
    long set = setBits();
    if (set >= bits) {
      return Long.MAX_VALUE;
    }
    return Math.log1p(-(double) set / bits) / logUnsetPerKey;
  }

  private double fppAt(double n) {
    long bits = settings.blocks * BlockedBloomFilter.BLOCK_BITS;
    if (n * settings.hashes / bits > 40) {
      return 1;
    }
    return BlockedBloomFilter.falsePositiveRate(Math.round(n), bits, settings.hashes);
  }

  private void noteCount(int segment, long count) {
    segmentBits.accumulateAndGet(segment, count, Math::max);
  }

  /** Reads every segment's counter (pipelined), at most once a second unless forced. */
  private void refreshCounts(boolean force) {
    long now = System.nanoTime();
    if (!force && countsReadAt != 0 && now - countsReadAt < COUNT_REFRESH_NANOS) {
      return;
    }
    countsReadAt = now;
    List<Response<String>> counts = new ArrayList<>(segments);
    try (AbstractPipeline pipeline = redis.pipelined()) {
      for (int i = 0; i < segments; i++) {
        counts.add(pipeline.get(countKey(i)));
      }
      pipeline.sync();
    } catch (JedisException e) {
      throw failure("read the seen filter's counters", e);
    }
    for (int i = 0; i < segments; i++) {
      String value = counts.get(i).get();
      if (value != null) {
        noteCount(i, Long.parseLong(value));
      }
    }
  }

  // ---------------------------------------------------------------- capacity warnings

  private long thresholdCount(int index) {
    return (long) Math.ceil(Sieve.threshold(index) * settings.expectedUrls);
  }

  private void checkCapacity() {
    if (estimate() >= nextThresholdCount) {
      warnCapacity();
    } else if (System.nanoTime() - countsReadAt > COUNT_REFRESH_NANOS && segments > 1) {
      // Segments this process has not touched lately: read them now and then.
      refreshCounts(false);
      if (estimate() >= nextThresholdCount) {
        warnCapacity();
      }
    }
  }

  /** Claims each threshold crossed in Redis; the one process that claims it logs it. */
  private synchronized void warnCapacity() {
    refreshCounts(true);
    double estimate = estimate();
    while (estimate >= thresholdCount(nextThreshold)) {
      int index = nextThreshold++;
      capacityWarnings.incrementAndGet();
      String claimed;
      try {
        claimed = redis.set(prefix + "warn:" + index, "1", SetParams.setParams().nx());
      } catch (JedisException e) {
        throw failure("record a capacity warning", e);
      }
      if ("OK".equals(claimed)) {
        capacityLog.warn(String.format(Locale.ROOT,
            "Sieve capacity exceeded: ~%,d URLs seen, %.0f%% of capacity %,d; estimated"
                + " false-positive rate %.3g (target %.3g). New URLs are being dropped as seen"
                + " more often than planned: start a crawl with a larger --expected-urls.",
            Math.round(estimate), Sieve.threshold(index) * 100, settings.expectedUrls,
            fppAt(estimate), settings.fpp));
      }
    }
    nextThresholdCount = thresholdCount(nextThreshold);
  }

  // ---------------------------------------------------------------- plumbing

  private String segmentKey(int segment) {
    return "sieve:{" + crawlId + ":seg:" + segment + "}";
  }

  private String countKey(int segment) {
    return segmentKey(segment) + ":bits";
  }

  private Object eval(Script script, List<String> keys, List<String> args) {
    try {
      return redis.evalsha(script.sha, keys, args);
    } catch (JedisNoScriptException e) {
      return redis.eval(script.source, keys, args);
    }
  }

  private UncheckedIOException failure(String what, JedisException e) {
    return new UncheckedIOException(new IOException(
        "Redis frontier at " + where + " failed to " + what + ": " + rootMessage(e), e));
  }

  static String rootMessage(Throwable e) {
    Throwable root = e;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    String message = root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
    return root == e ? message : e.getMessage() + " (" + message + ")";
  }

  /** An entry of a host queue: attempt, depth, URL and redirect chain, tab-separated. */
  static String encode(String url, int depth, int attempt, List<String> chain) {
    StringBuilder entry = new StringBuilder(url.length() + 8)
        .append(attempt).append('\t').append(depth).append('\t').append(clean(url));
    for (String from : chain) {
      entry.append('\t').append(clean(from));
    }
    return entry.toString();
  }

  private static String clean(String url) {
    return url.indexOf('\t') < 0 ? url : url.replace("\t", "%09");
  }

  static Lease decode(String entry, String hostKey) {
    String[] parts = entry.split("\t", -1);
    if (parts.length < 3) {
      throw new IllegalStateException("malformed queue entry in Redis: " + entry);
    }
    return new Lease(parts[2], Integer.parseInt(parts[1]), hostKey, Integer.parseInt(parts[0]),
        Arrays.asList(parts).subList(3, parts.length));
  }

  private static long asLong(Object value) {
    if (value instanceof Long number) {
      return number;
    }
    return Long.parseLong(asString(value));
  }

  private static String asString(Object value) {
    return value instanceof byte[] bytes ? new String(bytes, StandardCharsets.UTF_8)
        : String.valueOf(value);
  }

  /** A script's source and SHA-1 (EVALSHA; EVAL loads it where the server lacks it). */
  private static final class Script {
    final String source;
    final String sha;

    Script(String source) {
      this.source = source;
      try {
        this.sha = HexFormat.of().formatHex(
            MessageDigest.getInstance("SHA-1").digest(source.getBytes(StandardCharsets.UTF_8)));
      } catch (NoSuchAlgorithmException e) {
        throw new IllegalStateException("SHA-1 is missing from this JVM", e);
      }
    }
  }

  /** The crawl-wide settings stored in Redis when the crawl is created; joiners must match. */
  record Settings(long blocks, int hashes, long expectedUrls, double fpp, long segmentBits,
      QueueKey queueKey, long delayMs, int maxInFlightPerHost, long maxUrlsPerHost) {

    Map<String, String> toMap() {
      Map<String, String> map = new LinkedHashMap<>();
      map.put("format", Integer.toString(FORMAT));
      map.put("blocks", Long.toString(blocks));
      map.put("hashes", Integer.toString(hashes));
      map.put("expected-urls", Long.toString(expectedUrls));
      map.put("fpp", Double.toString(fpp));
      map.put("segment-bits", Long.toString(segmentBits));
      map.put("queue-key", queueKey.name().toLowerCase(Locale.ROOT));
      map.put("delay-ms", Long.toString(delayMs));
      map.put("per-host", Integer.toString(maxInFlightPerHost));
      map.put("max-pages-per-host", Long.toString(maxUrlsPerHost));
      return map;
    }

    static Settings fromMap(Map<String, String> map) {
      if (!Integer.toString(FORMAT).equals(map.get("format"))) {
        throw new RedisFrontierException("the crawl's settings in Redis are of format "
            + map.get("format") + ", this build reads " + FORMAT);
      }
      return new Settings(Long.parseLong(map.get("blocks")), Integer.parseInt(map.get("hashes")),
          Long.parseLong(map.get("expected-urls")), Double.parseDouble(map.get("fpp")),
          Long.parseLong(map.get("segment-bits")),
          QueueKey.valueOf(map.get("queue-key").toUpperCase(Locale.ROOT)),
          Long.parseLong(map.get("delay-ms")), Integer.parseInt(map.get("per-host")),
          Long.parseLong(map.get("max-pages-per-host")));
    }
  }

  /** Where and how to connect: {@code redis://HOST:PORT[/DB]} or {@code redis-cluster://H:P,H:P}. */
  record Target(boolean cluster, List<HostAndPort> nodes, int database) {
    static Target parse(String uri) {
      String text = uri.strip();
      boolean cluster = text.startsWith("redis-cluster://");
      if (!cluster && !text.startsWith("redis://")) {
        throw new IllegalArgumentException("frontier (" + uri + ") must be local,"
            + " redis://HOST:PORT[/DB] or redis-cluster://HOST:PORT[,HOST:PORT...]");
      }
      String rest = text.substring(text.indexOf("://") + 3);
      int database = 0;
      int slash = rest.indexOf('/');
      if (slash >= 0) {
        String db = rest.substring(slash + 1);
        rest = rest.substring(0, slash);
        if (!db.isEmpty()) {
          if (cluster) {
            throw new IllegalArgumentException("frontier (" + uri + "): Redis Cluster has no"
                + " databases, drop /" + db);
          }
          try {
            database = Integer.parseInt(db);
          } catch (NumberFormatException e) {
            database = -1;
          }
          if (database < 0) {
            throw new IllegalArgumentException("frontier (" + uri + "): database '" + db
                + "' must be a number >= 0");
          }
        }
      }
      List<HostAndPort> nodes = new ArrayList<>();
      for (String node : rest.split(",")) {
        int colon = node.lastIndexOf(':');
        String hostName = colon < 0 ? node : node.substring(0, colon);
        int port = 6379;
        if (colon >= 0) {
          try {
            port = Integer.parseInt(node.substring(colon + 1));
          } catch (NumberFormatException e) {
            port = -1;
          }
        }
        if (hostName.isEmpty() || port < 1 || port > 65535) {
          throw new IllegalArgumentException("frontier (" + uri + "): '" + node
              + "' is not HOST:PORT");
        }
        nodes.add(new HostAndPort(hostName, port));
      }
      if (!cluster && nodes.size() != 1) {
        throw new IllegalArgumentException("frontier (" + uri + "): redis:// takes one"
            + " HOST:PORT; use redis-cluster:// for several");
      }
      return new Target(cluster, List.copyOf(nodes), database);
    }
  }

  /** Settings of a {@link RedisFrontier}, validated in {@link #build()}. */
  public static final class Builder {
    private String uri;
    private String crawlId;
    private long expectedUrls = 10_000_000;
    private double falsePositiveRate = 1e-6;
    private Duration politenessDelay = Duration.ofSeconds(1);
    private int maxInFlightPerHost = 1;
    private long maxUrlsPerHost = Long.MAX_VALUE;
    private QueueKey queueKey = QueueKey.HOST;
    private Duration leaseDuration = Duration.ofSeconds(DEFAULT_LEASE_SECONDS);
    private int connections = 8;
    private long segmentBits = DEFAULT_SEGMENT_BITS;
    private Duration pollInterval = Duration.ofMillis(50);
    private BiConsumer<String, Long> onLease = (hostKey, millis) -> {};

    private Builder() {}

    /** {@code redis://HOST:PORT[/DB]} or {@code redis-cluster://HOST:PORT[,HOST:PORT...]}. */
    public Builder uri(String uri) {
      this.uri = Objects.requireNonNull(uri, "uri");
      return this;
    }

    /** The crawl every process with this id (and Redis) joins: letters, digits, {@code ._-}. */
    public Builder crawlId(String crawlId) {
      this.crawlId = Objects.requireNonNull(crawlId, "crawlId");
      return this;
    }

    /** The seen filter's capacity, used when the crawl is created (default 10⁷). */
    public Builder expectedUrls(long expectedUrls) {
      this.expectedUrls = expectedUrls;
      return this;
    }

    /** The seen filter's false-positive rate at capacity (default 10⁻⁶). */
    public Builder falsePositiveRate(double falsePositiveRate) {
      this.falsePositiveRate = falsePositiveRate;
      return this;
    }

    /** The least time between fetch starts of one host, across processes (default 1 s). */
    public Builder politenessDelay(Duration delay) {
      this.politenessDelay = Objects.requireNonNull(delay, "politenessDelay");
      return this;
    }

    /** At most this many fetches of one host at once, across processes (default 1). */
    public Builder maxInFlightPerHost(int max) {
      this.maxInFlightPerHost = max;
      return this;
    }

    /** At most this many URLs queued per host over the whole crawl (default unlimited). */
    public Builder maxUrlsPerHost(long max) {
      this.maxUrlsPerHost = max;
      return this;
    }

    public Builder queueKey(QueueKey queueKey) {
      this.queueKey = Objects.requireNonNull(queueKey, "queueKey");
      return this;
    }

    /** How long a lease lasts before another process may take its URL again (default 120 s). */
    public Builder leaseDuration(Duration leaseDuration) {
      this.leaseDuration = Objects.requireNonNull(leaseDuration, "leaseDuration");
      return this;
    }

    /** Connections to Redis (per node in a cluster): the crawl's threads and a few (default 8). */
    public Builder connections(int connections) {
      this.connections = connections;
      return this;
    }

    /** Bits per filter segment, a multiple of 512 (tests use small ones to spread slots). */
    Builder segmentBits(long segmentBits) {
      this.segmentBits = segmentBits;
      return this;
    }

    /** The longest a waiting take() goes without asking Redis again (default 50 ms). */
    Builder pollInterval(Duration pollInterval) {
      this.pollInterval = Objects.requireNonNull(pollInterval, "pollInterval");
      return this;
    }

    /** Called with each lease's host and Redis time in epoch millis (tests). */
    Builder onLease(BiConsumer<String, Long> onLease) {
      this.onLease = Objects.requireNonNull(onLease, "onLease");
      return this;
    }

    /**
     * Connects and creates the crawl in Redis, or joins it when it exists with the same settings.
     *
     * @throws IllegalArgumentException for a bad setting (the message names it)
     * @throws RedisFrontierException if Redis is unreachable or the crawl exists with other
     *     settings
     */
    public RedisFrontier build() {
      validate();
      FilterSizing.Plan plan = FilterSizing.blocked(expectedUrls, falsePositiveRate);
      Settings settings = new Settings(plan.bits() / BlockedBloomFilter.BLOCK_BITS, plan.hashes(),
          expectedUrls, falsePositiveRate, segmentBits, queueKey, politenessDelay.toMillis(),
          maxInFlightPerHost, maxUrlsPerHost);
      Target target = Target.parse(uri);
      UnifiedJedis redis = connect(target, connections);
      try {
        Object stored = redis.eval(RedisScripts.INIT, List.of("sieve:{" + crawlId + "}:meta"),
            flatten(settings.toMap()));
        Map<String, String> existing = pairs((List<?>) stored);
        if (!existing.isEmpty()) {
          refuseMismatch(existing, settings.toMap());
          settings = Settings.fromMap(existing);
        }
      } catch (JedisException e) {
        redis.close();
        throw new RedisFrontierException(
            "cannot use Redis at " + describe(target) + ": " + rootMessage(e), e);
      } catch (RuntimeException e) {
        redis.close();
        throw e;
      }
      return new RedisFrontier(redis, target.cluster, describe(target), crawlId, settings,
          leaseDuration.toMillis(), pollInterval.toMillis(), onLease);
    }

    /**
     * Connects to an existing crawl with the settings it was created with, e.g. to read its
     * {@link RedisFrontier#status()}; only the URI and crawl id are used.
     *
     * @throws RedisFrontierException if Redis is unreachable or holds no crawl of that id
     */
    public RedisFrontier join() {
      checkIds();
      Target target = Target.parse(uri);
      UnifiedJedis redis = connect(target, 2);
      Map<String, String> meta;
      try {
        meta = redis.hgetAll("sieve:{" + crawlId + "}:meta");
      } catch (JedisException e) {
        redis.close();
        throw new RedisFrontierException(
            "cannot use Redis at " + describe(target) + ": " + rootMessage(e), e);
      }
      if (meta.isEmpty()) {
        redis.close();
        throw new RedisFrontierException("no crawl '" + crawlId + "' in Redis at "
            + describe(target));
      }
      return new RedisFrontier(redis, target.cluster, describe(target), crawlId,
          Settings.fromMap(meta), leaseDuration.toMillis(), pollInterval.toMillis(), onLease);
    }

    private void refuseMismatch(Map<String, String> existing, Map<String, String> wanted) {
      List<String> differences = new ArrayList<>();
      for (String key : wanted.keySet()) {
        if (!Objects.equals(existing.get(key), wanted.get(key))) {
          differences.add(key + " " + existing.get(key) + " (this process: " + wanted.get(key)
              + ")");
        }
      }
      if (!differences.isEmpty()) {
        throw new RedisFrontierException("crawl '" + crawlId + "' in Redis was created with "
            + String.join(", ", differences) + "; join it with the same settings or use another"
            + " --crawl-id");
      }
    }

    private static UnifiedJedis connect(Target target, int connections) {
      JedisClientConfig config = DefaultJedisClientConfig.builder()
          .connectionTimeoutMillis(2000)
          .socketTimeoutMillis(10_000)
          .database(target.database)
          .clientName("sieve-crawler")
          .build();
      GenericObjectPoolConfig<Connection> pool = new GenericObjectPoolConfig<>();
      pool.setMaxTotal(connections);
      pool.setMaxIdle(connections);
      pool.setJmxEnabled(false);
      UnifiedJedis redis;
      try {
        redis = target.cluster
            ? new JedisCluster(new HashSet<>(target.nodes), config, 3, pool)
            : new JedisPooled(target.nodes.get(0), config, pool);
        redis.ping();
      } catch (JedisException e) {
        throw new RedisFrontierException(
            "cannot reach Redis at " + describe(target) + ": " + rootMessage(e), e);
      }
      return redis;
    }

    private static String describe(Target target) {
      StringBuilder text = new StringBuilder(target.cluster ? "redis-cluster://" : "redis://");
      for (int i = 0; i < target.nodes.size(); i++) {
        text.append(i == 0 ? "" : ",").append(target.nodes.get(i));
      }
      return target.database == 0 ? text.toString() : text + "/" + target.database;
    }

    private static List<String> flatten(Map<String, String> map) {
      List<String> list = new ArrayList<>();
      map.forEach((k, v) -> {
        list.add(k);
        list.add(v);
      });
      return list;
    }

    private static Map<String, String> pairs(List<?> list) {
      Map<String, String> map = new LinkedHashMap<>();
      for (int i = 0; i + 1 < list.size(); i += 2) {
        map.put(asString(list.get(i)), asString(list.get(i + 1)));
      }
      return map;
    }

    private void checkIds() {
      if (uri == null) {
        throw new IllegalArgumentException("uri (null) must be redis://HOST:PORT[/DB] or"
            + " redis-cluster://HOST:PORT[,...]");
      }
      if (crawlId == null || !CRAWL_ID.matcher(crawlId).matches()) {
        throw new IllegalArgumentException("crawl-id (" + crawlId + ") must be 1 to 100 letters,"
            + " digits, '.', '_' or '-'");
      }
    }

    private void validate() {
      checkIds();
      FilterSizing.blocked(expectedUrls, falsePositiveRate); // throws naming the bad value
      if (politenessDelay.isNegative()) {
        throw new IllegalArgumentException(
            "politenessDelay (" + politenessDelay + ") must be >= 0");
      }
      if (maxInFlightPerHost < 1) {
        throw new IllegalArgumentException(
            "maxInFlightPerHost (" + maxInFlightPerHost + ") must be >= 1");
      }
      if (maxUrlsPerHost < 1) {
        throw new IllegalArgumentException("maxUrlsPerHost (" + maxUrlsPerHost + ") must be >= 1");
      }
      if (leaseDuration.toMillis() < 1) {
        throw new IllegalArgumentException("leaseDuration (" + leaseDuration + ") must be >= 1 ms");
      }
      if (connections < 1) {
        throw new IllegalArgumentException("connections (" + connections + ") must be >= 1");
      }
      if (segmentBits < BlockedBloomFilter.BLOCK_BITS || segmentBits % BlockedBloomFilter.BLOCK_BITS != 0
          || segmentBits > (1L << 32)) {
        throw new IllegalArgumentException("segmentBits (" + segmentBits + ") must be a multiple"
            + " of 512 in [512, 2^32]");
      }
      if (pollInterval.toMillis() < 1) {
        throw new IllegalArgumentException("pollInterval (" + pollInterval + ") must be >= 1 ms");
      }
    }
  }
}
