package dev.sieve.testing;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/**
 * Real {@code redis-server} processes for tests, on 127.0.0.1 only, each on a free port, without
 * persistence, in a temporary directory; {@link #close()} stops them.
 *
 * <p>When {@code redis-server} is not installed, {@link #requireInstalled()} fails the test under
 * CI ({@code CI=true}: {@code .ci/run} installs it) and skips it elsewhere, saying why.
 */
public final class RedisServers implements AutoCloseable {
  private static final long START_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(20);

  private final Path dir;
  private final List<Process> processes = new ArrayList<>();
  private final List<Integer> ports = new ArrayList<>();

  private RedisServers(Path dir) {
    this.dir = dir;
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
    requireInstalled();
    RedisServers servers = new RedisServers(Files.createTempDirectory("sieve-redis-"));
    try {
      servers.startServer(List.of());
      return servers;
    } catch (IOException | RuntimeException | Error e) {
      servers.close();
      throw e;
    }
  }

  /** Starts a cluster of three masters, no replicas, and waits for {@code cluster_state:ok}. */
  public static RedisServers cluster() throws IOException {
    requireInstalled();
    RedisServers servers = new RedisServers(Files.createTempDirectory("sieve-redis-cluster-"));
    try {
      for (int i = 0; i < 3; i++) {
        servers.startServer(List.of("--cluster-enabled", "yes", "--cluster-config-file",
            servers.dir.resolve("nodes-" + i + ".conf").toString(), "--cluster-node-timeout",
            "5000"));
      }
      List<String> create = new ArrayList<>(List.of("redis-cli", "--cluster", "create"));
      for (int port : servers.ports) {
        create.add("127.0.0.1:" + port);
      }
      create.addAll(List.of("--cluster-replicas", "0", "--cluster-yes"));
      Process cli = new ProcessBuilder(create)
          .redirectErrorStream(true)
          .redirectOutput(servers.dir.resolve("cluster-create.log").toFile())
          .start();
      if (!cli.waitFor(60, TimeUnit.SECONDS) || cli.exitValue() != 0) {
        cli.destroyForcibly();
        throw new IOException("redis-cli --cluster create failed: "
            + Files.readString(servers.dir.resolve("cluster-create.log")));
      }
      for (int port : servers.ports) {
        servers.await(port, "CLUSTER INFO", reply -> reply.contains("cluster_state:ok"));
      }
      return servers;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      servers.close();
      throw new IOException("interrupted while creating the cluster", e);
    } catch (IOException | RuntimeException | Error e) {
      servers.close();
      throw e;
    }
  }

  /** The first server's port. */
  public int port() {
    return ports.get(0);
  }

  public List<Integer> ports() {
    return List.copyOf(ports);
  }

  /** {@code redis://127.0.0.1:PORT} of the first server. */
  public String uri() {
    return "redis://127.0.0.1:" + port();
  }

  /** {@code redis-cluster://127.0.0.1:P1,127.0.0.1:P2,...}. */
  public String clusterUri() {
    StringBuilder uri = new StringBuilder("redis-cluster://");
    for (int i = 0; i < ports.size(); i++) {
      uri.append(i == 0 ? "" : ",").append("127.0.0.1:").append(ports.get(i));
    }
    return uri.toString();
  }

  /** Runs one command through redis-cli against the first server and returns its output. */
  public String cli(String... args) throws IOException {
    List<String> command = new ArrayList<>(List.of("redis-cli", "-h", "127.0.0.1", "-p",
        Integer.toString(port())));
    command.addAll(List.of(args));
    Process cli = new ProcessBuilder(command).redirectErrorStream(true).start();
    try {
      byte[] out = cli.getInputStream().readAllBytes();
      cli.waitFor(30, TimeUnit.SECONDS);
      return new String(out, StandardCharsets.UTF_8);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    }
  }

  private void startServer(List<String> extra) throws IOException {
    int port = extra.isEmpty() ? freePort() : freeClusterPort();
    List<String> command = new ArrayList<>(List.of("redis-server", "--bind", "127.0.0.1",
        "--port", Integer.toString(port), "--save", "", "--appendonly", "no", "--daemonize", "no",
        "--dir", dir.toString(), "--protected-mode", "yes"));
    command.addAll(extra);
    Process process = new ProcessBuilder(command)
        .redirectErrorStream(true)
        .redirectOutput(dir.resolve("redis-" + port + ".log").toFile())
        .start();
    processes.add(process);
    ports.add(port);
    await(port, "PING", reply -> reply.startsWith("+PONG"));
  }

  /** Polls {@code command} until the reply passes, the server dies, or 20 s pass. */
  private void await(int port, String command, java.util.function.Predicate<String> ok)
      throws IOException {
    Process process = processes.get(ports.indexOf(port));
    long deadline = System.nanoTime() + START_TIMEOUT_NANOS;
    String last = "";
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        throw new IOException("redis-server on port " + port + " exited with "
            + process.exitValue() + ": " + Files.readString(dir.resolve("redis-" + port + ".log")));
      }
      try {
        last = inline(port, command);
        if (ok.test(last)) {
          return;
        }
      } catch (IOException notYet) {
        last = notYet.toString();
      }
      try {
        process.waitFor(20, TimeUnit.MILLISECONDS); // bounded poll; returns at once if it dies
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted", e);
      }
    }
    throw new IOException("redis-server on port " + port + " did not answer " + command
        + " in time; last reply: " + last);
  }

  /** Sends an inline command and reads what arrives in one read. */
  private static String inline(int port, String command) throws IOException {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1000);
      socket.setSoTimeout(2000);
      socket.getOutputStream().write((command + "\r\n").getBytes(StandardCharsets.US_ASCII));
      byte[] buffer = new byte[8192];
      int n = socket.getInputStream().read(buffer);
      return n <= 0 ? "" : new String(buffer, 0, n, StandardCharsets.UTF_8);
    }
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }

  /** A free port P whose cluster bus port P + 10000 is free too (so P < 55536). */
  private static int freeClusterPort() throws IOException {
    java.util.Random random = new java.util.Random();
    for (int attempt = 0; attempt < 200; attempt++) {
      int port = 20_000 + random.nextInt(20_000);
      if (bindable(port) && bindable(port + 10_000)) {
        return port;
      }
    }
    throw new IOException("no free port pair (P, P+10000) found for a cluster node");
  }

  private static boolean bindable(int port) {
    try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
      return true;
    } catch (IOException e) {
      return false;
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
      }
    }
    try (var files = Files.walk(dir)) {
      files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      // Best effort: a temporary directory.
    }
  }
}
