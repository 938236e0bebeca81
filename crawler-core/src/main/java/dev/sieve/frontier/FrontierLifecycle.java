package dev.sieve.frontier;

import dev.sieve.url.Url;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What a frontier that keeps state or connections needs besides its queue operations: when the
 * crawl starts and ends, what it resumed, and when its changes are durable. Only such frontiers
 * have one ({@link OpenFrontier#lifecycle()}): one kept in a state directory has all of it; one
 * in Redis or a URL Frontier service only {@link #disconnect()}. Each method's default does
 * nothing, as for a frontier that keeps none of it.
 */
public interface FrontierLifecycle {
  /** The crawl begins: a frontier that keeps state starts its periodic checkpoints. */
  default void start() {}

  /**
   * Runs {@code task} before each checkpoint, so output the checkpoint vouches for (e.g. a WARC
   * archive) is on disk first; a failure of the task fails that checkpoint.
   */
  default void beforeCheckpoint(Runnable task) {}

  /** Whether workers should wait before taking new URLs: the disk the state is kept on is nearly full. */
  default boolean storageLow() {
    return false;
  }

  /** Makes the frontier's changes so far survive a crash before the caller relies on them. */
  default void flushLog() {}

  /**
   * The crawl has ended and its workers stopped: a frontier that keeps state saves it a last time
   * and releases it. Returns why that failed, in one line naming the file; empty if it did not.
   */
  default Optional<String> end() {
    return Optional.empty();
  }

  /** Releases connections once nothing reads the frontier any more (after the crawl's summary). */
  default void disconnect() {}

  /** On resume, the seeds the saved crawl goes on with (its own, and any added); else empty. */
  default Optional<List<Url>> savedSeeds() {
    return Optional.empty();
  }

  /** The crawl's counters restored with the frontier (a resumed crawl's), to count on from. */
  default Map<String, Long> restoredCounts() {
    return Map.of();
  }
}
