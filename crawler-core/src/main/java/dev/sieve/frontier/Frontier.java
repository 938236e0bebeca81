package dev.sieve.frontier;

import dev.sieve.url.Url;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * The crawl frontier: a seen filter in front of per-host queues that are scheduled politely. A URL
 * enters once, when the filter first sees it, into the queue of its politeness key; workers take
 * {@link Lease}s from whichever host is ready soonest and give each back exactly once with {@link
 * #complete}, {@link #retry} or {@link #putBack}. The frontier is finished when nothing is
 * pending and nothing is leased; {@link #take} then returns null.
 *
 * <p>This is the whole contract: the queue operations, the host controls and one {@link #stats()}
 * value. A frontier that keeps state or connections has a {@link FrontierLifecycle} besides (see
 * {@link Frontiers#open}). Implementations are thread-safe.
 */
public interface Frontier extends AutoCloseable {
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
   * Offers the links found on page {@code via} (null: none) at one depth, as {@link #push} each
   * with no lastmod; returns how many were new and queued. A shared frontier does it in one round
   * trip instead of one per link.
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

  /**
   * Leases up to {@code max} of the host's pending URLs at once, first in line first, ignoring its
   * politeness delay and in-flight limit: for a host whose URLs are to be recorded without
   * fetching (e.g. unreachable). Each lease is given back like any other. The default leases
   * none: the URLs then come out of {@link #take} one at a time, at the host's pace.
   */
  default List<Lease> takeAll(String hostKey, int max) {
    return List.of();
  }

  /**
   * Gives back a lease whose URL is done, with the counters its crawl changed (empty: none): a
   * frontier that journals keeps them with the completion, so they survive a crash exactly.
   */
  void complete(Lease lease, Map<String, Long> counts);

  /**
   * Gives back a lease to be tried again no sooner than {@code backoff} from now, with the
   * counters the attempt changed (see {@link #complete}).
   */
  void retry(Lease lease, Duration backoff, Map<String, Long> counts);

  /** Gives back a lease untried, first in its host's queue. */
  void putBack(Lease lease);

  /** Holds every fetch of the host until {@code wait} from now (Retry-After). */
  void delayHost(String hostKey, Duration wait);

  /** Spaces the host's fetches at least {@code delay} apart (Crawl-delay). */
  void setHostDelay(String hostKey, Duration delay);

  /** Drops the host's pending and later URLs, counted; returns how many were pending. */
  int skipHost(String hostKey);

  /** True when nothing is pending or in flight. */
  boolean isFinished();

  /** Its counters now, read at once. */
  FrontierStats stats();

  /** Stops handing out URLs: {@link #take} returns null from now on. */
  @Override
  void close();
}
