package dev.sieve.url;

/**
 * The host of a URL in the plain form most crawlers send, found in one pass without the full
 * parse and normalization of {@link dev.sieve.url.Url#parse}: lower-case {@code http://} or
 * {@code https://}, a lower-case ASCII host name of non-empty labels (none longer than 63 or in
 * {@code xn--} form), no user info, no port, and a path and query of unreserved and a few safe
 * ASCII characters (no percent sign, no fragment). Every URL in that form is one {@code
 * Url.parse} accepts, with the same host; anything else is left to it ({@code PlainUrlTest} checks
 * the two against each other).
 */
public final class PlainUrl {
  private static final int MAX_HOST_LENGTH = 253;
  /** Characters allowed after the host, by ASCII code. */
  private static final boolean[] SAFE = new boolean[128];

  static {
    for (char c = 'a'; c <= 'z'; c++) {
      SAFE[c] = true;
      SAFE[Character.toUpperCase(c)] = true;
    }
    for (char c = '0'; c <= '9'; c++) {
      SAFE[c] = true;
    }
    for (char c : "-._~/?=&+,;:!*()@$".toCharArray()) {
      SAFE[c] = true;
    }
  }

  private PlainUrl() {}

  /** The host of {@code url} if it is plain; null when it needs the full parse. */
  public static String host(String url) {
    int start = url.startsWith("http://") ? 7 : url.startsWith("https://") ? 8 : -1;
    if (start < 0) {
      return null;
    }
    int end = hostEnd(url, start);
    if (end < 0 || (end < url.length() && url.charAt(end) != '/' && url.charAt(end) != '?')
        || !plainRest(url, end)) {
      return null;
    }
    return url.substring(start, end);
  }

  /**
   * Where the plain host name starting at {@code start} ends: at the first character that cannot
   * be part of one, or at the end; -1 if the name before it is not plain.
   */
  static int hostEnd(String url, int start) {
    int end = start;
    int labelStart = start;
    char previous = '.';
    for (; end < url.length(); end++) {
      char c = url.charAt(end);
      if (c == '.') {
        if (previous == '.' || !plainLabel(url, labelStart, end)) {
          return -1;
        }
        labelStart = end + 1;
      } else if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_')) {
        break;
      }
      previous = c;
    }
    if (previous == '.' || end - start > MAX_HOST_LENGTH || !plainLabel(url, labelStart, end)) {
      return -1;
    }
    return end;
  }

  /** Whether {@code url[from...]}, the path and query, holds only the plain form's characters. */
  static boolean plainRest(String url, int from) {
    for (int i = from; i < url.length(); i++) {
      char c = url.charAt(i);
      if (c >= 128 || !SAFE[c]) {
        return false;
      }
    }
    return true;
  }

  /** At most 63 characters and not an IDN's ASCII form ({@code xn--}), which gets checked. */
  private static boolean plainLabel(String url, int from, int to) {
    return to - from <= 63 && !url.startsWith("xn--", from);
  }
}
