package dev.sieve.robots;

import com.google.common.cache.CacheBuilder;
import com.google.common.cache.CacheLoader;
import com.google.common.cache.LoadingCache;
import com.google.common.util.concurrent.ExecutionError;
import com.google.common.util.concurrent.UncheckedExecutionException;
import java.time.Clock;
import java.util.Optional;
import java.util.function.Function;

/**
 * Each origin's robots.txt rules, bounded by the bytes they hold (least recently used origins
 * evicted first) and used until they expire. Expired or missing rules are loaded once per origin:
 * the first caller loads, the others wait for it and share the result; other origins never wait.
 * Thread-safe.
 */
final class RobotsCache {
  /** What an entry weighs on top of its robots.txt bytes. */
  private static final int ENTRY_OVERHEAD_BYTES = 1024;

  private final Clock clock;
  private final LoadingCache<String, RobotsRules> cache;

  RobotsCache(long maxBytes, Clock clock, Function<String, RobotsRules> load) {
    this.clock = clock;
    this.cache =
        CacheBuilder.newBuilder()
            .maximumWeight(maxBytes)
            .weigher((String origin, RobotsRules rules) -> weight(rules))
            .build(CacheLoader.from(load::apply));
  }

  /** The fresh rules held for {@code origin}, without loading or waiting. */
  Optional<RobotsRules> fresh(String origin) {
    RobotsRules rules = cache.getIfPresent(origin);
    return rules == null || rules.isExpired(clock.instant())
        ? Optional.empty()
        : Optional.of(rules);
  }

  /**
   * The fresh rules for {@code origin}, loading them (or waiting for the load under way) when
   * there are none.
   *
   * @throws RuntimeException whatever the load threw; nothing is cached then
   */
  RobotsRules get(String origin) {
    RobotsRules held = cache.getIfPresent(origin);
    if (held != null && !held.isExpired(clock.instant())) {
      return held;
    }
    if (held != null) {
      // Only the caller that removes this very entry makes room for a new load; the others find
      // that load under way (or done) in get() below and share it.
      cache.asMap().remove(origin, held);
    }
    try {
      return cache.getUnchecked(origin);
    } catch (UncheckedExecutionException | ExecutionError e) {
      Throwable cause = e.getCause();
      if (cause instanceof RuntimeException) {
        throw (RuntimeException) cause;
      }
      if (cause instanceof Error) {
        throw (Error) cause;
      }
      throw e;
    }
  }

  private static int weight(RobotsRules rules) {
    return ENTRY_OVERHEAD_BYTES + rules.parsedBytes();
  }
}
