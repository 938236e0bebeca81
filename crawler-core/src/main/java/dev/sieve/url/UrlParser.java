package dev.sieve.url;

import com.google.common.cache.Cache;
import com.google.common.cache.CacheBuilder;
import com.google.common.net.InetAddresses;
import crawlercommons.filters.basic.BasicURLNormalizer;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.util.Locale;
import java.util.Optional;

/**
 * Reads text into a {@link Url}: cleans it as browsers do (tabs, newlines, backslashes, fragment),
 * checks the scheme, host and port, and normalizes the rest with crawler-commons' {@link
 * BasicURLNormalizer}; a URL in plain form ({@link PlainAbsolute}) is taken as it is, to the same
 * result, without it. Web input is data: anything it cannot accept is empty, never an exception.
 * Thread-safe.
 */
final class UrlParser {
  /** Thread-safe: its state is final and {@code filter} keeps no state between calls. */
  private static final BasicURLNormalizer NORMALIZER = new BasicURLNormalizer();

  /**
   * Recent parses, by their input: a site's navigation links recur on every page, and the
   * normalizer costs microseconds per URL. Bounded, so it holds a few MiB at most.
   */
  private static final Cache<String, Optional<Url>> RECENT =
      CacheBuilder.newBuilder().maximumSize(16_384).build();

  /** Stand-in host while normalizing, because the normalizer rejects IPv6 literals. */
  private static final String IPV6_PLACEHOLDER = "ipv6-literal.invalid";

  private static final int MAX_HOST_LENGTH = 253;

  private UrlParser() {}

  /** {@link Url#parse}: empty for null, blank, relative or non-http(s) input, or a bad host. */
  static Optional<Url> parse(String raw) {
    if (raw == null) {
      return Optional.empty();
    }
    String s = removeTabsAndNewlines(raw.trim());
    int hash = s.indexOf('#');
    if (hash >= 0) {
      s = s.substring(0, hash);
    }
    s = fixBackslashes(s);
    Url plain = PlainAbsolute.parse(s);
    if (plain != null) {
      return Optional.of(plain);
    }
    Optional<Url> known = RECENT.getIfPresent(s);
    if (known == null) {
      known = normalize(s);
      RECENT.put(s, known);
    }
    return known;
  }

  /**
   * Parses and normalizes a trimmed URL without fragment through the normalizer, the general
   * path; see {@link #parse}.
   */
  static Optional<Url> normalize(String s) {
    String scheme;
    int afterScheme;
    if (s.regionMatches(true, 0, "http://", 0, 7)) {
      scheme = "http";
      afterScheme = 7;
    } else if (s.regionMatches(true, 0, "https://", 0, 8)) {
      scheme = "https";
      afterScheme = 8;
    } else {
      return Optional.empty();
    }
    int defaultPort = scheme.equals("http") ? 80 : 443;

    int authorityEnd = indexOfAny(s, afterScheme, '/', '?');
    String authority = s.substring(afterScheme, authorityEnd);
    String rest = s.substring(authorityEnd);
    int at = authority.lastIndexOf('@');
    if (at >= 0) {
      authority = authority.substring(at + 1);
    }

    String rawHost;
    String portText;
    boolean ipv6 = !authority.isEmpty() && authority.charAt(0) == '[';
    if (ipv6) {
      int close = authority.indexOf(']');
      if (close < 0) {
        return Optional.empty();
      }
      rawHost = authority.substring(1, close);
      String afterHost = authority.substring(close + 1);
      if (afterHost.isEmpty()) {
        portText = "";
      } else if (afterHost.charAt(0) == ':') {
        portText = afterHost.substring(1);
      } else {
        return Optional.empty();
      }
    } else {
      int colon = authority.indexOf(':');
      rawHost = colon < 0 ? authority : authority.substring(0, colon);
      portText = colon < 0 ? "" : authority.substring(colon + 1);
    }
    if (rawHost.isEmpty() || (!ipv6 && hasForbiddenHostChar(rawHost))) {
      return Optional.empty();
    }
    int port = portText.isEmpty() ? defaultPort : parsePort(portText);
    if (port < 0) {
      return Optional.empty();
    }

    String ipv6Host = null;
    if (ipv6) {
      ipv6Host = canonicalIpv6(rawHost);
      if (ipv6Host == null) {
        return Optional.empty();
      }
    }

    String normalized;
    try {
      normalized =
          NORMALIZER.filter(scheme + "://" + (ipv6 ? IPV6_PLACEHOLDER : rawHost) + rest);
    } catch (RuntimeException e) {
      return Optional.empty(); // Defensive: third-party code fed with web input.
    }
    if (normalized == null) {
      return Optional.empty();
    }
    int hostStart = normalized.indexOf("://");
    if (hostStart < 0) {
      return Optional.empty();
    }
    hostStart += 3;
    int hostEnd = indexOfAny(normalized, hostStart, '/', '?');
    String host = ipv6 ? ipv6Host : normalized.substring(hostStart, hostEnd);
    if (!ipv6 && !isValidHostName(host)) {
      return Optional.empty();
    }
    String pathAndQuery = normalized.substring(hostEnd);
    if (pathAndQuery.isEmpty() || pathAndQuery.charAt(0) != '/') {
      pathAndQuery = "/" + pathAndQuery;
    }

    StringBuilder out =
        new StringBuilder(scheme.length() + 3 + host.length() + 6 + pathAndQuery.length());
    out.append(scheme).append("://").append(host);
    if (port != defaultPort) {
      out.append(':').append(port);
    }
    int pathStart = out.length();
    out.append(pathAndQuery);
    return Optional.of(new Url(out.toString(), scheme, host, port, pathStart));
  }

  /** True if {@code s} starts with an RFC 3986 scheme followed by a colon. */
  static boolean hasScheme(String s) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == ':') {
        return i > 0;
      }
      boolean letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
      boolean other = (c >= '0' && c <= '9') || c == '+' || c == '-' || c == '.';
      if (!letter && !(other && i > 0)) {
        return false;
      }
    }
    return false;
  }

  /** Port number in 1..65535, or -1 if {@code text} is not one. */
  private static int parsePort(String text) {
    if (text.length() > 5) {
      return -1;
    }
    int port = 0;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c < '0' || c > '9') {
        return -1;
      }
      port = port * 10 + (c - '0');
    }
    return port >= 1 && port <= 65535 ? port : -1;
  }

  /** The bracketed canonical form of an IPv6 literal (without brackets), or null if invalid. */
  private static String canonicalIpv6(String literal) {
    if (literal.indexOf(':') < 0 || literal.indexOf('%') >= 0) {
      return null; // Not IPv6, or carries a zone id, which has no meaning on the web.
    }
    InetAddress address;
    try {
      address = InetAddresses.forString(literal);
    } catch (IllegalArgumentException e) {
      return null;
    }
    if (address instanceof Inet6Address) {
      return "[" + InetAddresses.toAddrString(address) + "]";
    }
    return "[" + literal.toLowerCase(Locale.ROOT) + "]"; // IPv4-mapped: keep as written.
  }

  /**
   * Rejects obvious junk before it reaches the normalizer, which would log it. Non-ASCII is left
   * for the normalizer's IDN conversion.
   */
  private static boolean hasForbiddenHostChar(String host) {
    for (int i = 0; i < host.length(); i++) {
      char c = host.charAt(i);
      if (c <= ' ' || c == 0x7f || "\"<>^`{|}[]%".indexOf(c) >= 0) {
        return true;
      }
    }
    return false;
  }

  /** Accepts ASCII host names made of non-empty labels of letters, digits, '-' and '_'. */
  private static boolean isValidHostName(String host) {
    if (host.isEmpty() || host.length() > MAX_HOST_LENGTH) {
      return false;
    }
    char previous = '.';
    for (int i = 0; i < host.length(); i++) {
      char c = host.charAt(i);
      if (c == '.') {
        if (previous == '.') {
          return false;
        }
      } else if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_')) {
        return false;
      }
      previous = c;
    }
    return previous != '.';
  }

  private static int indexOfAny(String s, int from, char a, char b) {
    for (int i = from; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == a || c == b) {
        return i;
      }
    }
    return s.length();
  }

  /** Browsers ignore tabs and newlines anywhere in a URL. */
  static String removeTabsAndNewlines(String s) {
    if (s.indexOf('\t') < 0 && s.indexOf('\n') < 0 && s.indexOf('\r') < 0) {
      return s;
    }
    StringBuilder b = new StringBuilder(s.length());
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c != '\t' && c != '\n' && c != '\r') {
        b.append(c);
      }
    }
    return b.toString();
  }

  /**
   * Browsers read a backslash before the query as a slash in http(s) URLs; in the query it is
   * percent-encoded.
   */
  static String fixBackslashes(String s) {
    if (s.indexOf('\\') < 0) {
      return s;
    }
    int query = s.indexOf('?');
    if (query < 0) {
      return s.replace('\\', '/');
    }
    return s.substring(0, query).replace('\\', '/') + s.substring(query).replace("\\", "%5C");
  }
}
