package dev.sieve.serve;

import java.util.List;
import java.util.Optional;

/**
 * Where the service keeps its crawls ({@link CrawlStore}s, one per crawl ID, a blank ID being
 * {@code DEFAULT}) and its service-wide switches (SetActive, SetDelay with no key): in memory
 * ({@link Crawls}) or in Redis, shared by every serve node given it ({@link RedisStore}).
 * Thread-safe.
 */
abstract class FrontierStore implements AutoCloseable {
  abstract ServeSettings settings();

  /**
   * Whether PutURLs should hand this store its items in batches ({@link CrawlStore#putAll}): a
   * store that pays a round trip per call does.
   */
  boolean batchesPuts() {
    return false;
  }

  /** The crawl, created with a fresh Sieve if it is new. */
  abstract CrawlStore getOrCreate(String crawlId);

  /** The crawl, if it exists. */
  abstract Optional<? extends CrawlStore> get(String crawlId);

  /** Deletes the crawl and its Sieve; returns the URLs that were pending in it, -1 if none. */
  abstract long delete(String crawlId);

  /** Every crawl, in the order GetURLs should visit them. */
  abstract List<? extends CrawlStore> all();

  /** Moves crawls that produced URLs behind the others, so every crawl gets its turn. */
  abstract void served(List<? extends CrawlStore> produced);

  /** The IDs of the crawls that have queues, as the reference lists crawls (by their queues). */
  abstract List<String> ids();

  abstract boolean active();

  abstract void active(boolean state);

  abstract int defaultDelaySeconds();

  abstract void defaultDelaySeconds(int seconds);

  /** Releases what the store holds (connections); the in-memory store holds nothing. */
  @Override
  public void close() {}
}
