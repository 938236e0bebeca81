package dev.sieve.loopback;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * {@code redis-server} processes on free 127.0.0.1 ports, in a temporary directory: one server,
 * or a cluster of three masters made by {@code redis-cli --cluster create}, without persistence;
 * or one server that journals every write ({@code appendonly yes}, {@code appendfsync always}),
 * to be killed and started again on its port and directory. Closing it stops them and deletes the
 * directory.
 */
public final class LoopbackRedis implements AutoCloseable {
  private static final long START_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(30);

  private final Path dir;
  private final List<Process> processes = new ArrayList<>();
  private final List<Integer> ports = new ArrayList<>();
  /** Each server's command line, to start it again after a kill. */
  private final List<List<String>> commands = new ArrayList<>();
  private final boolean cluster;

  private LoopbackRedis(Path dir, boolean cluster) {
    this.dir = dir;
    this.cluster = cluster;
  }

  /**
   * Starts one server, or three cluster masters, and waits until they serve.
   *
   * @throws IOException naming what failed (redis-server missing, a server that exited, a
   *     cluster that did not form)
   */
  public static LoopbackRedis start(boolean cluster) throws IOException, InterruptedException {
    LoopbackRedis redis = new LoopbackRedis(Files.createTempDirectory("sieve-redis-"), cluster);
    try {
      for (int i = 0; i < (cluster ? 3 : 1); i++) {
        redis.startServer(cluster ? List.of("--cluster-enabled", "yes", "--cluster-config-file",
            redis.dir.resolve("nodes-" + i + ".conf").toString(), "--cluster-node-timeout",
            "5000") : List.of());
      }
      if (cluster) {
        List<String> create = new ArrayList<>(List.of("redis-cli", "--cluster", "create"));
        redis.ports.forEach(port -> create.add("127.0.0.1:" + port));
        create.addAll(List.of("--cluster-replicas", "0", "--cluster-yes"));
        String out = run(create);
        for (int port : redis.ports) {
          redis.await(port, List.of("CLUSTER", "INFO"), "cluster_state:ok", out);
        }
      }
      return redis;
    } catch (IOException | InterruptedException | RuntimeException e) {
      redis.close();
      throw e;
    }
  }

  /**
   * Starts one server that writes every command to its append-only file before it answers
   * ({@code appendfsync always}): a kill -9 loses no acknowledged write; see {@link #kill} and
   * {@link #restart}.
   *
   * @throws IOException naming what failed
   */
  public static LoopbackRedis startAppendOnly() throws IOException, InterruptedException {
    LoopbackRedis redis = new LoopbackRedis(Files.createTempDirectory("sieve-redis-"), false);
    try {
      redis.startServer(List.of("--appendonly", "yes", "--appendfsync", "always"));
      return redis;
    } catch (IOException | InterruptedException | RuntimeException e) {
      redis.close();
      throw e;
    }
  }

  /** Kills every server with SIGKILL, as a crash would, and waits until they are gone. */
  public void kill() throws InterruptedException {
    for (Process process : processes) {
      process.destroyForcibly();
    }
    for (Process process : processes) {
      process.waitFor(10, TimeUnit.SECONDS);
    }
  }

  /**
   * Starts again every server that is not running, on its port and directory (an append-only one
   * reloads its file), and waits until each serves.
   *
   * @throws IOException naming what failed
   */
  public void restart() throws IOException, InterruptedException {
    for (int i = 0; i < processes.size(); i++) {
      if (!processes.get(i).isAlive()) {
        processes.set(i, launch(commands.get(i), ports.get(i)));
        await(ports.get(i), List.of("PING"), "PONG", "");
      }
    }
  }

  /** The first server's port. */
  public int port() {
    return ports.get(0);
  }

  /** Every server's port, in the order they started. */
  public List<Integer> ports() {
    return List.copyOf(ports);
  }

  /** {@code redis://127.0.0.1:PORT}, or {@code redis-cluster://…} listing every master. */
  public String uri() {
    List<String> nodes = new ArrayList<>();
    ports.forEach(port -> nodes.add("127.0.0.1:" + port));
    return (cluster ? "redis-cluster://" : "redis://") + String.join(",", nodes);
  }

  /** Runs one command through redis-cli against the first server; returns what it printed. */
  public String cli(String... command) throws IOException, InterruptedException {
    return run(cli(port(), command));
  }

  /** CPU seconds (user and system) the servers used so far, as INFO cpu reports them. */
  public double cpuSeconds() {
    double total = 0;
    try {
      for (int port : ports) {
        for (String line : run(cli(port, "INFO", "cpu")).split("\\R")) {
          if (line.startsWith("used_cpu_sys:") || line.startsWith("used_cpu_user:")) {
            total += Double.parseDouble(line.substring(line.indexOf(':') + 1).strip());
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted reading Redis's CPU time", e);
    }
    return total;
  }

  /** Empties every server. */
  public void flushAll() throws IOException, InterruptedException {
    for (int port : ports) {
      run(cli(port, "FLUSHALL"));
    }
  }

  private void startServer(List<String> extra) throws IOException, InterruptedException {
    int port = freePort(cluster);
    List<String> command = new ArrayList<>(List.of("redis-server", "--bind", "127.0.0.1",
        "--port", Integer.toString(port), "--save", "", "--appendonly", "no", "--daemonize", "no",
        "--dir", dir.toString(), "--protected-mode", "yes"));
    command.addAll(extra);
    // The last of a repeated option wins: an append-only server's --appendonly yes.
    processes.add(launch(command, port));
    commands.add(command);
    ports.add(port);
    await(port, List.of("PING"), "PONG", "");
  }

  private Process launch(List<String> command, int port) throws IOException {
    try {
      return new ProcessBuilder(command).redirectErrorStream(true)
          .redirectOutput(ProcessBuilder.Redirect.appendTo(
              dir.resolve("redis-" + port + ".log").toFile()))
          .start();
    } catch (IOException e) {
      throw new IOException("cannot run redis-server (apt-get install redis-server): "
          + e.getMessage(), e);
    }
  }

  /** Polls a redis-cli command until its answer holds {@code expected}, or 30 s pass. */
  private void await(int port, List<String> command, String expected, String context)
      throws IOException, InterruptedException {
    Process process = processes.get(ports.indexOf(port));
    long deadline = System.nanoTime() + START_TIMEOUT_NANOS;
    String last = "";
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        throw new IOException("redis-server on 127.0.0.1:" + port + " exited: "
            + Files.readString(dir.resolve("redis-" + port + ".log")).strip());
      }
      last = run(cli(port, command.toArray(new String[0])));
      if (last.contains(expected)) {
        return;
      }
      process.waitFor(50, TimeUnit.MILLISECONDS); // a bounded poll, over at once if it dies
    }
    throw new IOException("redis-server on 127.0.0.1:" + port + " did not answer "
        + String.join(" ", command) + " with " + expected + " in 30 s: " + last.strip() + " "
        + context.strip());
  }

  private static List<String> cli(int port, String... command) {
    List<String> out = new ArrayList<>(List.of("redis-cli", "-h", "127.0.0.1", "-p",
        Integer.toString(port)));
    out.addAll(List.of(command));
    return out;
  }

  private static String run(List<String> command) throws IOException, InterruptedException {
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    byte[] out = process.getInputStream().readAllBytes();
    process.waitFor(30, TimeUnit.SECONDS);
    return new String(out, StandardCharsets.UTF_8);
  }

  /** A free port; for a cluster node, one whose bus port (+10000) is free too. */
  private static int freePort(boolean cluster) throws IOException {
    for (int attempt = 0; attempt < 100; attempt++) {
      try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
        int port = socket.getLocalPort();
        if (!cluster || port + 10_000 <= 65_535 && free(port + 10_000)) {
          return port;
        }
      }
    }
    throw new IOException("no free port pair for a Redis Cluster node on 127.0.0.1");
  }

  private static boolean free(int port) {
    try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  /** Stops the servers (forcibly after 10 s) and deletes their directory. */
  @Override
  public void close() {
    for (Process process : processes) {
      process.destroy();
    }
    for (Process process : processes) {
      try {
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
          process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        process.destroyForcibly();
      }
    }
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(file);
      }
    } catch (IOException e) {
      // A temporary directory left behind: nothing a bench or test result depends on.
    }
  }
}
