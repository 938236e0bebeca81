package dev.sieve.sitemap;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sitemaps a crawl with a state directory has read, one a line in {@value #FILE} with the
 * counters its reading changed ({@code URL<TAB>name=n name=n…}), so that a resumed crawl does not
 * fetch them again and still counts what they listed. A memo, not part of the crawl's state: when it cannot
 * be written, one WARN says so and the crawl goes on (a resume then reads those sitemaps again,
 * and the URLs they list that it knows are {@code seen}). Thread-safe.
 */
public final class ReadSitemaps implements AutoCloseable {
  /** The file's name in the state directory. */
  public static final String FILE = "sitemaps-read.txt";
  private static final Logger log = LoggerFactory.getLogger(ReadSitemaps.class);

  private final Path file;
  private final List<String> before;
  private final Map<String, Long> countsBefore;
  /** Opened at the first sitemap read, so a crawl without any leaves no file. */
  private BufferedWriter out;
  private boolean failed;

  private ReadSitemaps(Path file, List<String> lines) {
    this.file = file;
    List<String> urls = new ArrayList<>();
    Map<String, Long> counts = new HashMap<>();
    for (String line : lines) {
      String[] parts = line.split("\t", 2);
      urls.add(parts[0]);
      if (parts.length == 2) {
        for (String count : parts[1].split(" ")) {
          int eq = count.lastIndexOf('=');
          if (eq > 0) {
            try {
              counts.merge(count.substring(0, eq), Long.parseLong(count.substring(eq + 1)), Long::sum);
            } catch (NumberFormatException ignored) {
              // A line cut by a crash: its sitemap is skipped, its counters are what was kept.
            }
          }
        }
      }
    }
    this.before = List.copyOf(urls);
    this.countsBefore = Map.copyOf(counts);
  }

  /** A memo that remembers nothing and writes nothing (no state directory). */
  public static ReadSitemaps none() {
    return new ReadSitemaps(null, List.of());
  }

  /**
   * Opens the memo of {@code stateDir}: kept when the crawl {@code resumes}, deleted otherwise
   * (a new crawl, or one started over, reads every sitemap).
   */
  public static ReadSitemaps open(Path stateDir, boolean resumes) {
    Path file = stateDir.resolve(FILE);
    try {
      if (!resumes) {
        Files.deleteIfExists(file);
        return new ReadSitemaps(file, List.of());
      }
      return new ReadSitemaps(file, Files.readAllLines(file, StandardCharsets.UTF_8).stream()
          .filter(line -> !line.isBlank()).toList());
    } catch (NoSuchFileException e) {
      return new ReadSitemaps(file, List.of());
    } catch (IOException | java.io.UncheckedIOException e) {
      log.warn("Cannot use {} ({}): the sitemaps read before are read again", file, e.getMessage());
      ReadSitemaps memo = new ReadSitemaps(file, List.of());
      memo.failed = true;
      return memo;
    }
  }

  /** The sitemaps read by the runs before this one, in the order read. */
  public List<String> before() {
    return before;
  }

  /** What reading the sitemaps of {@link #before} counted, summed. */
  public Map<String, Long> countsBefore() {
    return countsBefore;
  }

  /**
   * Notes that {@code sitemap} was read (its listed URLs already queued) and what its reading
   * {@code counted}.
   */
  public synchronized void add(String sitemap, Map<String, Long> counted) {
    if (file == null || failed) {
      return;
    }
    try {
      if (out == null) {
        out = Files.newBufferedWriter(file, StandardCharsets.UTF_8,
            StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.APPEND);
      }
      StringBuilder line = new StringBuilder(sitemap).append('\t');
      counted.forEach((name, n) -> line.append(name).append('=').append(n).append(' '));
      out.write(line.toString().strip());
      out.write('\n');
      out.flush();
    } catch (IOException e) {
      log.warn("Cannot write {} ({}): a resumed crawl will read its sitemaps again", file, e.getMessage());
      failed = true;
      closeQuietly();
    }
  }

  @Override
  public synchronized void close() {
    closeQuietly();
  }

  private void closeQuietly() {
    if (out != null) {
      try {
        out.close();
      } catch (IOException ignored) {
        // A memo: what was flushed is there, the rest is read again on resume.
      }
      out = null;
    }
  }
}
