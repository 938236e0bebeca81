package dev.sieve.crawl;

/**
 * Whether a URL's path looks like a crawler trap: more segments than {@code maxPathDepth}, or one
 * segment repeated more than {@code maxRepeatedSegments} times ({@code /a/b/a/b/a/b/…}). Reads
 * the path in place, without splitting it or counting into a map: every link of every page goes
 * through it. Segments are counted as {@code path.split("/")} counts them (trailing empty ones
 * dropped), and empty segments never count as repeated.
 */
final class PathTrap {
  private PathTrap() {}

  /** True when {@code pathAndQuery} (a path, with or without its query) is a trap. */
  static boolean isTrap(String pathAndQuery, int maxPathDepth, int maxRepeatedSegments) {
    int query = pathAndQuery.indexOf('?');
    int end = query < 0 ? pathAndQuery.length() : query;
    while (end > 0 && pathAndQuery.charAt(end - 1) == '/') {
      end--;
    }
    int slashes = 0;
    int nonEmpty = 0;
    for (int i = 0; i < end; i++) {
      if (pathAndQuery.charAt(i) == '/') {
        slashes++;
      } else if (i == 0 || pathAndQuery.charAt(i - 1) == '/') {
        nonEmpty++;
      }
    }
    if (slashes > maxPathDepth) {
      return true;
    }
    return nonEmpty > maxRepeatedSegments && repeats(pathAndQuery, end, maxRepeatedSegments);
  }

  /** Whether a non-empty segment of {@code path[0, end)} occurs more than {@code max} times. */
  private static boolean repeats(String path, int end, int max) {
    for (int start = 0; start < end; start = next(path, start, end) + 1) {
      int length = next(path, start, end) - start;
      if (length == 0) {
        continue;
      }
      int count = 0;
      for (int other = start; other < end; other = next(path, other, end) + 1) {
        if (next(path, other, end) - other == length && path.regionMatches(other, path, start, length)
            && ++count > max) {
          return true;
        }
      }
    }
    return false;
  }

  /** The index of the next {@code /} at or after {@code from}, or {@code end}. */
  private static int next(String path, int from, int end) {
    int slash = path.indexOf('/', from);
    return slash < 0 || slash > end ? end : slash;
  }
}
