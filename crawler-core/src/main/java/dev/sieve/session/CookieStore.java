package dev.sieve.session;

import dev.sieve.url.UrlScope;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import okhttp3.Cookie;
import okhttp3.HttpUrl;

/**
 * A crawl's cookie jar (RFC 6265 as OkHttp's {@link Cookie} parses and matches it: domain, path,
 * expiry, {@code Secure}; {@code HttpOnly} kept; {@code SameSite} ignored). Cookies are kept by
 * the registrable domain of their domain, so none reaches another registrable domain, and at most
 * {@code maxPerDomain} per registrable domain: a new cookie past the cap is dropped and counted.
 * Expiry is judged by the injected clock. Thread-safe.
 */
final class CookieStore {
  /** A cookie's name and value together at most (RFC 6265 asks for at least 4,096 bytes). */
  static final int MAX_COOKIE_CHARS = 4096;

  private final Clock clock;
  private final int maxPerDomain;
  /** Registrable domain to its cookies; guarded by this. */
  private final Map<String, List<Cookie>> byDomain = new HashMap<>();
  final LongAdder rejected = new LongAdder();
  final LongAdder overCap = new LongAdder();

  CookieStore(Clock clock, int maxPerDomain) {
    this.clock = clock;
    this.maxPerDomain = maxPerDomain;
  }

  /** The {@code Cookie} header value for a request to {@code url}, or null when none matches. */
  synchronized String header(HttpUrl url) {
    List<Cookie> cookies = byDomain.get(UrlScope.registrableDomain(url.host()));
    if (cookies == null) {
      return null;
    }
    long now = clock.millis();
    cookies.removeIf(cookie -> cookie.expiresAt() <= now);
    List<Cookie> matching = new ArrayList<>();
    for (Cookie cookie : cookies) {
      if (cookie.matches(url)) {
        matching.add(cookie);
      }
    }
    if (matching.isEmpty()) {
      return null;
    }
    // Longer paths first (RFC 6265 5.4); a stable sort keeps the order they were set in.
    matching.sort(Comparator.comparingInt((Cookie cookie) -> cookie.path().length()).reversed());
    StringBuilder header = new StringBuilder();
    for (Cookie cookie : matching) {
      if (header.length() > 0) {
        header.append("; ");
      }
      header.append(cookie.name()).append('=').append(cookie.value());
    }
    return header.toString();
  }

  /**
   * Stores the cookies of a response from {@code url}'s {@code Set-Cookie} values; returns how
   * many were stored or deleted. Rejected ones (unparseable, for another domain or a public
   * suffix, too long) and those past the cap are counted.
   */
  int receive(HttpUrl url, List<String> setCookies) {
    int kept = 0;
    for (String value : setCookies) {
      Cookie cookie = Cookie.parse(url, value);
      if (cookie == null || cookie.name().length() + cookie.value().length() > MAX_COOKIE_CHARS) {
        rejected.increment();
      } else if (add(cookie)) {
        kept++;
      }
    }
    return kept;
  }

  /**
   * Stores {@code cookie}, replacing one of the same name, domain and path; an expired one only
   * deletes. Returns false when it was dropped past the cap.
   */
  synchronized boolean add(Cookie cookie) {
    List<Cookie> cookies =
        byDomain.computeIfAbsent(UrlScope.registrableDomain(cookie.domain()), k -> new ArrayList<>());
    cookies.removeIf(old -> old.name().equals(cookie.name()) && old.domain().equals(cookie.domain())
        && old.path().equals(cookie.path()));
    long now = clock.millis();
    if (cookie.expiresAt() <= now) {
      return true;
    }
    if (cookies.size() >= maxPerDomain) {
      cookies.removeIf(old -> old.expiresAt() <= now);
    }
    if (cookies.size() >= maxPerDomain) {
      overCap.increment();
      return false;
    }
    cookies.add(cookie);
    return true;
  }

  /** Every cookie not expired, by registrable domain then in the order set. */
  synchronized List<Cookie> all() {
    long now = clock.millis();
    List<Cookie> all = new ArrayList<>();
    byDomain.values().forEach(cookies -> cookies.stream()
        .filter(cookie -> cookie.expiresAt() > now).forEach(all::add));
    return all;
  }
}
