package dev.sieve.frontier.queue;

import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * Where the service keeps its crawls ({@link CrawlStore}s, one per crawl ID, a blank ID being
 * {@code DEFAULT}) and its service-wide switches (SetActive, SetDelay with no key): in memory
 * ({@link Crawls}) or in Redis, shared by every serve node given it ({@link
 * dev.sieve.frontier.redis.RedisStore}). {@link dev.sieve.frontier.Frontiers#open} makes one.
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
   * Whether this store pays a round trip per call: PutURLs should then hand it its items in
   * batches ({@link CrawlStore#putAll}), and calls wait on it (off the network's threads).
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

  /** The least time between two productions of a queue that has no delay of its own. */
  public abstract Duration defaultDelay();

  /** Sets {@link #defaultDelay()} for every queue without a delay of its own. */
  public abstract void defaultDelay(Duration delay);

  /** Bytes of pending URLs spilled to disk now, over every crawl (0 where none spill). */
  public long spilledBytes() {
    return 0;
  }

  /**
   * Joins the nodes sharing this store as {@code address} ({@code host:port}), beating once:
   * listed until {@code ttlMillis} after its last beat ({@code clock}'s time), or until the
   * answer is closed. A store in this process is shared by no other node: it lists {@code
   * address} alone.
   */
  public Nodes join(String address, Clock clock, long ttlMillis) {
    return () -> List.of(address);
  }

  /**
   * Runs {@code answer} once every change this store applied before the call is durable: at once
   * where the store keeps no journal of its own (in memory; in Redis, where durability is Redis's
   * own), or once a state directory's journal has written them ({@link
   * dev.sieve.frontier.durable.DurableStore}). Answers run in the order they were registered. A
   * face answers a call that changed the store through this, so it never acks what a crash could
   * lose.
   *
   * @throws IllegalStateException when the store's journal can no longer be written (the message
   *     says why); {@code answer} then never runs
   */
  public void afterDurable(Runnable answer) {
    answer.run();
  }

  /**
   * Writes a checkpoint of every crawl now, where the store keeps one (a state directory's, which
   * also writes one periodically); the others have none to write.
   */
  public void checkpoint() throws IOException {}

  /** Releases what the store holds (connections); the in-memory store holds nothing. */
  @Override
  public void close() {}

  /** The nodes sharing a store, as ListNodes lists them; closing leaves the list. */
  public interface Nodes extends AutoCloseable {
    /** The live nodes' addresses, sorted. */
    List<String> live();

    /** Marks this node alive for another TTL. */
    default void beat() {}

    /** Beats every third of the TTL from now on, until closed. */
    default void keepBeating() {}

    @Override
    default void close() {}
  }
}
