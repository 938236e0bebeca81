package dev.sieve.frontier;

import java.time.Instant;
import java.util.Map;
import java.util.Set;

/** What a frontier tells the crawl over it, and asks of it when resuming after a crash. */
public interface FrontierListener {
  /** Ignores everything; after a crash, every URL that was in flight is fetched again. */
  FrontierListener NONE = new FrontierListener() {};

  /** The seen filter's estimate passed a multiple of its capacity (already logged). */
  default void onCapacityWarning(CapacityWarning warning) {}

  /**
   * After a crash, of the URLs that were in flight, those already recorded, with the counters
   * their records stand for: they are done, not fetched again. Default: none.
   */
  default Map<String, Map<String, Long>> recordedBefore(Set<String> urls) {
    return Map.of();
  }

  /**
   * After a crash, of the refetches that were in flight (each URL with when its previous fetch
   * was recorded), those recorded since, with the counters their records stand for. Default: none.
   */
  default Map<String, Map<String, Long>> recordedSince(Map<String, Instant> urls) {
    return Map.of();
  }
}
