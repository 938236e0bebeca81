package dev.sieve.frontier.local;

import dev.sieve.url.Url;

/**
 * A small direct-mapped cache of URLs the Sieve has already reported seen, checked before the
 * Sieve: a site's navigation links recur on every page, and {@link Url#parse} hands back the same
 * {@link Url} object for a recent input, so an identity match here skips hashing the URL and
 * reading the filter's memory. This is the cache of popular URLs in front of the crawler's
 * URL-seen test of Mercator (Heydon &amp; Najork 1999; Broder, Najork &amp; Wiener 2003).
 *
 * <p>Exact: it holds only URLs the Sieve has seen, and the Sieve never forgets one, so a hit gives
 * the Sieve's own answer. A miss only means asking the Sieve. Thread-safe without locks: a slot
 * holds one reference, and a racing write can only turn a hit into a miss. {@link Url} is
 * immutable, so a URL read from a slot written by another thread is complete.
 */
final class RecentlySeen {
  /** 16,384 slots: 64 KiB of references with compressed oops, small enough to stay in cache. */
  static final int SLOTS = 1 << 14;

  private final Url[] slots = new Url[SLOTS];

  /** True if this very {@code url} object was recorded: the Sieve has definitely seen it. */
  boolean contains(Url url) {
    return slots[slot(url)] == url;
  }

  /** Records {@code url}, which the Sieve has seen, replacing whatever shared its slot. */
  void add(Url url) {
    slots[slot(url)] = url;
  }

  private static int slot(Url url) {
    int h = url.hashCode(); // the URL string's, cached by the String
    return (h ^ (h >>> 16)) & (SLOTS - 1);
  }
}
