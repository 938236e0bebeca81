package dev.sieve.warc;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code .open} WARC files a crash left: each is cut at the end of its last complete record
 * (gzip member), synced and renamed to its final name, with one warning saying how many bytes
 * were cut. A file with no complete record at all is deleted.
 */
final class TornFiles {
  private static final Logger log = LoggerFactory.getLogger(WarcArchive.class);

  private TornFiles() {}

  /**
   * Recovers every {@code *.warc.gz.open} file in {@code dir}; returns the closed files.
   *
   * @throws WarcException if one cannot be read, cut or renamed
   */
  static List<Path> recover(Path dir) {
    List<Path> torn = new ArrayList<>();
    try (Stream<Path> files = Files.list(dir)) {
      files.filter(f -> f.getFileName().toString().endsWith(".warc.gz" + WarcFile.OPEN))
          .sorted()
          .forEach(torn::add);
    } catch (IOException e) {
      throw new WarcException("list WARC directory", dir, e);
    }
    List<Path> recovered = new ArrayList<>();
    for (Path file : torn) {
      Path closed = recoverFile(file);
      if (closed != null) {
        recovered.add(closed);
      }
    }
    return recovered;
  }

  /** Cuts and closes one torn file; returns its closed path, or null if it was deleted. */
  static Path recoverFile(Path file) {
    String name = file.getFileName().toString();
    Path closed = file.resolveSibling(name.substring(0, name.length() - WarcFile.OPEN.length()));
    try {
      long size;
      long kept;
      try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
        size = channel.size();
        kept = Gzip.completeLength(channel);
        channel.truncate(kept);
        channel.force(true);
      }
      if (kept == 0) {
        Files.delete(file);
        log.warn("WARC file {} was left open by a crash and held no complete record ({} bytes):"
            + " deleted", file, size);
        return null;
      }
      WarcFile.rename(file, closed);
      log.warn("WARC file {} was left open by a crash: cut {} torn byte(s) after its last complete"
          + " record ({} bytes kept), closed as {}", file, size - kept, kept, closed.getFileName());
      return closed;
    } catch (IOException e) {
      throw new WarcException("recover torn WARC file", file, e);
    }
  }
}
