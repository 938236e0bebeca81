package dev.sieve.files;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/** Forces what was written to a file, or a directory's entries (a rename), to the disk. */
public final class Fsync {
  private Fsync() {}

  /** Forces {@code file}'s content and metadata to the disk. */
  public static void file(Path file) throws IOException {
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
      channel.force(true);
    }
  }

  /**
   * Forces {@code dir}'s entries (files created or renamed in it) to the disk, where the platform
   * can open a directory; where it cannot, a rename is still atomic and this does nothing.
   */
  public static void directory(Path dir) {
    try (FileChannel channel = FileChannel.open(dir, StandardOpenOption.READ)) {
      channel.force(true);
    } catch (IOException e) {
      // Some platforms cannot open a directory for fsync.
    }
  }
}
