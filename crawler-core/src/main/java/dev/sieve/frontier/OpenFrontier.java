package dev.sieve.frontier;

import dev.sieve.frontier.durable.Durability;
import dev.sieve.frontier.queue.FrontierStore;
import java.util.Objects;
import java.util.Optional;

/**
 * A frontier as {@link Frontiers#open} made it: one crawl's queues ({@link #frontier()}), or, for
 * a frontier service ({@link FrontierSettings.Builder#service()}), every crawl by ID ({@link
 * #crawls()}) and how a change to them is made durable; and the lifecycle of its state or
 * connections when it keeps any (a crawl in memory keeps none).
 *
 * @param frontier one crawl's queues; null when opened as a service
 * @param lifecycle what keeps its state or connections
 * @param crawls every crawl by ID; null unless opened as a service
 * @param durability how a service makes a change durable before it answers ({@link
 *     Durability#NONE} unless kept in a state directory)
 */
public record OpenFrontier(Frontier frontier, Optional<FrontierLifecycle> lifecycle,
    FrontierStore crawls, Durability durability) {
  public OpenFrontier {
    Objects.requireNonNull(lifecycle, "lifecycle");
    Objects.requireNonNull(durability, "durability");
    if ((frontier == null) == (crawls == null)) {
      throw new IllegalArgumentException("an open frontier is one crawl's or a service's");
    }
  }

  /** A frontier that keeps nothing beyond its queues. */
  public static OpenFrontier inMemory(Frontier frontier) {
    return new OpenFrontier(frontier, Optional.empty(), null, Durability.NONE);
  }

  /** A frontier whose state or connections {@code lifecycle} keeps. */
  public static OpenFrontier kept(Frontier frontier, FrontierLifecycle lifecycle) {
    return new OpenFrontier(frontier, Optional.of(lifecycle), null, Durability.NONE);
  }

  /**
   * A service's crawls, made durable by {@code durability}; {@code lifecycle}'s end saves them a
   * last time, its disconnect closes {@code crawls}.
   */
  public static OpenFrontier service(FrontierStore crawls, Durability durability,
      FrontierLifecycle lifecycle) {
    return new OpenFrontier(null, Optional.of(lifecycle), Objects.requireNonNull(crawls, "crawls"),
        durability);
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
