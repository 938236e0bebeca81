package dev.sieve.warc;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.zip.CRC32;
import java.util.zip.Deflater;

/**
 * What writing records takes, reused from record to record: a deflater (Sieve's {@link
 * FastDeflate} at level 1, zlib's at 2-9), a CRC-32 and a SHA-1 with their buffers. Borrowed
 * with {@link #borrow} and given back by {@link #close}. A fetch thread's records are written on
 * that thread, and a crawl may have a thousand fetches in flight; a few writers per core are kept
 * instead of one per thread, since a zlib deflater holds ~270 KB of native state, and a few also
 * stay in the CPU caches. Not thread-safe: one borrower at a time.
 */
final class MemberWriter implements AutoCloseable {
  private static final byte[] HEADER = {0x1f, (byte) 0x8b, 8, 0, 0, 0, 0, 0, 0, (byte) 0xff};
  private static final int INITIAL_OUTPUT = 64 * 1024;
  /** An output or input copy grown past this by a large record is dropped when given back. */
  private static final int MAX_KEPT_BUFFER = 1 << 20;
  /** The most bytes a stored deflate block holds (its length field has 16 bits). */
  private static final int MAX_STORED_BLOCK = 65_535;
  /** The level deflated by {@link FastDeflate}; zlib's {@link Deflater} does the others. */
  static final int FAST_LEVEL = 1;
  private static final int KEPT = 2 * Runtime.getRuntime().availableProcessors();
  /** Last in, first out: the writer used last is the one whose state is still in the caches. */
  private static final ArrayDeque<MemberWriter> IDLE = new ArrayDeque<>(KEPT);

  private final FastDeflate fast = new FastDeflate();
  /** zlib's deflater, made when a level other than {@link #FAST_LEVEL} is first asked for. */
  private Deflater deflater;
  private final CRC32 crc = new CRC32();
  private final RecordHeader header = new RecordHeader();
  private final MessageDigest sha1;
  /** A copy of a read-only part, which neither the deflaters nor the CRC read in place. */
  private byte[] copy = new byte[16 * 1024];
  /** What {@link #stored} copies through. */
  private final byte[] chunk = new byte[16 * 1024];
  /** zlib's output buffer, made with {@link #deflater}. */
  private byte[] out;
  /** The records written since the writer was borrowed, for the caller to append to a file. */
  private Output records = new Output(INITIAL_OUTPUT);
  private int level = FAST_LEVEL;

  private MemberWriter() {
    try {
      sha1 = MessageDigest.getInstance("SHA-1");
    } catch (NoSuchAlgorithmException e) {
      throw new AssertionError("every JVM has SHA-1", e);
    }
  }

  /** An idle writer, or a new one when all are in use, deflating at {@code level} (1-9). */
  static MemberWriter borrow(int level) {
    MemberWriter writer;
    synchronized (IDLE) {
      writer = IDLE.pollFirst();
    }
    if (writer == null) {
      writer = new MemberWriter();
    }
    writer.records.reset();
    writer.level = level;
    return writer;
  }

  /** The header of the record being written, reused from record to record. */
  RecordHeader header() {
    return header;
  }

  /** The members written since the writer was borrowed, in order. */
  Output records() {
    return records;
  }

  /**
   * {@code part} itself if its bytes can be read in place, else a copy of its remaining bytes,
   * valid until the next call: a read-only part is copied once, then checksummed and deflated.
   */
  private ByteBuffer readable(ByteBuffer part) {
    if (part.hasArray()) {
      return part;
    }
    int length = part.remaining();
    if (copy.length < length) {
      copy = new byte[Math.max(length, 2 * copy.length)];
    }
    part.duplicate().get(copy, 0, length);
    return ByteBuffer.wrap(copy, 0, length);
  }

  /** The SHA-1 of {@code parts}' remaining bytes in order; their positions are left as they were. */
  byte[] sha1(ByteBuffer... parts) {
    sha1.reset();
    for (ByteBuffer part : parts) {
      sha1.update(part.duplicate());
    }
    return sha1.digest();
  }

  /**
   * Appends to {@link #records} one gzip member holding {@code parts}' remaining bytes in order;
   * their positions are left as they were.
   */
  void member(ByteBuffer... parts) {
    Output sink = records;
    crc.reset();
    long size = 0;
    sink.write(HEADER, 0, HEADER.length);
    if (level == FAST_LEVEL) {
      fast.start();
    } else {
      zlib().reset();
    }
    for (ByteBuffer part : parts) {
      size += part.remaining();
      ByteBuffer bytes = readable(part);
      byte[] array = bytes.array();
      int from = bytes.arrayOffset() + bytes.position();
      int length = bytes.remaining();
      crc.update(array, from, length);
      if (level == FAST_LEVEL) {
        fast.write(array, from, from + length, sink);
      } else {
        deflate(sink, array, from, length);
      }
    }
    if (level == FAST_LEVEL) {
      fast.finish(sink);
    } else {
      deflater.finish();
      while (!deflater.finished()) {
        sink.write(out, 0, deflater.deflate(out));
      }
    }
    writeIntLe(sink, (int) crc.getValue());
    writeIntLe(sink, (int) size);
  }

  private Deflater zlib() {
    if (deflater == null) {
      deflater = new Deflater(level, true);
      out = new byte[64 * 1024];
    } else {
      deflater.setLevel(level);
    }
    return deflater;
  }

  /**
   * Appends to {@link #records} one gzip member holding {@code parts}' remaining bytes in order, stored without
   * compression: for a small record, deflate's fixed cost per member (its trees and state, ~7 us
   * at level 1) is many times that of copying the bytes, and saves only a couple of hundred.
   */
  void stored(ByteBuffer... parts) {
    ByteArrayOutputStream sink = records;
    crc.reset();
    long size = 0;
    for (ByteBuffer part : parts) {
      size += part.remaining();
    }
    sink.write(HEADER, 0, HEADER.length);
    long left = size;
    int partIndex = 0;
    ByteBuffer part = parts.length == 0 ? ByteBuffer.allocate(0) : parts[0].duplicate();
    do {
      int block = (int) Math.min(left, MAX_STORED_BLOCK);
      left -= block;
      sink.write(left == 0 ? 1 : 0); // BFINAL on the last block, BTYPE 00: stored
      sink.write(block);
      sink.write(block >>> 8);
      sink.write(~block);
      sink.write(~block >>> 8);
      for (int remaining = block; remaining > 0; ) {
        while (!part.hasRemaining()) {
          part = parts[++partIndex].duplicate();
        }
        int n = Math.min(remaining, Math.min(chunk.length, part.remaining()));
        part.get(chunk, 0, n);
        crc.update(chunk, 0, n);
        sink.write(chunk, 0, n);
        remaining -= n;
      }
    } while (left > 0);
    writeIntLe(sink, (int) crc.getValue());
    writeIntLe(sink, (int) size);
  }

  private void deflate(ByteArrayOutputStream sink, byte[] bytes, int offset, int length) {
    deflater.setInput(bytes, offset, length);
    while (!deflater.needsInput()) {
      sink.write(out, 0, deflater.deflate(out, 0, out.length, Deflater.NO_FLUSH));
    }
  }

  private static void writeIntLe(ByteArrayOutputStream sink, int value) {
    sink.write(value);
    sink.write(value >>> 8);
    sink.write(value >>> 16);
    sink.write(value >>> 24);
  }

  /** Gives the writer back to be reused, or frees its native state when enough are idle. */
  @Override
  public void close() {
    if (records.capacity() > MAX_KEPT_BUFFER) {
      records = new Output(INITIAL_OUTPUT);
    }
    if (copy.length > MAX_KEPT_BUFFER) {
      copy = new byte[16 * 1024];
    }
    synchronized (IDLE) {
      if (IDLE.size() < KEPT) {
        IDLE.addFirst(this);
        return;
      }
    }
    if (deflater != null) {
      deflater.end();
    }
  }

  /** A byte array output whose array is read in place. */
  static final class Output extends ByteArrayOutputStream {
    Output(int size) {
      super(size);
    }

    /** The array holding the bytes written, valid up to {@link #size()}. */
    byte[] array() {
      return buf;
    }

    int capacity() {
      return buf.length;
    }

    /** The array, grown so that {@code length} more bytes fit after {@link #size()}. */
    byte[] reserve(int length) {
      if (buf.length - count < length) {
        buf = Arrays.copyOf(buf, Math.max(count + length, 2 * buf.length));
      }
      return buf;
    }

    /** Takes the bytes written into {@link #array()} up to {@code size} as written. */
    void advanceTo(int size) {
      count = size;
    }
  }
}
