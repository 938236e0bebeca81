package dev.sieve.frontier.redis;

import dev.sieve.frontier.Lease;
import java.util.Arrays;
import java.util.List;

/** An entry of a host queue in Redis: attempt, depth, URL and redirect chain, tab-separated. */
final class QueueEntry {
  private QueueEntry() {}

  static String encode(String url, int depth, int attempt, List<String> chain) {
    StringBuilder entry = new StringBuilder(url.length() + 8)
        .append(attempt).append('\t').append(depth).append('\t').append(clean(url));
    for (String from : chain) {
      entry.append('\t').append(clean(from));
    }
    return entry.toString();
  }

  static String encode(Lease lease) {
    return encode(lease.url(), lease.depth(), lease.attempt(), lease.redirectChain());
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
}
