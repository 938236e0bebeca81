package dev.sieve.crawl;

import dev.sieve.fetch.ConnectionFailure;
import dev.sieve.fetch.FetchResult;
import dev.sieve.url.Url;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Counts each authority's connection-level failures in a row (robots.txt and page fetches
 * alike); at the limit the authority is unreachable for the rest of the crawl, logged at WARN
 * once with its cause. Any response resets the count. Thread-safe.
 */
final class HostHealth {
  private static final Logger log = LoggerFactory.getLogger(HostHealth.class);

  private final int limit;
  private final ConcurrentMap<String, Integer> failures = new ConcurrentHashMap<>();
  private final ConcurrentMap<String, String> unreachable = new ConcurrentHashMap<>();

  HostHealth(int limit) {
    this.limit = limit;
  }

  /** Notes the outcome of a fetch of {@code url}; returns it unchanged. */
  FetchResult observe(Url url, FetchResult result) {
    String authority = url.origin();
    Optional<String> cause = ConnectionFailure.cause(result);
    if (cause.isEmpty()) {
      if (result.status() > 0) {
        failures.remove(authority);
      }
      return result;
    }
    int inARow = failures.merge(authority, 1, Integer::sum);
    if (inARow >= limit && unreachable.putIfAbsent(authority, cause.get()) == null) {
      log.warn("Host {} is unreachable ({}, {} connection failures in a row): its queued and later"
          + " URLs are recorded as host-unreachable without fetching", authority, cause.get(), inARow);
    }
    return result;
  }

  /** The cause when {@code url}'s authority has been found unreachable; else empty. */
  Optional<String> unreachable(Url url) {
    return Optional.ofNullable(unreachable.get(url.origin()));
  }
}
