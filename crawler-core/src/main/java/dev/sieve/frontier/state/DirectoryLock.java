package dev.sieve.frontier.state;

import java.io.Closeable;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The exclusive lock on {@code DIR/lock} that one process holds while it uses a state directory
 * (a crawl's, or {@code serve}'s). The operating system drops it when the process dies, kill -9
 * included, so a lock file left behind never blocks a restart.
 */
public final class DirectoryLock implements Closeable {
  /** The lock file's name in the directory. */
  public static final String FILE = "lock";

  private final FileChannel channel;
  private final FileLock lock;

  private DirectoryLock(FileChannel channel, FileLock lock) {
    this.channel = channel;
    this.lock = lock;
  }

  /**
   * Takes the lock of {@code dir} (which exists).
   *
   * @return the lock, or null when another process (or another holder in this one) has it
   */
  public static DirectoryLock tryLock(Path dir) throws IOException {
    FileChannel channel = FileChannel.open(
        dir.resolve(FILE), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
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
