package dev.sieve.frontier.queue;

import java.util.List;
import java.util.Optional;

/**
 * Where the service keeps its crawls ({@link CrawlStore}s, one per crawl ID, a blank ID being
 * {@code DEFAULT}) and its service-wide switches (SetActive, SetDelay with no key): in memory
 * ({@link Crawls}) or in Redis, shared by every serve node given it ({@code serve}'s Redis store).
 * Thread-safe.
 */
public abstract class FrontierStore implements AutoCloseable {
  /** The ID a blank crawl ID stands for, as the URL Frontier API names it. */
  public static final String DEFAULT_CRAWL = "DEFAULT";

  /** {@code crawlId} with blank turned into the default crawl's ID. */
  public static String normalise(String crawlId) {
    return crawlId == null || crawlId.isBlank() ? DEFAULT_CRAWL : crawlId;
  }

  /**
   * Whether PutURLs should hand this store its items in batches ({@link CrawlStore#putAll}): a
   * store that pays a round trip per call does.
   */
  public boolean batchesPuts() {
    return false;
  }

  /** The crawl, created with a fresh Sieve if it is new. */
  public abstract CrawlStore getOrCreate(String crawlId);

  /**
   * The number of crawls, for a limit on them; -1 from a store that cannot tell cheaply (and is
   * bounded by its own means).
   */
  public int crawlCount() {
    return -1;
  }

  /**
   * The crawl if it exists, from a store that answers without a round trip; empty otherwise, and
   * from a store that cannot answer cheaply.
   */
  public Optional<? extends CrawlStore> local(String crawlId) {
    return Optional.empty();
  }

  /** The crawl, if it exists. */
  public abstract Optional<? extends CrawlStore> get(String crawlId);

  /** Deletes the crawl and its Sieve; returns the URLs that were pending in it, -1 if none. */
  public abstract long delete(String crawlId);

  /** Every crawl, in the order GetURLs should visit them. */
  public abstract List<? extends CrawlStore> all();

  /** Moves crawls that produced URLs behind the others, so every crawl gets its turn. */
  public abstract void served(List<? extends CrawlStore> produced);

  /** The IDs of the crawls that have queues, as the reference lists crawls (by their queues). */
  public abstract List<String> ids();

  public abstract boolean active();

  public abstract void active(boolean state);

  public abstract int defaultDelaySeconds();

  public abstract void defaultDelaySeconds(int seconds);

  /** Releases what the store holds (connections); the in-memory store holds nothing. */
  @Override
  public void close() {}
}
