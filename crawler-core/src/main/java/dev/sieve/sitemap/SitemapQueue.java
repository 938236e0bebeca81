package dev.sieve.sitemap;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

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
  private final Map<String, Authority> authorities = new HashMap<>();

  public SitemapQueue(int maxPerAuthority) {
    this.maxPerAuthority = maxPerAuthority;
  }

  /** Offers {@code sitemap} (a URL of {@code origin}) to be fetched. */
  public synchronized Offer offer(String origin, String sitemap) {
    Authority authority = authorities.computeIfAbsent(origin, o -> new Authority());
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

  /** The next sitemap of {@code origin} to fetch, taken off the queue; null when none waits. */
  public synchronized String next(String origin) {
    Authority authority = authorities.get(origin);
    return authority == null ? null : authority.pending.poll();
  }

  /** The sitemaps still waiting, by origin (only origins with some), in the order found. */
  public synchronized Map<String, Integer> waiting() {
    Map<String, Integer> waiting = new LinkedHashMap<>();
    authorities.forEach((origin, a) -> {
      if (!a.pending.isEmpty()) {
        waiting.put(origin, a.pending.size());
      }
    });
    return waiting;
  }

  private static final class Authority {
    final Set<String> known = new HashSet<>();
    final ArrayDeque<String> pending = new ArrayDeque<>();
  }
}
