package dev.sieve.frontier.queue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Names the crawls' {@link CompletedLog} files: {@code completed-N.log} in one directory, each new
 * one with an N no file there has, so that a crawl deleted and created again never shares a file
 * with its predecessor. Guarded by the crawls' lock.
 */
final class CompletedLogs {
  private static final Pattern NAME = Pattern.compile("completed-(\\d+)\\.log");

  /** A directory made on first use. */
  interface Dir {
    Path get() throws IOException;
  }

  private final Path configured;
  private final Dir spillRoot;
  private Path dir;
  private long next = -1;

  /** Logs in {@code configured}, or (when null) in "completed" inside the spill directory. */
  CompletedLogs(Path configured, Dir spillRoot) {
    this.configured = configured;
    this.spillRoot = spillRoot;
  }

  /** A file for a new crawl's log. */
  Path next() {
    Path in = dir();
    if (next < 0) {
      next = 1;
      try (Stream<Path> files = Files.list(in)) {
        files.map(file -> NAME.matcher(file.getFileName().toString()))
            .filter(Matcher::matches)
            .forEach(name -> next = Math.max(next, Long.parseLong(name.group(1)) + 1));
      } catch (IOException e) {
        throw failure(in, e);
      }
    }
    return in.resolve("completed-" + next++ + ".log");
  }

  /** The file a checkpoint named. */
  Path named(String name) {
    if (!NAME.matcher(name).matches()) {
      throw new IllegalArgumentException("'" + name + "' is not a completed-URL log's name");
    }
    return dir().resolve(name);
  }

  private Path dir() {
    if (dir == null) {
      Path wanted = configured;
      try {
        wanted = configured != null ? configured : spillRoot.get().resolve("completed");
        dir = Files.createDirectories(wanted);
      } catch (IOException e) {
        throw failure(wanted, e);
      }
    }
    return dir;
  }

  private static UncheckedIOException failure(Path dir, IOException e) {
    return new UncheckedIOException("cannot use the completed-URL log directory "
        + (dir == null ? "(temporary)" : dir) + ": " + e.getMessage(), e);
  }
}
