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
  private int runs;

  CrawlerJar(Path dir) {
    this.dir = dir;
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

  /** Starts {@code crawler.jar ARGS} with stdin from /dev/null (not a console). */
  Started start(String... args) throws IOException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xmx256m");
    command.add("-jar");
    command.add(JAR.toAbsolutePath().toString());
    command.addAll(List.of(args));
    int run = ++runs;
    Path out = dir.resolve("run-" + run + ".out");
    Path err = dir.resolve("run-" + run + ".err");
    Process process = new ProcessBuilder(command).directory(dir.toFile())
        .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
        .redirectOutput(out.toFile()).redirectError(err.toFile()).start();
    return new Started(process, out, err);
  }

  /** Runs {@code crawler.jar ARGS} to the end. */
  Run run(String... args) throws IOException, InterruptedException {
    return start(args).finish();
  }
}
