package dev.sieve.testing;

import dev.sieve.loopback.LoopbackNginx;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/**
 * A real proxy on a free 127.0.0.1 port, started for a test: tinyproxy (HTTP, CONNECT, optional
 * Basic credentials; logs every request) or microsocks (SOCKS5, optional credentials). Each
 * connects to servers from its own loopback address ({@code bind}, e.g. 127.0.0.2), so a server's
 * log tells requests that came through it from direct ones. Under CI ({@code CI=true}) a missing
 * program fails the test; elsewhere it skips it, saying why.
 */
public final class LocalProxy implements AutoCloseable {
  private final Process process;
  private final int port;
  private final Path log;

  private LocalProxy(Process process, int port, Path log) {
    this.process = process;
    this.port = port;
    this.log = log;
  }

  /**
   * A tinyproxy in {@code dir}, connecting out from {@code bind}, asking for {@code user} and
   * {@code password} when {@code user} is not null.
   */
  public static LocalProxy tinyproxy(Path dir, String bind, String user, String password)
      throws IOException, InterruptedException {
    require("tinyproxy", "tinyproxy");
    int port = LoopbackNginx.freePort();
    Path log = dir.resolve("tinyproxy.log");
    List<String> config = new ArrayList<>(List.of("Port " + port, "Listen 127.0.0.1",
        "Bind " + bind, "Timeout 30", "LogFile \"" + log + "\"", "LogLevel Info", "MaxClients 100"));
    if (user != null) {
      config.add("BasicAuth " + user + " " + password);
    }
    Path file = Files.write(dir.resolve("tinyproxy.conf"), config);
    return start(List.of("tinyproxy", "-d", "-c", file.toString()), dir, port, log);
  }

  /** A microsocks in {@code dir}, connecting out from {@code bind}, with credentials if not null. */
  public static LocalProxy microsocks(Path dir, String bind, String user, String password)
      throws IOException, InterruptedException {
    require("microsocks", "microsocks");
    int port = LoopbackNginx.freePort();
    List<String> command = new ArrayList<>(List.of("microsocks", "-i", "127.0.0.1",
        "-p", Integer.toString(port), "-b", bind));
    if (user != null) {
      command.addAll(List.of("-u", user, "-P", password));
    }
    return start(command, dir, port, dir.resolve("microsocks.log"));
  }

  private static LocalProxy start(List<String> command, Path dir, int port, Path log)
      throws IOException, InterruptedException {
    Path out = dir.resolve(command.get(0) + ".out");
    Process process = new ProcessBuilder(command).redirectErrorStream(true)
        .redirectOutput(out.toFile()).start();
    LocalProxy proxy = new LocalProxy(process, port, log);
    try {
      awaitPort(process, port);
    } catch (IOException e) {
      proxy.close();
      throw new IOException(command.get(0) + " did not start: " + e.getMessage() + ": "
          + Files.readString(out));
    }
    return proxy;
  }

  /**
   * Waits (at most 10 s) until {@code process} accepts connections on 127.0.0.1:{@code port}.
   *
   * @throws IOException if it exits or does not listen in time
   */
  public static void awaitPort(Process process, int port) throws IOException, InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (!accepts(port)) {
      if (!process.isAlive() || System.nanoTime() > deadline) {
        throw new IOException("nothing listens on 127.0.0.1:" + port
            + (process.isAlive() ? "" : ": the process exited with " + process.exitValue()));
      }
      Thread.sleep(20); // polling a child process's port: nothing to await on
    }
  }

  /** The proxy's port on 127.0.0.1. */
  public int port() {
    return port;
  }

  /** The lines of tinyproxy's log so far (every request it was sent). */
  public List<String> logLines() throws IOException {
    return Files.exists(log) ? Files.readAllLines(log) : List.of();
  }

  /** Fails (CI) or skips (elsewhere) the calling test when {@code program} is not on the PATH. */
  public static void require(String program, String debianPackage) {
    if (RedisServers.onPath(program)) {
      return;
    }
    String message = program + " is needed for the proxy tests: install it (apt-get install -y "
        + debianPackage + "; .ci/run does)";
    if ("true".equalsIgnoreCase(System.getenv("CI"))) {
      Assertions.fail(message);
    }
    Assumptions.abort(message + "; skipped because CI is not set");
  }

  private static boolean accepts(int port) {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), port), 200);
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  @Override
  public void close() throws InterruptedException {
    process.destroy();
    if (!process.waitFor(10, TimeUnit.SECONDS)) {
      process.destroyForcibly();
    }
  }
}
