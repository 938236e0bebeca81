package dev.sieve.warc;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The lock file {@code DIR/.sieve-warc.lock}, held while an archive writes into DIR: a second
 * crawl must not take the first one's {@code .open} file for a torn one and cut it.
 */
final class DirLock implements AutoCloseable {
  static final String NAME = ".sieve-warc.lock";

  private final FileChannel channel;
  private final FileLock lock;

  private DirLock(FileChannel channel, FileLock lock) {
    this.channel = channel;
    this.lock = lock;
  }

  /**
   * Locks {@code dir}.
   *
   * @throws WarcException if another archive holds it ({@link WarcException#inUse()}) or the
   *     lock file cannot be written
   */
  static DirLock acquire(Path dir) {
    Path file = dir.resolve(NAME);
    try {
      FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
      FileLock lock = tryLock(channel);
      if (lock == null) {
        channel.close();
        throw WarcException.inUse(dir);
      }
      return new DirLock(channel, lock);
    } catch (IOException e) {
      throw new WarcException("lock WARC directory", file, e);
    }
  }

  /** The lock, or null when another process (or archive) holds it. */
  private static FileLock tryLock(FileChannel channel) throws IOException {
    try {
      return channel.tryLock();
    } catch (OverlappingFileLockException e) {
      return null;
    }
  }

  @Override
  public void close() {
    try {
      lock.release();
      channel.close();
    } catch (IOException ignored) {
      // Closing the channel releases the lock in any case.
    }
  }
}
