package dev.sieve.url;

import com.google.common.cache.Cache;
import com.google.common.cache.CacheBuilder;
import com.google.common.net.InetAddresses;
import crawlercommons.filters.basic.BasicURLNormalizer;
import dev.sieve.bloom.Hash128;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Optional;

/**
 * An absolute, normalized {@code http} or {@code https} URL without a fragment.
 *
 * <p>Instances are immutable and only obtainable through {@link #parse} and {@link #resolve}, so
 * every {@code Url} is valid and in canonical form: lower-case scheme and host (IDNs in punycode,
 * IPv6 literals compressed and bracketed), no user info, no default port, dot segments removed and
 * percent-encoding normalized (by crawler-commons' {@link BasicURLNormalizer}). Two URLs are equal
 * exactly when their normalized strings are equal.
 *
 * <p>Web input is data: both factories return {@link Optional#empty()} for anything they cannot
 * accept and never throw.
 */
public final class Url {

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

  private final String url;
  private final String scheme;
  private final String host;
  private final int port;
  /** Index in {@link #url} where the path starts, i.e. the length of the origin. */
  private final int pathStart;

  /** {@link #hash()}, once computed. */
  private Hash128 hash;
  /** This URL as a base of {@link RelativeLink}, once a link has been resolved against it. */
  private Base base;

  /**
   * A page URL's ASCII bytes and the end of its directory, for {@link RelativeLink}; {@code
   * ascii} null where the fast path cannot be used (non-ASCII, a directory with {@code //}).
   */
  private record Base(byte[] ascii, int directoryEnd) {}

  private Url(String url, String scheme, String host, int port, int pathStart) {
    this.url = url;
    this.scheme = scheme;
    this.host = host;
    this.port = port;
    this.pathStart = pathStart;
  }

  /**
   * Parses an absolute http(s) URL and normalizes it, dropping any fragment. Returns empty for
   * null, blank, relative or non-http(s) input, a missing or invalid host, or an invalid port.
   */
  public static Optional<Url> parse(String raw) {
    if (raw == null) {
      return Optional.empty();
    }
    String s = removeTabsAndNewlines(raw.trim());
    int hash = s.indexOf('#');
    if (hash >= 0) {
      s = s.substring(0, hash);
    }
    s = fixBackslashes(s);
    Optional<Url> known = RECENT.getIfPresent(s);
    if (known == null) {
      known = normalize(s);
      RECENT.put(s, known);
    }
    return known;
  }

  /** Parses and normalizes a trimmed URL without fragment; see {@link #parse}. */
  private static Optional<Url> normalize(String s) {
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

  /**
   * Resolves a link, possibly relative, against this URL as in RFC 3986 and parses the result.
   * An empty href or a pure fragment yields this URL; non-http(s) schemes ({@code javascript:},
   * {@code mailto:} and the like) and junk yield empty. Parsing is strict: {@code http:x} is
   * an absolute URL without a host, not a relative link.
   */
  public Optional<Url> resolve(String href) {
    if (href == null) {
      return Optional.empty();
    }
    Url fast = resolveFast(href);
    return fast != null ? Optional.of(fast) : resolveGeneral(href);
  }

  /** {@link #resolve} by concatenation and {@link #parse}, for any link. */
  Optional<Url> resolveGeneral(String href) {
    String h = fixBackslashes(removeTabsAndNewlines(href.trim()));
    if (h.isEmpty() || h.charAt(0) == '#') {
      return Optional.of(this);
    }
    if (hasScheme(h)) {
      return parse(h);
    }
    if (h.startsWith("//")) {
      return parse(scheme + ":" + h);
    }
    String origin = origin();
    if (h.charAt(0) == '/') {
      return parse(origin + h);
    }
    String path = pathWithoutQuery();
    if (h.charAt(0) == '?') {
      return parse(origin + path + h);
    }
    String directory = path.substring(0, path.lastIndexOf('/') + 1);
    return parse(origin + directory + h);
  }

  /**
   * {@link #resolve} for a link {@link RelativeLink} takes (most links): the result built from the
   * bytes it wrote, hashed from them; null for any other link.
   */
  private Url resolveFast(String href) {
    Base page = base;
    if (page == null) {
      byte[] ascii = url.getBytes(StandardCharsets.UTF_8);
      int directoryEnd = RelativeLink.directoryEnd(url, pathStart);
      page = ascii.length == url.length() && directoryEnd > 0
          ? new Base(ascii, directoryEnd)
          : new Base(null, -1);
      base = page; // a race makes the same value twice
    }
    if (page.ascii() == null) {
      return null;
    }
    int length = RelativeLink.resolve(page.ascii(), pathStart, page.directoryEnd(), href);
    if (length < 0) {
      return null;
    }
    byte[] bytes = RelativeLink.buffer();
    Url resolved = new Url(new String(bytes, 0, length, StandardCharsets.ISO_8859_1), scheme,
        host, port, pathStart);
    resolved.hash = Hash128.of(bytes, 0, length);
    return resolved;
  }

  /**
   * The {@link Hash128} of the normalized URL, {@code Hash128.of(toString())}: the key of the
   * Sieve. Computed once; from the bytes the resolution wrote where {@link #resolve} took its
   * fast path.
   */
  public Hash128 hash() {
    Hash128 computed = hash;
    if (computed == null) {
      computed = Hash128.of(url);
      hash = computed; // a race computes the same value twice
    }
    return computed;
  }

  /** The scheme, {@code "http"} or {@code "https"}. */
  public String scheme() {
    return scheme;
  }

  /** The lower-case host in ASCII form; IPv6 literals keep their brackets, e.g. {@code [::1]}. */
  public String host() {
    return host;
  }

  /** The effective port: the explicit one, else 80 for http and 443 for https. */
  public int port() {
    return port;
  }

  /** The path followed by the query, if any; always starts with {@code /}. */
  public String path() {
    return url.substring(pathStart);
  }

  /** {@code scheme://host}, followed by {@code :port} only when the port is not the default. */
  public String origin() {
    return url.substring(0, pathStart);
  }

  /** The length of the normalized string, in chars. */
  public int length() {
    return url.length();
  }

  /** The normalized URL. */
  @Override
  public String toString() {
    return url;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Url && ((Url) o).url.equals(url);
  }

  @Override
  public int hashCode() {
    return url.hashCode();
  }

  private String pathWithoutQuery() {
    int query = url.indexOf('?', pathStart);
    return query < 0 ? url.substring(pathStart) : url.substring(pathStart, query);
  }

  /** True if {@code s} starts with an RFC 3986 scheme followed by a colon. */
  private static boolean hasScheme(String s) {
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
  private static String removeTabsAndNewlines(String s) {
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
  private static String fixBackslashes(String s) {
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
