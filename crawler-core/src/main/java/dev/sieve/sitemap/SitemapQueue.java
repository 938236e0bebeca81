package dev.sieve.sitemap;

import java.util.ArrayDeque;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The sitemaps of each authority still to fetch, in the order they were found, each fetched once
 * per crawl and at most {@code maxPerAuthority} per authority. Authorities are keyed as {@link
 * dev.sieve.url.Url#origin()} spells them. Thread-safe.
 */
public final class SitemapQueue {
  /** What became of a sitemap offered to the queue. */
  public enum Offer {
    /** Queued, to be fetched. */
    QUEUED,
    /** Already queued or fetched in this crawl. */
    KNOWN,
    /** Its authority already has its cap of sitemaps. */
    OVER_CAP
  }

  private final int maxPerAuthority;
  /** Only authorities offered a sitemap; looked up for every URL crawled, so without a lock. */
  private final Map<String, Authority> authorities = new ConcurrentHashMap<>();

  public SitemapQueue(int maxPerAuthority) {
    this.maxPerAuthority = maxPerAuthority;
  }

  /** Offers {@code sitemap} (a URL of {@code origin}) to be fetched. */
  public Offer offer(String origin, String sitemap) {
    Authority authority = authorities.computeIfAbsent(origin, o -> new Authority());
    synchronized (authority) {
      if (authority.known.contains(sitemap)) {
        return Offer.KNOWN;
      }
      if (authority.known.size() >= maxPerAuthority) {
        return Offer.OVER_CAP;
      }
      authority.known.add(sitemap);
      authority.pending.add(sitemap);
      return Offer.QUEUED;
    }
  }

  /** Notes {@code sitemap} (a URL of {@code origin}) as read already: it is not queued again. */
  public void readBefore(String origin, String sitemap) {
    Authority authority = authorities.computeIfAbsent(origin, o -> new Authority());
    synchronized (authority) {
      authority.known.add(sitemap);
    }
  }

  /** The next sitemap of {@code origin} to fetch, taken off the queue; null when none waits. */
  public String next(String origin) {
    Authority authority = authorities.get(origin);
    if (authority == null) {
      return null;
    }
    synchronized (authority) {
      return authority.pending.poll();
    }
  }

  /** The sitemaps still waiting, by origin (only origins with some), sorted by origin. */
  public Map<String, Integer> waiting() {
    Map<String, Integer> waiting = new TreeMap<>();
    authorities.forEach((origin, authority) -> {
      synchronized (authority) {
        if (!authority.pending.isEmpty()) {
          waiting.put(origin, authority.pending.size());
        }
      }
    });
    return waiting;
  }

  private static final class Authority {
    final Set<String> known = new HashSet<>();
    final ArrayDeque<String> pending = new ArrayDeque<>();
  }
}
