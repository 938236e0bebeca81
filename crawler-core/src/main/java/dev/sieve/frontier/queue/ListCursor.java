package dev.sieve.frontier.queue;

import java.util.function.Predicate;

/**
 * Where a listing of a crawl's URLs goes on from, so that ListURLs can stream any number of them
 * a page at a time ({@link CrawlStore#listNext}) and hold only a page: a crawl's completed URLs
 * first (in the order they completed), then its pending ones queue by queue in key order. Made
 * with the listing's queue (null: all), URL filter and start position. Not thread-safe: one per
 * listing.
 */
public final class ListCursor {
  final String key;
  final String filterText;
  final boolean ignoreCase;
  final Predicate<String> filter;
  /** Matching URLs still to pass before the first one listed. */
  long skip;
  /** URLs listed so far. */
  long listed;
  boolean inPending;
  /** Where the completed-URL log goes on. */
  long logOffset;
  /** The queue being walked, null before the first; and matching URLs of it passed. */
  String queueKey;
  long inQueue;
  boolean done;

  /**
   * A listing of queue {@code key} (or every queue, when null) of URLs containing {@code filter}
   * (all when blank; {@code ignoreCase} as asked), from position {@code start}.
   */
  public ListCursor(String key, String filter, boolean ignoreCase, long start) {
    this.key = key;
    this.filterText = filter;
    this.ignoreCase = ignoreCase;
    this.filter = CrawlStore.urlFilter(filter, ignoreCase);
    this.skip = start;
  }

  /** Whether the listing has no more URLs. */
  public boolean done() {
    return done;
  }

  /** URLs listed so far. */
  public long listed() {
    return listed;
  }
}
