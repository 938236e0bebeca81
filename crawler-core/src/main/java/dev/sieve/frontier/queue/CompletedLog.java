package dev.sieve.frontier.queue;

import dev.sieve.frontier.spill.PendingCodec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The URLs a crawl completed, as strings on disk so that the heap keeps only the Sieve's bits: an
 * append-only file of records (the queue's salt, 4 bytes; the URL, varint length and UTF-8), one
 * per completion, walked by ListURLs and CountURLs. Appends go through a small buffer, written out
 * before every read; {@link #sync} forces the file to disk and gives its length, which a checkpoint
 * keeps and a restart {@link #open}s it back to. Not thread-safe: guarded by its crawl's lock.
 */
final class CompletedLog {
  private static final int BUFFER_BYTES = 1 << 16;

  private final Path file;
  private final FileChannel channel;
  private final ByteBuffer buffer = ByteBuffer.allocate(BUFFER_BYTES);
  /** Bytes in the file, not counting the buffer. */
  private long written;

  private CompletedLog(Path file, FileChannel channel, long written) {
    this.file = file;
    this.channel = channel;
    this.written = written;
  }

  /**
   * Opens {@code file} (created if missing) cut back to {@code length} bytes: what a checkpoint
   * saw, so that the changes replayed after it append their completions once.
   *
   * @throws UncheckedIOException naming the file, also when it is shorter than {@code length}
   */
  static CompletedLog open(Path file, long length) {
    try {
      FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE,
          StandardOpenOption.READ, StandardOpenOption.WRITE);
      if (channel.size() < length) {
        long size = channel.size();
        channel.close();
        throw new IOException("it has " + size + " bytes, fewer than the " + length
            + " its checkpoint holds: the state directory is damaged");
      }
      channel.truncate(length);
      return new CompletedLog(file, channel, length);
    } catch (IOException e) {
      throw failure("open", file, e);
    }
  }

  Path file() {
    return file;
  }

  /** Records that {@code url} of the queue of salt {@code salt} was completed. */
  void append(int salt, String url) {
    byte[] text = url.getBytes(StandardCharsets.UTF_8);
    int size = 4 + PendingCodec.varintSize(text.length) + text.length;
    if (buffer.remaining() < size) {
      flush();
    }
    if (buffer.remaining() < size) {
      write(ByteBuffer.wrap(record(salt, text, size)));
      return;
    }
    buffer.putInt(salt);
    PendingCodec.putVarint(buffer, text.length);
    buffer.put(text);
  }

  private static byte[] record(int salt, byte[] text, int size) {
    ByteBuffer out = ByteBuffer.allocate(size);
    out.putInt(salt);
    PendingCodec.putVarint(out, text.length);
    return out.put(text).array();
  }

  /** Writes the buffer out and forces the file to disk; returns its length. */
  long sync() {
    flush();
    try {
      channel.force(false);
    } catch (IOException e) {
      throw failure("sync", file, e);
    }
    return written;
  }

  /** Receives records in file order. */
  interface Visitor {
    /** One record; returns false to stop after it. */
    boolean visit(int salt, String url);
  }

  /**
   * Hands {@code visitor} the records from byte {@code offset} (0, or a value this returned) on,
   * until it says stop or the records end.
   *
   * @return the offset after the last record visited
   */
  long read(long offset, Visitor visitor) {
    flush();
    ByteBuffer block = ByteBuffer.allocate(BUFFER_BYTES);
    long at = offset;
    try {
      while (at < written) {
        block.clear();
        block.limit((int) Math.min(block.capacity(), written - at));
        readFully(block, at);
        block.flip();
        int consumed = 0;
        while (block.remaining() >= 5) {
          int start = block.position();
          int salt = block.getInt();
          int length = varint(block);
          if (length < 0 || block.remaining() < length) {
            block.position(start);
            break;
          }
          String url = new String(block.array(), block.position(), length, StandardCharsets.UTF_8);
          block.position(block.position() + length);
          consumed = block.position();
          if (!visitor.visit(salt, url)) {
            return at + consumed;
          }
        }
        if (consumed == 0) {
          if (written - at <= block.capacity()) {
            return at; // a record cut off at the end: none
          }
          block = ByteBuffer.allocate(block.capacity() * 2); // a record longer than the block
        }
        at += consumed;
      }
      return at;
    } catch (IOException e) {
      throw failure("read", file, e);
    }
  }

  /** The varint at the buffer's position, or -1 if it is cut off. */
  private static int varint(ByteBuffer in) {
    int value = 0;
    for (int shift = 0; shift < 35 && in.hasRemaining(); shift += 7) {
      byte b = in.get();
      value |= (b & 0x7f) << shift;
      if (b >= 0) {
        return value;
      }
    }
    return -1;
  }

  private void readFully(ByteBuffer block, long at) throws IOException {
    long position = at;
    while (block.hasRemaining()) {
      int n = channel.read(block, position);
      if (n < 0) {
        throw new IOException("ends at " + position + " bytes, " + written + " expected");
      }
      position += n;
    }
  }

  private void flush() {
    if (buffer.position() > 0) {
      buffer.flip();
      write(buffer);
      buffer.clear();
    }
  }

  private void write(ByteBuffer bytes) {
    try {
      while (bytes.hasRemaining()) {
        written += channel.write(bytes, written);
      }
    } catch (IOException e) {
      throw failure("write", file, e);
    }
  }

  /** Closes and deletes the file (its crawl was deleted). */
  void delete() {
    try {
      channel.close();
      Files.deleteIfExists(file);
    } catch (IOException e) {
      throw failure("delete", file, e);
    }
  }

  /** Closes the file, writing the buffer out. */
  void close() {
    try {
      flush();
      channel.close();
    } catch (IOException e) {
      throw failure("close", file, e);
    }
  }

  private static UncheckedIOException failure(String what, Path file, IOException e) {
    return new UncheckedIOException("cannot " + what + " the completed-URL log " + file + ": "
        + e.getMessage(), e);
  }
}
