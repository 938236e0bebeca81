package dev.sieve.frontier;

import java.util.Objects;
import java.util.Optional;

/**
 * A frontier as {@link Frontiers#open} made it: the queues, and the lifecycle of its state or
 * connections when it keeps any (a frontier in memory keeps none).
 */
public record OpenFrontier(Frontier frontier, Optional<FrontierLifecycle> lifecycle) {
  public OpenFrontier {
    Objects.requireNonNull(frontier, "frontier");
    Objects.requireNonNull(lifecycle, "lifecycle");
  }

  /** A frontier that keeps nothing beyond its queues. */
  public static OpenFrontier inMemory(Frontier frontier) {
    return new OpenFrontier(frontier, Optional.empty());
  }

  /** A frontier whose state or connections {@code lifecycle} keeps. */
  public static OpenFrontier kept(Frontier frontier, FrontierLifecycle lifecycle) {
    return new OpenFrontier(frontier, Optional.of(lifecycle));
  }

  /** Releases the connections, if the frontier keeps any (see {@link FrontierLifecycle#disconnect}). */
  public void disconnect() {
    lifecycle.ifPresent(FrontierLifecycle::disconnect);
  }
}
