package dev.sieve.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine;

/**
 * A {@link BenchSite} served by another JVM started on this one's class path, so that what the
 * bench measures in this one is the crawler's alone. Closing it stops that JVM.
 */
final class SiteProcess implements AutoCloseable {
  private final Process process;
  private final int port;

  private SiteProcess(Process process, int port) {
    this.process = process;
    this.port = port;
  }

  /**
   * Starts the site with {@code maxHeap} (e.g. {@code 1g}) and waits until it serves.
   *
   * @throws IllegalStateException if it exits or prints anything but {@code ready PORT} first
   */
  static SiteProcess start(String maxHeap, int pages, int pageBytes, int links) throws IOException {
    Process process = new ProcessBuilder(java(), "-Xmx" + maxHeap, "-cp", classPath(),
            BenchSite.class.getName(), Integer.toString(pages), "0", Integer.toString(pageBytes),
            Integer.toString(links))
        .redirectError(ProcessBuilder.Redirect.INHERIT)
        .start();
    try {
      BufferedReader reader = new BufferedReader(
          new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
      String line = reader.readLine();
      if (line == null || !line.startsWith("ready ")) {
        throw new IllegalStateException("the site server did not start: " + line);
      }
      return new SiteProcess(process, Integer.parseInt(line.substring(6).trim()));
    } catch (IOException | RuntimeException e) {
      process.destroy();
      throw e;
    }
  }

  /** The loopback port it serves on. */
  int port() {
    return port;
  }

  /** Its URL of page 0, from which every page is reachable. */
  String seed() {
    return "http://127.0.0.1:" + port + "/p/0.html";
  }

  long pid() {
    return process.pid();
  }

  /** The CPU time it has used so far, all threads. */
  Duration cpuTime() {
    return process.toHandle().info().totalCpuDuration().orElse(Duration.ZERO);
  }

  @Override
  public void close() throws InterruptedException {
    process.destroy();
    process.waitFor(10, TimeUnit.SECONDS);
  }

  /** The {@code java} executable of this JVM. */
  static String java() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }

  /** This JVM's class path, for a child JVM that runs the benchmarks' own classes. */
  static String classPath() {
    return System.getProperty("java.class.path");
  }

  /**
   * The jar (or classes directory) of the command line that runs {@code command}: {@code
   * crawler.jar}, whose {@code crawl} the benchmarks start in fresh JVMs.
   */
  static Path crawlerJar(CommandLine.Model.CommandSpec command) {
    Class<?> root = command.root().userObject().getClass();
    try {
      return Path.of(root.getProtectionDomain().getCodeSource().getLocation().toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException("cannot locate the crawler's jar", e);
    }
  }
}
