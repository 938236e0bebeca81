package dev.sieve.files;

import java.io.Closeable;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * An exclusive lock on a file in a directory, held by the one process that writes there: a
 * crawl's or {@code serve}'s state directory ({@link #FILE}), a WARC archive's directory. The
 * operating system drops it when the process dies, kill -9 included, so a lock file left behind
 * never blocks a restart.
 */
public final class DirectoryLock implements Closeable {
  /** The lock file's name in a state directory. */
  public static final String FILE = "lock";

  private final FileChannel channel;
  private final FileLock lock;

  private DirectoryLock(FileChannel channel, FileLock lock) {
    this.channel = channel;
    this.lock = lock;
  }

  /**
   * Takes the lock of state directory {@code dir} (which exists), {@code DIR/}{@value #FILE}.
   *
   * @return the lock, or null when another process (or another holder in this one) has it
   */
  public static DirectoryLock tryLock(Path dir) throws IOException {
    return tryLock(dir, FILE);
  }

  /**
   * Takes the lock on file {@code name} in {@code dir} (which exists).
   *
   * @return the lock, or null when another process (or another holder in this one) has it
   */
  public static DirectoryLock tryLock(Path dir, String name) throws IOException {
    FileChannel channel = FileChannel.open(
        dir.resolve(name), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
    FileLock lock;
    try {
      lock = channel.tryLock();
    } catch (OverlappingFileLockException e) {
      lock = null;
    } catch (IOException | RuntimeException e) {
      channel.close();
      throw e;
    }
    if (lock == null) {
      channel.close();
      return null;
    }
    return new DirectoryLock(channel, lock);
  }

  @Override
  public void close() throws IOException {
    lock.release();
    channel.close();
  }
}
