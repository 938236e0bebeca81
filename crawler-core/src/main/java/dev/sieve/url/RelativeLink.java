package dev.sieve.url;

/**
 * The fast path of {@link Url#resolve} for the common link: a path, relative or absolute, made of
 * characters that normalization leaves alone, resolved against a normalized page URL. It merges
 * the path and removes dot segments on bytes in a per-thread buffer, so that the only objects made
 * are the result's String, its hash and the {@code Url} around them, where the general path builds
 * the concatenation, hands it to crawler-commons' normalizer (java.net.URI, URL, regexes,
 * StringBuilders) and rebuilds the result.
 *
 * <p>It answers only where it knows the general path's answer (a differential test checks them
 * against each other); for anything else it returns -1 and the general path decides:
 * a scheme or authority, a query, a percent sign but in an escape normalization keeps ({@code %3D},
 * not {@code %3d} or {@code %41}), a character outside the unreserved and sub-delimiter sets (so
 * nothing to escape or unescape), an empty segment ({@code //}), a last
 * segment {@code .} or {@code ..}, a {@code ..} above the root, or a page path with {@code //}.
 */
final class RelativeLink {
  /** The characters a fast-path link may hold: unreserved, sub-delims, ':' '@' '/', and '#'. */
  private static final boolean[] SAFE = new boolean[128];

  static {
    String safe = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~!$&'()*+,;=:@/";
    for (int i = 0; i < safe.length(); i++) {
      SAFE[safe.charAt(i)] = true;
    }
  }

  /** The unreserved characters: a percent-escape of one is decoded by normalization. */
  private static final boolean[] UNRESERVED = new boolean[128];

  static {
    String unreserved = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~";
    for (int i = 0; i < unreserved.length(); i++) {
      UNRESERVED[unreserved.charAt(i)] = true;
    }
  }

  private static final ThreadLocal<byte[][]> BUFFER =
      ThreadLocal.withInitial(() -> new byte[][] {new byte[512]});

  private RelativeLink() {}

  /**
   * Resolves {@code href} against a normalized page URL into this thread's {@link #buffer()} and
   * returns the length of the normalized URL written there, or -1 if the general path must decide.
   *
   * @param base the page URL's ASCII bytes
   * @param pathStart where its path starts
   * @param directoryEnd where its directory ends: after the last '/' of its path
   */
  static int resolve(byte[] base, int pathStart, int directoryEnd, String href) {
    int end = linkEnd(href);
    if (end <= 0) {
      return -1;
    }
    byte[] out = buffer(base.length + end + 1);
    int length = href.charAt(0) == '/' ? pathStart + 1 : directoryEnd;
    System.arraycopy(base, 0, out, 0, length);
    return merge(href, href.charAt(0) == '/' ? 1 : 0, end, out, length, pathStart);
  }

  /** This thread's buffer, holding what {@link #resolve} last wrote. */
  static byte[] buffer() {
    return BUFFER.get()[0];
  }

  /**
   * The end of the directory of the page path {@code url[pathStart...]}, after its last '/'
   * before any query; -1 if the directory has an empty segment ({@code //}), left to the general
   * path.
   */
  static int directoryEnd(String url, int pathStart) {
    int query = url.indexOf('?', pathStart);
    int end = url.lastIndexOf('/', query < 0 ? url.length() - 1 : query - 1) + 1;
    int doubled = url.indexOf("//", pathStart);
    return doubled >= 0 && doubled < end ? -1 : end;
  }

  /**
   * Where the link ends (its fragment starts), or -1 if it is empty, has a scheme or an authority,
   * or holds a character outside {@link #SAFE}.
   */
  private static int linkEnd(String href) {
    int n = href.length();
    if (n == 0 || (n > 1 && href.charAt(0) == '/' && href.charAt(1) == '/')) {
      return -1;
    }
    boolean slash = false;
    for (int i = 0; i < n; i++) {
      char c = href.charAt(i);
      if (c == '#') {
        return i;
      }
      if (c == '%') {
        if (!keptEscape(href, i)) {
          return -1;
        }
        i += 2;
        continue;
      }
      if (c >= 128 || !SAFE[c] || (c == ':' && !slash)) {
        return -1; // a colon before any slash is a scheme, or might be
      }
      slash |= c == '/';
    }
    return n;
  }

  /**
   * Whether {@code href[i...]} starts with a percent-escape normalization keeps as it is: two
   * upper-case hex digits, of a byte that is not an unreserved character (those are decoded).
   */
  private static boolean keptEscape(String href, int i) {
    if (i + 2 >= href.length()) {
      return false;
    }
    int high = upperHexDigit(href.charAt(i + 1));
    int low = upperHexDigit(href.charAt(i + 2));
    if (high < 0 || low < 0) {
      return false;
    }
    int b = high * 16 + low;
    return b >= 128 || !UNRESERVED[b];
  }

  /** The value of an ASCII digit or upper-case hex letter, else -1. */
  private static int upperHexDigit(char c) {
    return c >= '0' && c <= '9' ? c - '0' : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
  }

  /**
   * Appends the segments of {@code href[from, end)} to the directory {@code out[0, length)} (it
   * ends with '/'), removing dot segments; returns the new length, or -1 for a case left to the
   * general path.
   */
  private static int merge(String href, int from, int end, byte[] out, int length, int pathStart) {
    int i = from;
    while (i < end) {
      int next = href.indexOf('/', i);
      boolean slash = next >= 0 && next < end;
      int segmentEnd = slash ? next : end;
      int size = segmentEnd - i;
      if (size == 0) {
        if (slash) {
          return -1; // an empty segment: "//"
        }
      } else if (size == 1 && href.charAt(i) == '.') {
        if (!slash) {
          return -1;
        }
      } else if (size == 2 && href.charAt(i) == '.' && href.charAt(i + 1) == '.') {
        if (!slash || length - 1 == pathStart) {
          return -1; // a last ".." or one above the root
        }
        int previous = length - 2;
        while (out[previous] != '/') {
          previous--;
        }
        length = previous + 1;
      } else {
        for (int c = i; c < segmentEnd; c++) {
          out[length++] = (byte) href.charAt(c); // SAFE characters are ASCII
        }
        if (slash) {
          out[length++] = '/';
        }
      }
      i = segmentEnd + 1;
    }
    return length;
  }

  private static byte[] buffer(int capacity) {
    byte[][] holder = BUFFER.get();
    if (holder[0].length < capacity) {
      holder[0] = new byte[Math.max(capacity, 2 * holder[0].length)];
    }
    return holder[0];
  }
}
