package dev.sieve.warc;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * One WARC file while it is written: {@code NAME.open} on disk, renamed to {@code NAME} when
 * closed. Each append is one write of whole records, so a crash can tear only the last. Not
 * thread-safe: the {@link WarcArchive} serializes access.
 */
final class WarcFile {
  /** The suffix of a file being written. */
  static final String OPEN = ".open";

  private final String name;
  private final Path open;
  private final Path closed;
  private final FileChannel channel;
  private long size;
  private int exchanges;

  private WarcFile(Path dir, String name, FileChannel channel) {
    this.name = name;
    this.open = dir.resolve(name + OPEN);
    this.closed = dir.resolve(name);
    this.channel = channel;
  }

  /** Creates {@code dir/NAME.open}; fails if it or {@code NAME} exists. */
  static WarcFile create(Path dir, String name) throws IOException {
    if (Files.exists(dir.resolve(name))) {
      throw new java.nio.file.FileAlreadyExistsException(dir.resolve(name).toString());
    }
    FileChannel channel = FileChannel.open(dir.resolve(name + OPEN),
        StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
    return new WarcFile(dir, name, channel);
  }

  /** The name the file gets when closed. */
  String name() {
    return name;
  }

  /** The path being written. */
  Path openPath() {
    return open;
  }

  Path closedPath() {
    return closed;
  }

  long size() {
    return size;
  }

  /** How many exchanges the file holds (its warcinfo not counted). */
  int exchanges() {
    return exchanges;
  }

  /** Appends whole records, the first {@code length} bytes of {@code records}; returns the offset they start at. */
  long append(byte[] records, int length, boolean exchange) throws IOException {
    long at = size;
    ByteBuffer buffer = ByteBuffer.wrap(records, 0, length);
    while (buffer.hasRemaining()) {
      channel.write(buffer);
    }
    size += length;
    if (exchange) {
      exchanges++;
    }
    return at;
  }

  /** Forces what was written to the disk. */
  void sync() throws IOException {
    channel.force(false);
  }

  /** Syncs, closes and renames the file to its final name. */
  void close() throws IOException {
    try {
      channel.force(true);
    } finally {
      channel.close();
    }
    rename(open, closed);
  }

  /** Renames atomically where the file system can. */
  static void rename(Path from, Path to) throws IOException {
    try {
      Files.move(from, to, StandardCopyOption.ATOMIC_MOVE);
    } catch (AtomicMoveNotSupportedException e) {
      Files.move(from, to);
    }
  }
}
