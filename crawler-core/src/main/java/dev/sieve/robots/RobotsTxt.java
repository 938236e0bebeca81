package dev.sieve.robots;

import java.util.Arrays;
import java.util.Locale;

/** Byte-level helpers for robots.txt bodies and agent names. Stateless. */
final class RobotsTxt {
  /** RFC 9309 section 2.5: crawlers must parse at least 500 KiB and may ignore the rest. */
  static final int MAX_BYTES = 500 * 1024;

  private RobotsTxt() {}

  /**
   * Returns {@code body} unchanged when it is complete and at most {@code limit} bytes long.
   * Otherwise returns its first {@code limit} bytes (or fewer) cut after the last line break, so
   * that a rule cut in half, say {@code Allow: /private} cut to {@code Allow: /p}, is not obeyed;
   * a body without any line break in range is cut at {@code limit}.
   *
   * @param complete false if the body was already truncated before it got here
   */
  static byte[] cap(byte[] body, boolean complete, int limit) {
    if (complete && body.length <= limit) {
      return body;
    }
    int end = Math.min(body.length, limit);
    for (int i = end - 1; i >= 0; i--) {
      if (body[i] == '\n' || body[i] == '\r') {
        return Arrays.copyOf(body, i + 1);
      }
    }
    return end == body.length ? body : Arrays.copyOf(body, end);
  }

  /** The number of lines with at least one non-blank byte, line breaks being CR, LF or CRLF. */
  static int countNonBlankLines(byte[] body) {
    int lines = 0;
    boolean blank = true;
    for (byte b : body) {
      if (b == '\n' || b == '\r') {
        if (!blank) {
          lines++;
        }
        blank = true;
      } else if (b != ' ' && b != '\t') {
        blank = false;
      }
    }
    return blank ? lines : lines + 1;
  }

  /**
   * The robots.txt agent token of a {@code User-Agent} header: its leading product token, up to
   * the first {@code '/'} or white space, lower-cased (crawler-commons matches lower-case names
   * only). {@code "SieveBot/0.1 (+https://example.invalid)"} yields {@code "sievebot"}.
   */
  static String agentToken(String userAgent) {
    String s = userAgent.strip();
    int end = 0;
    while (end < s.length() && s.charAt(end) != '/' && !Character.isWhitespace(s.charAt(end))) {
      end++;
    }
    return s.substring(0, end).toLowerCase(Locale.ROOT);
  }

  /** Whether {@code token} is an RFC 9309 product token: letters, {@code '-'} and {@code '_'}. */
  static boolean isValidAgentToken(String token) {
    if (token.isEmpty()) {
      return false;
    }
    for (int i = 0; i < token.length(); i++) {
      char c = token.charAt(i);
      if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '-' || c == '_')) {
        return false;
      }
    }
    return true;
  }
}
