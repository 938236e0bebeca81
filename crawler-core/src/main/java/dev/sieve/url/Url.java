package dev.sieve.url;

import crawlercommons.filters.basic.BasicURLNormalizer;
import dev.sieve.bloom.Hash128;
import java.nio.charset.StandardCharsets;
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

  Url(String url, String scheme, String host, int port, int pathStart) {
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
    return UrlParser.parse(raw);
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
    String h = UrlParser.fixBackslashes(UrlParser.removeTabsAndNewlines(href.trim()));
    if (h.isEmpty() || h.charAt(0) == '#') {
      return Optional.of(this);
    }
    if (UrlParser.hasScheme(h)) {
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
}
