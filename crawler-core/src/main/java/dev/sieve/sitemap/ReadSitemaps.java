package dev.sieve.sitemap;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sitemaps a crawl with a state directory has read, one URL a line in {@value #FILE}, so that
 * a resumed crawl does not fetch them again. A memo, not part of the crawl's state: when it cannot
 * be written, one WARN says so and the crawl goes on (a resume then reads those sitemaps again,
 * and the URLs they list that it knows are {@code seen}). Thread-safe.
 */
public final class ReadSitemaps implements AutoCloseable {
  /** The file's name in the state directory. */
  public static final String FILE = "sitemaps-read.txt";
  private static final Logger log = LoggerFactory.getLogger(ReadSitemaps.class);

  private final Path file;
  private final List<String> before;
  /** Opened at the first sitemap read, so a crawl without any leaves no file. */
  private BufferedWriter out;
  private boolean failed;

  private ReadSitemaps(Path file, List<String> before) {
    this.file = file;
    this.before = before;
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

  /** Notes that {@code sitemap} was read (its listed URLs already queued). */
  public synchronized void add(String sitemap) {
    if (file == null || failed) {
      return;
    }
    try {
      if (out == null) {
        out = Files.newBufferedWriter(file, StandardCharsets.UTF_8,
            StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.APPEND);
      }
      out.write(sitemap);
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
