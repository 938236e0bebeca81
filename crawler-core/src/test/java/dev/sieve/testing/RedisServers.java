package dev.sieve.testing;

import dev.sieve.loopback.LoopbackRedis;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/**
 * Real {@code redis-server} processes for tests, started by {@link LoopbackRedis} (127.0.0.1 only,
 * free ports, no persistence, a temporary directory); {@link #close()} stops them.
 *
 * <p>When {@code redis-server} is not installed, {@link #requireInstalled()} fails the test under
 * CI ({@code CI=true}: {@code .ci/run} installs it) and skips it elsewhere, saying why.
 */
public final class RedisServers implements AutoCloseable {
  private final LoopbackRedis redis;

  private RedisServers(LoopbackRedis redis) {
    this.redis = redis;
  }

  /** Fails (CI) or skips (elsewhere) the calling test when redis-server is not on the PATH. */
  public static void requireInstalled() {
    if (onPath("redis-server") && onPath("redis-cli")) {
      return;
    }
    String message = "redis-server and redis-cli are needed for the Redis tests: install them"
        + " (apt-get install -y redis-server; .ci/run does)";
    if ("true".equalsIgnoreCase(System.getenv("CI"))) {
      Assertions.fail(message);
    }
    Assumptions.abort(message + "; skipped because CI is not set");
  }

  /** Starts one standalone server. */
  public static RedisServers standalone() throws IOException {
    return start(false);
  }

  /** Starts a cluster of three masters, no replicas, and waits for {@code cluster_state:ok}. */
  public static RedisServers cluster() throws IOException {
    return start(true);
  }

  /**
   * Starts one server that writes every command to its append-only file before it answers, to be
   * {@link #kill}ed and {@link #restart}ed.
   */
  public static RedisServers appendOnly() throws IOException {
    requireInstalled();
    try {
      return new RedisServers(LoopbackRedis.startAppendOnly());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while starting redis-server", e);
    }
  }

  private static RedisServers start(boolean cluster) throws IOException {
    requireInstalled();
    try {
      return new RedisServers(LoopbackRedis.start(cluster));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while starting redis-server", e);
    }
  }

  /** Kills every server with SIGKILL and waits until they are gone. */
  public void kill() throws InterruptedException {
    redis.kill();
  }

  /** Starts the killed servers again on their ports and directory; waits until they serve. */
  public void restart() throws IOException, InterruptedException {
    redis.restart();
  }

  /** The first server's port. */
  public int port() {
    return redis.port();
  }

  public List<Integer> ports() {
    return redis.ports();
  }

  /** {@code redis://127.0.0.1:PORT} of the first server. */
  public String uri() {
    return "redis://127.0.0.1:" + port();
  }

  /** {@code redis-cluster://127.0.0.1:P1,127.0.0.1:P2,...}. */
  public String clusterUri() {
    return redis.uri();
  }

  /** Runs one command through redis-cli against the first server and returns its output. */
  public String cli(String... args) throws IOException {
    try {
      return redis.cli(args);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    }
  }

  /** Whether an executable {@code program} is in a directory of the PATH. */
  public static boolean onPath(String program) {
    String path = System.getenv("PATH");
    if (path == null) {
      return false;
    }
    for (String dir : path.split(java.io.File.pathSeparator)) {
      if (Files.isExecutable(Path.of(dir, program))) {
        return true;
      }
    }
    return false;
  }

  @Override
  public void close() {
    redis.close();
  }
}
