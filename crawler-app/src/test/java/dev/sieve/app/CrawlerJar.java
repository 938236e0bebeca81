package dev.sieve.app;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** The packaged crawler.jar run as a child process in a working directory, as a user runs it. */
final class CrawlerJar {
  private static final Path JAR = Path.of(System.getProperty("crawler.jar", "target/crawler.jar"));

  private final Path dir;
  private final Path jar;
  /** Put before the java command: e.g. a tool that drops privileges. */
  private final List<String> prefix;
  /** The JVM's -Xmx. */
  private final String heap;
  private int runs;

  CrawlerJar(Path dir) {
    this(dir, JAR, List.of(), "256m");
  }

  private CrawlerJar(Path dir, Path jar, List<String> prefix, String heap) {
    this.dir = dir;
    this.jar = jar;
    this.prefix = prefix;
    this.heap = heap;
  }

  /**
   * The same jar run with {@code -Xmx} {@code heap} (e.g. "64m"), exiting at once if it runs out
   * (as a heap-bound test wants: a process that outgrew its heap does not limp on).
   */
  CrawlerJar heap(String heap) {
    return new CrawlerJar(dir, jar, prefix, heap);
  }

  /**
   * The same jar run as an unprivileged user (nobody, through util-linux's setpriv) when this
   * test runs as root, for whom file permissions stop nothing; unchanged otherwise. The working
   * directory must then be readable and searchable by others; the jar is copied into it, since
   * the checkout may lie where others cannot read.
   */
  CrawlerJar unprivileged() throws IOException {
    if (!"root".equals(System.getProperty("user.name"))) {
      return this;
    }
    Path copy = Files.copy(JAR, dir.resolve("crawler.jar"));
    return new CrawlerJar(dir, copy,
        List.of("setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"), heap);
  }

  /** What a finished run printed and returned. */
  record Run(int exitCode, String stdout, String stderr) {}

  /** A started run and the files its output streams go to. */
  record Started(Process process, Path stdout, Path stderr) {
    /** Waits (at most 120 s) for the run to end. */
    Run finish() throws IOException, InterruptedException {
      if (!process.waitFor(120, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        throw new AssertionError("crawler.jar did not finish in 120 s");
      }
      return new Run(process.exitValue(), Files.readString(stdout), Files.readString(stderr));
    }
  }

  /**
   * Starts {@code crawler.jar ARGS} with stdin from /dev/null (not a console), without the proxy
   * variables of this environment (a crawl reads them).
   */
  Started start(String... args) throws IOException {
    return start(java.util.Map.of(), args);
  }

  /** {@link #start(String...)} with {@code env} added to the environment (proxy variables too). */
  Started start(java.util.Map<String, String> env, String... args) throws IOException {
    List<String> command = new ArrayList<>(prefix);
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xmx" + heap);
    command.add("-XX:+ExitOnOutOfMemoryError");
    command.add("-jar");
    command.add(jar.toAbsolutePath().toString());
    command.addAll(List.of(args));
    int run = ++runs;
    Path out = dir.resolve("run-" + run + ".out");
    Path err = dir.resolve("run-" + run + ".err");
    ProcessBuilder builder = new ProcessBuilder(command);
    builder.environment().keySet().removeIf(name -> name.toLowerCase(java.util.Locale.ROOT)
        .matches("(http|https|all|no)_proxy"));
    builder.environment().putAll(env);
    Process process = builder.directory(dir.toFile())
        .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
        .redirectOutput(out.toFile()).redirectError(err.toFile()).start();
    return new Started(process, out, err);
  }

  /** Runs {@code crawler.jar ARGS} to the end. */
  Run run(String... args) throws IOException, InterruptedException {
    return start(args).finish();
  }

  /** Runs {@code crawler.jar ARGS} to the end with {@code env} added to the environment. */
  Run run(java.util.Map<String, String> env, String... args) throws IOException, InterruptedException {
    return start(env, args).finish();
  }
}
