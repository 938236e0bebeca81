package dev.sieve.frontier.urlfrontier;

import crawlercommons.urlfrontier.Urlfrontier.AckMessage;
import crawlercommons.urlfrontier.Urlfrontier.KnownURLItem;
import crawlercommons.urlfrontier.Urlfrontier.Stats;
import crawlercommons.urlfrontier.Urlfrontier.URLInfo;
import crawlercommons.urlfrontier.Urlfrontier.URLItem;
import dev.sieve.frontier.Frontier;
import dev.sieve.frontier.FrontierLifecycle;
import dev.sieve.frontier.FrontierStats;
import dev.sieve.frontier.FrontierTime;
import dev.sieve.frontier.Lease;
import dev.sieve.frontier.Politeness;
import dev.sieve.url.Url;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link Frontier} whose scheduling is done by a URL Frontier service (gRPC, API 2.6 or earlier): Sieve's
 * own {@code serve}, or any other. Every crawl process given the same service and crawl ID works on
 * one crawl; the seen filter, the queues, the leases and the politeness schedule are the service's.
 *
 * <ul>
 *   <li><b>Push</b>: one PutDiscovered batch per call (a page's links; PutURLs items to a service
 *       before 2.6, which answers it UNIMPLEMENTED), URLs keyed by their politeness key, with
 *       depth, via, lastmod and redirects as metadata ({@link LeaseMetadata}); an item acked OK was
 *       new, SKIPPED was seen. The first push of a key in this process sets the queue's delay to
 *       the politeness delay, in whole seconds rounded up (SetDelay).
 *   <li><b>Take</b>: one GetURLs call per batch (up to {@value #BATCH_QUEUES} queues, {@code
 *       maxInFlightPerHost} URLs each, which the service applies to URLs in flight), leased for the
 *       lease duration (delay_requestable), buffered here until a worker takes them.
 *   <li><b>Give back</b>: a known item: completed with refetchable_from_date 0; retried with now +
 *       backoff (seconds, rounded up) and the next attempt in its metadata; put back with date 1,
 *       due at once and first in its queue. A lease not given back (the process died) is handed
 *       out again by the service once it expires.
 *   <li><b>Hosts</b>: Retry-After is BlockQueueUntil; Crawl-delay is SetDelay (never below the
 *       politeness delay); skipping a host is DeleteQueue, and this process drops later links to
 *       it (another process, not having skipped it, may queue them again).
 *   <li><b>End</b>: the crawl is finished when GetStats for the crawl ID reports no URL in its
 *       queues ({@code size}, which counts the leased ones) and none in process: nothing pending,
 *       nothing leased by any process, nothing due later. Links are pushed before the lease that
 *       found them is given back, so the count never drops to 0 while work remains.
 * </ul>
 *
 * <p>The filter settings of the crawl (capacity, rate) are the service's. Thread-safe.
 */
public final class ServiceFrontier implements Frontier, FrontierLifecycle {
  /** Queues one GetURLs call may lease from. */
  static final int BATCH_QUEUES = 8;
  /** How long a worker waits before asking the service again when nothing was due. */
  private static final long POLL_MS = 50;
  /** The refetch date of a URL put back: long past, so due at once and first in its queue. */
  private static final long AT_ONCE = 1;

  private static final Logger log = LoggerFactory.getLogger(ServiceFrontier.class);

  private final ServiceCalls calls;
  private final String crawlId;
  private final Politeness politeness;
  private final int leaseSeconds;
  private final Clock clock;
  private final HostControls hosts;
  private final Object lock = new Object();
  private final ArrayDeque<Lease> buffer = new ArrayDeque<>();
  /** The service's last answer to GetStats, for the counters when a call fails. */
  private volatile Stats lastStats = Stats.getDefaultInstance();
  private volatile boolean closed;

  private ServiceFrontier(ServiceCalls calls, String crawlId, Politeness politeness,
      Duration lease, Clock clock) {
    this.calls = calls;
    this.crawlId = crawlId;
    this.politeness = politeness;
    this.leaseSeconds =
        (int) Math.min(Integer.MAX_VALUE, Math.max(1, FrontierTime.seconds(lease)));
    this.clock = clock;
    this.hosts = new HostControls(calls, politeness.delay(), clock::millis);
  }

  /**
   * A frontier scheduled by the service at {@code uri} ({@code urlfrontier://HOST:PORT}) as crawl
   * {@code crawlId} (blank: the service's default crawl). Connects lazily: a service that is down
   * fails the first call.
   *
   * @throws IllegalArgumentException naming {@code --frontier} when the URI is not of that form
   */
  public static ServiceFrontier connect(String uri, String crawlId, Politeness politeness,
      Duration lease, Clock clock) {
    return connect(uri, crawlId, politeness, lease, clock, null, null);
  }

  /**
   * As {@link #connect(String, String, Politeness, Duration, Clock)}, over TLS for {@code
   * urlfrontier+tls://HOST:PORT} (trusting the CAs of the PEM file {@code caCert} besides the
   * system's; null: the system's), sending the bearer token of {@code tokenFile} (null: none).
   *
   * @throws IllegalArgumentException naming the option whose value or file is bad
   */
  public static ServiceFrontier connect(String uri, String crawlId, Politeness politeness,
      Duration lease, Clock clock, Path caCert, Path tokenFile) {
    ServiceAddress address = ServiceAddress.parse(uri);
    String id = crawlId == null ? "" : crawlId.strip();
    return new ServiceFrontier(new ServiceCalls(address, id,
        ServiceCredentials.of(address, caCert, tokenFile)), id, politeness, lease, clock);
  }

  // ---------------------------------------------------------------- push

  @Override
  public boolean push(Url url, int depth, String via, Instant lastmod) {
    return offer(List.of(url), depth, List.of(), via, lastmod) == 1;
  }

  @Override
  public int pushAll(List<Url> urls, int depth, String via) {
    return offer(urls, depth, List.of(), via, null);
  }

  @Override
  public boolean pushRedirect(Url target, Lease from) {
    return offer(List.of(target), from.depth(),
        Stream.concat(from.redirectChain().stream(), Stream.of(from.url().toString())).toList(),
        from.url().toString(), null) == 1;
  }

  private int offer(List<Url> urls, int depth, List<String> chain, String via, Instant lastmod) {
    List<URLInfo> items = new ArrayList<>(urls.size());
    List<String> keys = new ArrayList<>(urls.size());
    for (Url url : urls) {
      String key = hostKey(url);
      if (hosts.dropsLink(key)) {
        continue;
      }
      URLInfo.Builder info = info(url.toString(), key);
      LeaseMetadata.write(info, depth, 0, chain, via, lastmod);
      items.add(info.build());
      keys.add(key);
    }
    if (items.isEmpty()) {
      return 0;
    }
    List<AckMessage.Status> acks = calls.discover(items);
    int created = 0;
    for (int i = 0; i < acks.size(); i++) {
      switch (acks.get(i)) {
        case OK -> created++;
        case SKIPPED -> { } // seen before, or refused by the service as bad input
        default -> throw calls.failure("a put", new IllegalStateException(
            "item " + items.get(i).getUrl() + " acked " + acks.get(i)));
      }
    }
    keys.stream().distinct().forEach(hosts::queued);
    if (created > 0) {
      wake();
    }
    return created;
  }

  // ---------------------------------------------------------------- take and give back

  @Override
  public Lease take() throws InterruptedException {
    synchronized (lock) {
      while (!closed) {
        Lease lease = nextLocked();
        if (lease != null) {
          return lease;
        }
        if (finished(calls.stats())) {
          return null;
        }
        lock.wait(POLL_MS);
      }
      return null;
    }
  }

  @Override
  public Lease poll() {
    synchronized (lock) {
      return closed ? null : nextLocked();
    }
  }

  /** The next buffered lease, leasing a batch from the service when there is none. */
  private Lease nextLocked() {
    if (buffer.isEmpty()) {
      for (URLInfo info : calls.get(BATCH_QUEUES, politeness.maxInFlightPerHost(), leaseSeconds)) {
        LeaseMetadata.read(info).ifPresentOrElse(buffer::add, () -> completeUnfetchable(info));
      }
    }
    return buffer.poll();
  }

  /** Gives back a lease whose URL is done; the service keeps no crawl counters ({@code counts}). */
  @Override
  public void complete(Lease lease, Map<String, Long> counts) {
    giveBack(lease, lease, 0);
  }

  @Override
  public void retry(Lease lease, Duration backoff, Map<String, Long> counts) {
    // This second plus the backoff in whole seconds: a backoff of 0 is due at once (a retry is not
    // politeness; a Retry-After is, and blocks the queue: HostControls#block).
    giveBack(lease, lease.nextAttempt(),
        FrontierTime.secondDown(clock.millis()) + FrontierTime.seconds(backoff));
  }

  @Override
  public void putBack(Lease lease) {
    giveBack(lease, lease, AT_ONCE);
  }

  /** A known item: completed ({@code refetchFrom} 0) or due again from then, with its metadata. */
  private void giveBack(Lease lease, Lease requeued, long refetchFrom) {
    long date = hosts.skipped(lease.hostKey()) ? 0 : refetchFrom;
    URLInfo.Builder info = info(lease.url().toString(), lease.hostKey());
    if (date != 0) {
      LeaseMetadata.write(info, requeued);
    }
    AckMessage.Status ack = calls.put(List.of(URLItem.newBuilder().setKnown(KnownURLItem
        .newBuilder().setInfo(info).setRefetchableFromDate(date)).build())).get(0);
    if (ack != AckMessage.Status.OK) {
      throw calls.failure("PutURLs", new IllegalStateException(
          "known item " + lease.url() + " acked " + ack));
    }
    wake();
  }

  /**
   * A URL the service handed out that is not an http(s) URL (another client put it there): done
   * without a fetch, so the service does not hand it out again; logged, as it has no record.
   */
  private void completeUnfetchable(URLInfo handedOut) {
    log.warn("URL Frontier service handed out '{}' (queue '{}'), not an http(s) URL: completed"
        + " without fetching", handedOut.getUrl(), handedOut.getKey());
    calls.put(List.of(URLItem.newBuilder().setKnown(KnownURLItem.newBuilder()
        .setInfo(info(handedOut.getUrl(), handedOut.getKey())).setRefetchableFromDate(0)).build()));
  }

  private URLInfo.Builder info(String url, String key) {
    return URLInfo.newBuilder().setUrl(url).setKey(key).setCrawlID(crawlId);
  }

  private void wake() {
    synchronized (lock) {
      lock.notifyAll();
    }
  }

  // ---------------------------------------------------------------- hosts

  @Override
  public void delayHost(String hostKey, Duration wait) {
    hosts.block(hostKey, wait);
  }

  @Override
  public void setHostDelay(String hostKey, Duration delay) {
    hosts.crawlDelay(hostKey, delay);
  }

  @Override
  public int skipHost(String hostKey) {
    return (int) Math.min(hosts.skip(hostKey), Integer.MAX_VALUE);
  }

  /** Stops handing out URLs; the leases buffered here go back to the service, due at once. */
  @Override
  public void close() {
    List<Lease> unused;
    synchronized (lock) {
      if (closed) {
        return;
      }
      closed = true;
      unused = new ArrayList<>(buffer);
      buffer.clear();
      lock.notifyAll();
    }
    try {
      for (Lease lease : unused) {
        putBack(lease);
      }
    } catch (java.io.UncheckedIOException e) {
      log.warn("{}: the {} URL(s) leased and not started are handed out again when their leases"
          + " expire", e.getMessage(), unused.size());
    }
  }

  /** Closes the connection: after {@link #close()}, once no worker gives leases back. */
  @Override
  public void disconnect() {
    closed = true;
    calls.close();
  }

  // ---------------------------------------------------------------- counters

  /** Nothing in the crawl's queues (leased URLs count there) and nothing in process. */
  static boolean finished(Stats stats) {
    return stats.getSize() <= 0 && stats.getInProcess() <= 0;
  }

  @Override
  public boolean isFinished() {
    return finished(calls.stats());
  }

  /**
   * The service's counters for the crawl (one GetStats; the last answer when it fails): pending
   * is its queues' URLs not leased, in flight those leased by every process; its filter's
   * estimates ({@code filter.estimated_urls}, {@code filter.estimated_fpp_ppb}; 0 without). A host
   * budget is refused with a service, so none is dropped by one; skipped hosts are this
   * process's.
   */
  @Override
  public FrontierStats stats() {
    Stats stats = counters();
    return new FrontierStats(Math.max(0, stats.getSize() - stats.getInProcess()),
        stats.getInProcess(), (int) Math.min(Integer.MAX_VALUE, stats.getNumberOfQueues()), 0,
        hosts.dropped(), 0, 1, stats.getCountsOrDefault("filter.estimated_urls", 0),
        stats.getCountsOrDefault("filter.estimated_fpp_ppb", 0) / 1e9, 0, 0, 0, 0, 0);
  }

  /** The politeness key of {@code url}. */
  private String hostKey(Url url) {
    return politeness.queueKey().of(url);
  }

  /** GetStats of the crawl for a counter; the last answer when the service fails (logged). */
  private Stats counters() {
    try {
      lastStats = calls.stats();
    } catch (java.io.UncheckedIOException e) {
      log.debug("Counters as of the last GetStats: {}", e.getMessage());
    }
    return lastStats;
  }
}
