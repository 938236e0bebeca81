package dev.sieve.frontier.spill;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * One segment file, {@code pending-NNNNNNNN.seg}: its open channel, the bytes written to it, and
 * how many live runs it holds. Not thread-safe: guarded by the frontier's lock.
 */
final class Segment {
  private static final String PREFIX = "pending-";
  private static final String SUFFIX = ".seg";

  final int id;
  final Path path;
  final FileChannel channel;
  long size;
  /** Live runs in this segment. */
  int runs;
  boolean unsynced;

  private Segment(int id, Path path, FileChannel channel) {
    this.id = id;
    this.path = path;
    this.channel = channel;
  }

  /** The file of segment {@code id} in {@code dir}. */
  static Path path(Path dir, int id) {
    return dir.resolve(String.format("%s%08d%s", PREFIX, id, SUFFIX));
  }

  /** The ids of the segment files in {@code dir}; other files are ignored. */
  static List<Integer> existingIds(Path dir) throws IOException {
    List<Integer> ids = new ArrayList<>();
    try (DirectoryStream<Path> stream = Files.newDirectoryStream(dir, PREFIX + "*" + SUFFIX)) {
      for (Path path : stream) {
        String name = path.getFileName().toString();
        String digits = name.substring(PREFIX.length(), name.length() - SUFFIX.length());
        if (digits.length() == 8 && digits.chars().allMatch(c -> c >= '0' && c <= '9')) {
          ids.add(Integer.parseInt(digits));
        }
      }
    }
    return ids;
  }

  /** Creates segment {@code id} in {@code dir}, empty (truncating a file of that name). */
  static Segment create(Path dir, int id) throws IOException {
    Path path = path(dir, id);
    FileChannel channel =
        FileChannel.open(
            path,
            StandardOpenOption.CREATE,
            StandardOpenOption.TRUNCATE_EXISTING,
            StandardOpenOption.READ,
            StandardOpenOption.WRITE);
    return new Segment(id, path, channel);
  }

  /**
   * Opens segment {@code id} in {@code dir} that a saved state refers to, with the size on disk.
   *
   * @throws IOException naming the file when it is missing
   */
  static Segment open(Path dir, int id) throws IOException {
    Path path = path(dir, id);
    FileChannel channel;
    try {
      channel = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE);
    } catch (NoSuchFileException e) {
      throw new IOException(
          "pending segment " + path + " is missing: the saved frontier state refers to it");
    }
    Segment segment = new Segment(id, path, channel);
    segment.size = channel.size();
    return segment;
  }

  /**
   * Reads {@code bytes} bytes at {@code offset}.
   *
   * @throws UncheckedIOException when the read fails or the file ends first, naming the file and
   *     offset
   */
  byte[] read(long offset, int bytes) {
    byte[] chunk = new byte[bytes];
    ByteBuffer buffer = ByteBuffer.wrap(chunk);
    try {
      while (buffer.hasRemaining()) {
        int n = channel.read(buffer, offset + buffer.position());
        if (n < 0) {
          throw ChunkFormat.corrupt(path, offset,
              "short read: " + buffer.position() + " of " + bytes + " bytes (file truncated?)");
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(
          "pending segment " + path + ": cannot read the chunk at offset " + offset + ": "
              + e.getMessage(), e);
    }
    return chunk;
  }

  /** Writes all of {@code buffer} at {@code at}. */
  void write(ByteBuffer buffer, long at) throws IOException {
    while (buffer.hasRemaining()) {
      at += channel.write(buffer, at);
    }
  }

  /** Makes what was written durable (fsync), if anything was since the last time. */
  void sync() throws IOException {
    if (unsynced) {
      channel.force(false);
      unsynced = false;
    }
  }

  void closeQuietly() {
    try {
      channel.close();
    } catch (IOException e) {
      // Nothing to keep.
    }
  }
}
