package dev.sieve.warc;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * The archive could not be written: the message is one line naming the file and the cause, e.g.
 * {@code cannot write WARC file out/x.warc.gz.open: No space left on device}.
 */
public final class WarcException extends UncheckedIOException {
  private final boolean inUse;

  WarcException(String doing, Path file, IOException cause) {
    super("cannot " + doing + " " + file + ": " + cause(cause), cause);
    this.inUse = false;
  }

  private WarcException(Path dir) {
    super("WARC directory " + dir + " is in use by another crawl", new IOException("locked"));
    this.inUse = true;
  }

  /** Another archive is writing into {@code dir}. */
  static WarcException inUse(Path dir) {
    return new WarcException(dir);
  }

  /** Whether the directory is in use by another crawl: a refusal, not an I/O failure. */
  public boolean inUse() {
    return inUse;
  }

  private static String cause(IOException e) {
    if (e instanceof AccessDeniedException) {
      return "permission denied";
    }
    if (e instanceof NoSuchFileException) {
      return "no such file or directory";
    }
    if (e instanceof FileSystemException fs && fs.getReason() != null) {
      return fs.getReason();
    }
    return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
  }
}
