package dev.sieve.frontier;

import dev.sieve.frontier.queue.FrontierStore;
import java.util.Objects;
import java.util.Optional;

/**
 * A frontier as {@link Frontiers#open} made it: one crawl's queues ({@link #frontier()}), or, for
 * a frontier service ({@link FrontierSettings.Builder#service()}), every crawl by ID ({@link
 * #crawls()}), which makes its changes durable itself ({@link FrontierStore#afterDurable}); and
 * the lifecycle of its state or connections when it keeps any (a crawl in memory keeps none).
 *
 * @param frontier one crawl's queues; null when opened as a service
 * @param lifecycle what keeps its state or connections
 * @param crawls every crawl by ID; null unless opened as a service
 */
public record OpenFrontier(Frontier frontier, Optional<FrontierLifecycle> lifecycle,
    FrontierStore crawls) {
  public OpenFrontier {
    Objects.requireNonNull(lifecycle, "lifecycle");
    if ((frontier == null) == (crawls == null)) {
      throw new IllegalArgumentException("an open frontier is one crawl's or a service's");
    }
  }

  /** A frontier that keeps nothing beyond its queues. */
  public static OpenFrontier inMemory(Frontier frontier) {
    return new OpenFrontier(frontier, Optional.empty(), null);
  }

  /** A frontier whose state or connections {@code lifecycle} keeps. */
  public static OpenFrontier kept(Frontier frontier, FrontierLifecycle lifecycle) {
    return new OpenFrontier(frontier, Optional.of(lifecycle), null);
  }

  /**
   * A service's crawls; {@code lifecycle}'s end saves them a last time (where they are kept in a
   * state directory), its disconnect closes {@code crawls}.
   */
  public static OpenFrontier service(FrontierStore crawls, FrontierLifecycle lifecycle) {
    return new OpenFrontier(null, Optional.of(lifecycle), Objects.requireNonNull(crawls, "crawls"));
  }

  /**
   * One crawl's queues.
   *
   * @throws IllegalStateException when opened as a service (see {@link #crawls()})
   */
  @Override
  public Frontier frontier() {
    if (frontier == null) {
      throw new IllegalStateException("a service's frontier holds every crawl: see crawls()");
    }
    return frontier;
  }

  /**
   * Every crawl by ID, as a frontier service keeps them.
   *
   * @throws IllegalStateException when opened as one crawl's (see {@link #frontier()})
   */
  @Override
  public FrontierStore crawls() {
    if (crawls == null) {
      throw new IllegalStateException("one crawl's frontier: see frontier()");
    }
    return crawls;
  }

  /** Releases the connections, if the frontier keeps any (see {@link FrontierLifecycle#disconnect}). */
  public void disconnect() {
    lifecycle.ifPresent(FrontierLifecycle::disconnect);
  }
}
