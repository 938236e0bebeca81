package dev.sieve.url;

import java.util.Arrays;

/**
 * The fast path of {@link Url#parse} for an absolute URL in {@link PlainUrl}'s plain form (with,
 * here, a port other than the scheme's default allowed: a crawl leases URLs it stored) whose
 * path normalization leaves alone (no {@code //}, no segment starting or ending with a dot) and
 * whose query, if any, is {@code name=value} pairs: the normalized URL is then the text itself,
 * with an empty path made {@code /} and the pairs in the order of their names, as the general
 * path (crawler-commons' normalizer, through {@code java.net.URI} and {@code URL}) makes it. Most
 * absolute links of a site (to its other hosts, with edit or history queries) are of this form.
 * For anything else it answers null and the general path decides; {@code PlainAbsoluteTest}
 * checks the two against each other.
 */
final class PlainAbsolute {
  private PlainAbsolute() {}

  /** The normalized URL of {@code s} (trimmed, without fragment), or null when it is not plain. */
  static Url parse(String s) {
    boolean https = s.startsWith("https://");
    if (!https && !s.startsWith("http://")) {
      return null;
    }
    int hostStart = https ? 8 : 7;
    int hostEnd = PlainUrl.hostEnd(s, hostStart);
    if (hostEnd < 0) {
      return null;
    }
    int defaultPort = https ? 443 : 80;
    int port = defaultPort;
    int pathStart = hostEnd;
    if (hostEnd < s.length() && s.charAt(hostEnd) == ':') {
      pathStart = hostEnd + 1;
      port = 0;
      while (pathStart < s.length() && s.charAt(pathStart) >= '0' && s.charAt(pathStart) <= '9'
          && port <= 65535) {
        port = port * 10 + (s.charAt(pathStart++) - '0');
      }
      // Only a port normalization keeps as written: 1 to 65535, not the default, no leading 0.
      if (port < 1 || port > 65535 || port == defaultPort || s.charAt(hostEnd + 1) == '0') {
        return null;
      }
    }
    if ((pathStart < s.length() && s.charAt(pathStart) != '/' && s.charAt(pathStart) != '?')
        || !PlainUrl.plainRest(s, pathStart)) {
      return null;
    }
    String host = s.substring(hostStart, hostEnd);
    int query = s.indexOf('?', pathStart);
    int pathEnd = query < 0 ? s.length() : query;
    if (!plainPath(s, pathStart, pathEnd)) {
      return null;
    }
    String sortedQuery = "";
    if (query >= 0) {
      sortedQuery = sortedQuery(s, query + 1);
      if (sortedQuery == null) {
        return null;
      }
    }
    String url;
    if (pathStart == pathEnd) {
      url = s.substring(0, pathStart) + "/" + sortedQuery;
    } else if (query < 0 || s.regionMatches(query, sortedQuery, 0, sortedQuery.length())) {
      url = s;
    } else {
      url = s.substring(0, query) + sortedQuery;
    }
    return new Url(url, https ? "https" : "http", host, port, pathStart);
  }

  /** Whether {@code s[from, to)} is empty or a path without {@code //}, {@code /.} or {@code ./}. */
  private static boolean plainPath(String s, int from, int to) {
    for (int i = from + 1; i < to; i++) {
      char c = s.charAt(i);
      char previous = s.charAt(i - 1);
      if ((c == '/' && (previous == '/' || previous == '.')) || (c == '.' && previous == '/')) {
        return false;
      }
    }
    return true;
  }

  /**
   * {@code ?} and the query {@code s[from...]} with its pairs in the stable order of their names;
   * null when it is empty, or holds a {@code ?}, an empty pair, a pair without {@code =}, or an
   * empty name or value.
   */
  private static String sortedQuery(String s, int from) {
    if (from == s.length() || s.indexOf('?', from) >= 0) {
      return null;
    }
    String[] pairs = s.substring(from).split("&", -1);
    String[] names = new String[pairs.length];
    boolean sorted = true;
    for (int i = 0; i < pairs.length; i++) {
      int equals = pairs[i].indexOf('=');
      if (equals <= 0 || equals == pairs[i].length() - 1) {
        return null;
      }
      names[i] = pairs[i].substring(0, equals);
      sorted &= i == 0 || names[i - 1].compareTo(names[i]) <= 0;
    }
    if (sorted) {
      return s.substring(from - 1);
    }
    Integer[] order = new Integer[pairs.length];
    Arrays.setAll(order, i -> i);
    Arrays.sort(order, (a, b) -> names[a].compareTo(names[b])); // stable: equal names keep order
    StringBuilder out = new StringBuilder(s.length() - from + 1).append('?');
    for (int i = 0; i < order.length; i++) {
      out.append(i == 0 ? "" : "&").append(pairs[order[i]]);
    }
    return out.toString();
  }
}
