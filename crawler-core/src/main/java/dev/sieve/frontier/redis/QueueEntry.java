package dev.sieve.frontier.redis;

import dev.sieve.frontier.Lease;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * An entry of a host queue in Redis, tab-separated: attempt, depth, the URL, then the redirect
 * chain's URLs, then (only when present) the referrer as {@code <}N{@code :}REST, the N characters
 * it shares with the URL's start and the rest ({@code <} alone: the chain's last URL, a redirect's
 * source), and the lastmod as {@code @}SECONDS{@code .}NANOS. A URL never starts with {@code <} or
 * {@code @}, so an entry written before referrers were kept reads back with both null.
 */
final class QueueEntry {
  private static final char VIA = '<';
  private static final char LASTMOD = '@';

  private QueueEntry() {}

  static String encode(String url, int depth, int attempt, List<String> chain, String via,
      Instant lastmod) {
    StringBuilder entry = new StringBuilder(url.length() + 8)
        .append(attempt).append('\t').append(depth).append('\t').append(clean(url));
    for (String from : chain) {
      entry.append('\t').append(clean(from));
    }
    if (via != null) {
      entry.append('\t').append(VIA);
      if (chain.isEmpty() || !chain.get(chain.size() - 1).equals(via)) {
        String cleanVia = clean(via);
        int shared = shared(clean(url), cleanVia);
        entry.append(shared).append(':').append(cleanVia, shared, cleanVia.length());
      }
    }
    if (lastmod != null) {
      entry.append('\t').append(LASTMOD).append(lastmod.getEpochSecond()).append('.')
          .append(lastmod.getNano());
    }
    return entry.toString();
  }

  static String encode(Lease lease) {
    return encode(lease.url().toString(), lease.depth(), lease.attempt(), lease.redirectChain(), lease.via(),
        lease.lastmod());
  }

  private static int shared(String a, String b) {
    int n = Math.min(a.length(), b.length());
    int i = 0;
    while (i < n && a.charAt(i) == b.charAt(i)) {
      i++;
    }
    return i;
  }

  private static String clean(String url) {
    return url.indexOf('\t') < 0 ? url : url.replace("\t", "%09");
  }

  static Lease decode(String entry, String hostKey) {
    String[] parts = entry.split("\t", -1);
    if (parts.length < 3) {
      throw new IllegalStateException("malformed queue entry in Redis: " + entry);
    }
    List<String> chain = new ArrayList<>(parts.length - 3);
    String via = null;
    Instant lastmod = null;
    for (int i = 3; i < parts.length; i++) {
      String part = parts[i];
      if (!part.isEmpty() && part.charAt(0) == VIA) {
        via = part.length() > 1 ? referrer(parts[2], part)
            : chain.isEmpty() ? null : chain.get(chain.size() - 1);
      } else if (!part.isEmpty() && part.charAt(0) == LASTMOD) {
        int dot = part.indexOf('.');
        lastmod = Instant.ofEpochSecond(Long.parseLong(part.substring(1, dot)),
            Long.parseLong(part.substring(dot + 1)));
      } else {
        chain.add(part);
      }
    }
    return new Lease(Lease.stored(parts[2]), Integer.parseInt(parts[1]), hostKey, Integer.parseInt(parts[0]),
        chain, via, lastmod);
  }

  /** The referrer in {@code <N:REST}: the first N characters of {@code url}, then REST. */
  private static String referrer(String url, String part) {
    int colon = part.indexOf(':');
    int shared = Integer.parseInt(part, 1, colon, 10);
    return url.substring(0, shared) + part.substring(colon + 1);
  }
}
