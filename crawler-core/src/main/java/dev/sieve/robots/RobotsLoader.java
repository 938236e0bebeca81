package dev.sieve.robots;

import dev.sieve.fetch.ConnectionFailure;
import dev.sieve.fetch.FetchError;
import dev.sieve.fetch.FetchResult;
import dev.sieve.robots.RobotsRules.Source;
import dev.sieve.url.Url;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Fetches the robots.txt of one origin, following redirects, and turns the outcome into rules
 * and how long they live, as {@link RobotsPolicy}'s class comment lists (RFC 9309 section
 * 2.3.1): parsed rules, "no robots.txt" (allow all), or unreachable (disallow all, retried with
 * a backoff). Counts the failures in a row per origin and the requests made. Thread-safe; the
 * policy's cache makes sure one origin is loaded by one thread at a time.
 */
final class RobotsLoader {
  private static final Logger log = LoggerFactory.getLogger(RobotsPolicy.class);

  private final Function<String, FetchResult> fetch;
  private final RobotsParser parser;
  private final Clock clock;
  private final Duration ttl;
  private final Duration retryInterval;
  private final Duration connectionRetryInterval;
  private final int maxRedirects;
  /** Per origin, fetches of its robots.txt that failed in a row; removed on a success. */
  private final ConcurrentMap<String, Integer> failuresInARow = new ConcurrentHashMap<>();
  private final LongAdder fetches = new LongAdder();

  RobotsLoader(Function<String, FetchResult> fetch, RobotsParser parser, Clock clock,
      Duration ttl, Duration retryInterval, Duration connectionRetryInterval, int maxRedirects) {
    this.fetch = fetch;
    this.parser = parser;
    this.clock = clock;
    this.ttl = ttl;
    this.retryInterval = retryInterval;
    this.connectionRetryInterval = connectionRetryInterval;
    this.maxRedirects = maxRedirects;
  }

  /** The number of robots.txt requests made so far, each redirect hop counting as one. */
  long fetches() {
    return fetches.sum();
  }

  /**
   * Fetches and parses the robots.txt of {@code origin}, following redirects.
   *
   * @throws RuntimeException whatever the fetch function threw
   */
  RobotsRules load(String origin) {
    RobotsRules rules = fetchRules(origin);
    if (rules.source() != Source.UNREACHABLE) {
      failuresInARow.remove(origin);
    }
    return rules;
  }

  private RobotsRules fetchRules(String origin) {
    String start = origin + "/robots.txt";
    Url current =
        Url.parse(start).orElseThrow(() -> new AssertionError("origin of a Url: " + origin));
    for (int redirects = 0; ; redirects++) {
      FetchResult result = fetch.apply(current.toString());
      fetches.increment();
      if (result == null) {
        throw new IllegalStateException("fetch function returned null for " + current);
      }
      Instant now = clock.instant();
      int status = result.status();
      if (result.error() == FetchError.PRIVATE_ADDRESS) {
        // Refused by this crawler, not failed by the server: nothing to wait for or retry.
        log.debug("robots.txt of {}: {} refused ({}), allowing all", origin, current, result.errorMessage());
        return RobotsRules.without(origin, Source.UNAVAILABLE, now, now.plus(ttl));
      }
      if (result.error() != null || status == 429 || status >= 500 || status < 200) {
        return unreachable(origin, current, result, now);
      }
      if (result.isSuccess()) {
        return parser.parse(origin, current, result, now, now.plus(ttl));
      }
      if (status >= 400) {
        log.debug("robots.txt of {}: status {} at {}, allowing all", origin, status, current);
        return RobotsRules.without(origin, Source.UNAVAILABLE, now, now.plus(ttl));
      }
      // 3xx
      Optional<Url> next = result.redirectLocation().flatMap(current::resolve);
      if (next.isEmpty() || redirects >= maxRedirects) {
        log.debug(
            "robots.txt of {}: {} at {} after {} redirects, allowing all",
            origin,
            next.isEmpty() ? "unusable redirect" : "another redirect",
            current,
            redirects);
        return RobotsRules.without(origin, Source.UNAVAILABLE, now, now.plus(ttl));
      }
      current = next.get();
    }
  }

  private RobotsRules unreachable(String origin, Url at, FetchResult result, Instant now) {
    int failures = failuresInARow.merge(origin, 1, Integer::sum);
    Optional<String> connection = ConnectionFailure.cause(result);
    Duration wait = retryInterval;
    boolean tls = result.error() == FetchError.TLS;
    if (connection.isPresent() || tls) {
      // Nothing answered (or no TLS session could be made): try again soon, doubling the wait, so
      // a dead host is told apart fast.
      Duration backoff = connectionRetryInterval.multipliedBy(1L << Math.min(failures - 1, 20));
      wait = backoff.compareTo(retryInterval) < 0 ? backoff : retryInterval;
    }
    Optional<Duration> asked = result.retryAfter();
    if (asked.isPresent() && asked.get().compareTo(wait) > 0) {
      wait = asked.get().compareTo(ttl) < 0 ? asked.get() : ttl;
    }
    String cause = connection.orElseGet(() -> result.error() == null
        ? "http-" + result.status()
        : tls || result.error() == FetchError.PROXY_UNREACHABLE
            || result.error() == FetchError.PROXY_AUTH
            // The kind and its cause: tls-error: certificate expired.
            ? result.error().label() + ": " + result.errorMessage()
            : result.error().label());
    log.debug("robots.txt of {} unreachable at {} ({}, {} in a row), disallowing all for {}",
        origin, at, cause, failures, wait);
    return RobotsRules.unreachable(origin, cause, failures, now, now.plus(wait));
  }
}
