package dev.sieve.app;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/** The output file of a crawler running as a child process, watched by an integration test. */
final class JsonlFiles {
  private JsonlFiles() {}

  /** Waits (polling the output, bounded) until it has {@code target} lines or the crawler exits. */
  static void awaitLines(Path output, long target, Process crawler) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    while (lines(output) < target) {
      if (!crawler.isAlive()) {
        throw new AssertionError("the crawler exited early with " + crawler.exitValue());
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError("no progress to " + target + " lines in 120 s");
      }
      crawler.waitFor(20, TimeUnit.MILLISECONDS);
    }
  }

  /** Lines in {@code file}; 0 when it does not exist yet. */
  static long lines(Path file) throws IOException {
    if (!Files.exists(file)) {
      return 0;
    }
    try (var lines = Files.lines(file)) {
      return lines.count();
    }
  }
}
