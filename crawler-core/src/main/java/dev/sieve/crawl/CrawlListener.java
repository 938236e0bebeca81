package dev.sieve.crawl;

import dev.sieve.frontier.CapacityWarning;

/**
 * Receives what a crawl does, so that the caller decides how to log and store it. Methods are
 * called on worker threads, concurrently: implementations must be thread-safe and quick.
 */
public interface CrawlListener {
  /** The crawl is done with a URL; exactly one record per URL. */
  default void onPage(PageRecord record) {}

  /** The Sieve's estimate passed a multiple of its capacity (already logged by the Sieve). */
  default void onCapacityWarning(CapacityWarning warning) {}

  /**
   * After a crash, of the URLs that were in flight, those this listener had already recorded, with
   * their records (a URL refetched in a recrawl: its latest): they are neither fetched nor
   * recorded again, and count as their records say. Default: none (a listener that keeps nothing
   * records everything again).
   */
  default java.util.Map<String, PageRecord> recordedBefore(java.util.Set<String> urls) {
    return java.util.Map.of();
  }

  /** A host is skipped for the rest of the crawl, with the reason. */
  default void onHostSkipped(String host, String reason) {}

  /**
   * A checkpoint is about to be written (only a frontier that keeps state writes them), the
   * records before it synced: a place to save what goes with it. Called on the checkpoint's thread;
   * it must not throw, and the checkpoint waits for it.
   */
  default void onCheckpoint() {}
}
