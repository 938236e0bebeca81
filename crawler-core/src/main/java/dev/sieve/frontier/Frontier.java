package dev.sieve.frontier;

import dev.sieve.url.Url;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * The crawl frontier: a seen filter in front of per-host queues that are scheduled politely. A URL
 * enters once, when the filter first sees it, into the queue of its politeness key; workers take
 * {@link Lease}s from whichever host is ready soonest and give each back exactly once with {@link
 * #complete}, {@link #retry} or {@link #putBack}. The frontier is finished when nothing is
 * pending and nothing is leased; {@link #take} then returns null.
 *
 * <p>Implementations are thread-safe: {@code LocalFrontier} in process memory, {@code
 * RedisFrontier} shared by crawler processes through Redis.
 */
public interface Frontier extends AutoCloseable {
  /**
   * Offers a URL with no referrer (a seed), as {@link #push(Url, int, String, Instant)} with
   * {@code via} and {@code lastmod} null.
   */
  default boolean push(Url url, int depth) {
    return push(url, depth, null, null);
  }

  /**
   * Offers a seed, link or listed URL. Returns true if it was never seen and is now queued; false
   * if it was (or might have been) seen, or its host is over its budget or skipped (both counted).
   * Its {@link Lease} carries {@code via} and {@code lastmod} through every retry, spill and
   * saved state.
   *
   * @param via the URL it was found through (a page, a sitemap), or null for a seed
   * @param lastmod when a sitemap says it last changed, or null
   */
  boolean push(Url url, int depth, String via, Instant lastmod);

  /**
   * Offers the links found on page {@code via} at one depth, as {@link #push} each with no
   * lastmod; returns how many were new and queued. A shared frontier does it in one round trip
   * instead of one per link.
   */
  default int pushAll(List<Url> urls, int depth, String via) {
    int added = 0;
    for (Url url : urls) {
      if (push(url, depth, via, null)) {
        added++;
      }
    }
    return added;
  }

  /** {@link #pushAll(List, int, String)} with no referrer. */
  default int pushAll(List<Url> urls, int depth) {
    return pushAll(urls, depth, null);
  }

  /**
   * Offers a redirect's target at the redirect's depth, remembering the chain; its {@code via} is
   * the redirecting URL ({@code from.url()}); it has no lastmod (a sitemap's date is about the
   * URL it listed, whose record keeps it).
   */
  boolean pushRedirect(Url target, Lease from);

  /** Takes the next URL from the host ready soonest, waiting; null when finished or closed. */
  Lease take() throws InterruptedException;

  /** Takes the next URL whose host is ready now, or returns null without waiting. */
  Lease poll();

  /** Gives back a lease whose URL is done. */
  void complete(Lease lease);

  /** Gives back a lease to be tried again no sooner than {@code backoff} from now. */
  void retry(Lease lease, Duration backoff);

  /**
   * {@link #complete}, with the counters the URL's crawl changed: a frontier that journals keeps
   * them with the completion, so they survive a crash exactly (default: not kept).
   */
  default void complete(Lease lease, java.util.Map<String, Long> counts) {
    complete(lease);
  }

  /** {@link #retry}, with the counters the attempt changed (see {@link #complete(Lease, java.util.Map)}). */
  default void retry(Lease lease, Duration backoff, java.util.Map<String, Long> counts) {
    retry(lease, backoff);
  }

  /** Makes the changes so far survive a crash before the caller relies on them (default: none kept). */
  default void flushLog() {}

  /** Gives back a lease untried, first in its host's queue. */
  void putBack(Lease lease);

  /** Holds every fetch of the host until {@code wait} from now (Retry-After). */
  void delayHost(String hostKey, Duration wait);

  /** Spaces the host's fetches at least {@code delay} apart (Crawl-delay). */
  void setHostDelay(String hostKey, Duration delay);

  /** Drops the host's pending and later URLs, counted; returns how many were pending. */
  int skipHost(String hostKey);

  /**
   * Leases up to {@code max} of the host's pending URLs at once, first in line first, ignoring its
   * politeness delay and in-flight limit: for a host whose URLs are to be recorded without
   * fetching (e.g. unreachable). Each lease is given back like any other. The default leases
   * none: the URLs then come out of {@link #take} one at a time, at the host's pace.
   */
  default java.util.List<Lease> takeAll(String hostKey, int max) {
    return java.util.List.of();
  }

  /** Stops handing out URLs: {@link #take} returns null from now on. */
  @Override
  void close();

  /** True when nothing is pending or in flight. */
  boolean isFinished();

  /** URLs waiting in host queues. */
  long pending();

  /** Leases taken and not yet given back. */
  long inFlight();

  /** Politeness keys seen. */
  int hosts();

  /** New URLs not queued because their host had reached its budget. */
  long droppedByHostBudget();

  /** URLs dropped because their host was skipped. */
  long droppedBySkippedHost();

  /** Layers of the seen filter: more than 1 once a scalable filter has grown. */
  default int seenLayers() {
    return 1;
  }

  /** New URLs refused because the seen filter was full (a fixed-size cuckoo filter). */
  default long droppedByFullFilter() {
    return 0;
  }

  /** The politeness key of {@code url}. */
  String hostKey(Url url);

  /** The seen filter's estimate of distinct URLs seen. */
  long approximateSeen();

  /** The seen filter's estimated current false-positive rate. */
  double seenFpp();

  /** Capacity warnings logged by the seen filter. */
  int capacityWarnings();

  // Lifecycle of a frontier that keeps state or connections; the defaults keep none.

  /** The crawl begins: a frontier that keeps state starts its periodic checkpoints. */
  default void start() {}

  /**
   * Runs {@code task} before each checkpoint, so output the checkpoint vouches for (e.g. a WARC
   * archive) is on disk first; a failure of the task fails that checkpoint. Default: a frontier
   * without checkpoints never runs it.
   */
  default void beforeCheckpoint(Runnable task) {}

  /** Whether workers should wait before taking new URLs: the disk the state is kept on is nearly full. */
  default boolean storageLow() {
    return false;
  }

  /**
   * The crawl has ended and its workers stopped: a frontier that keeps state saves it a last time
   * and releases it. Returns why that failed, in one line naming the file; empty if it did not.
   */
  default java.util.Optional<String> end() {
    return java.util.Optional.empty();
  }

  /** Releases connections once nothing reads the frontier any more (after the crawl's summary). */
  default void disconnect() {}

  /** On resume, the seeds the saved crawl goes on with (its own, and any added); else empty. */
  default java.util.Optional<java.util.List<Url>> savedSeeds() {
    return java.util.Optional.empty();
  }

  /** The crawl's counters restored with the frontier (a resumed crawl's), to count on from. */
  default java.util.Map<String, Long> restoredCounts() {
    return java.util.Map.of();
  }
}
