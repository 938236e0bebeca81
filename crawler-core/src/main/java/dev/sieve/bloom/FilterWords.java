package dev.sieve.bloom;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Locale;
import java.util.zip.CRC32C;

/**
 * The word table of the filter variants: allocation against the heap, and the checksummed
 * serialized form (the words big-endian, then a CRC32C of their bytes), as {@link BloomFilter}
 * writes its bits.
 */
final class FilterWords {
  /** Java arrays hold at most about 2³¹ elements; 2³¹ − 16 words of 64 bits. */
  static final long MAX_WORDS = Integer.MAX_VALUE - 16L;

  private static final int CHUNK_BYTES = 64 * 1024;

  private FilterWords() {}

  /**
   * Allocates the words for {@code bits} bits of table.
   *
   * @param what names the table in the message, e.g. "counters (1000)"
   * @throws IllegalArgumentException if the table is too large for an array or the heap
   */
  static long[] allocate(long bits, String what) {
    long words = (bits + 63) >>> 6;
    if (bits <= 0 || words > MAX_WORDS) {
      throw new IllegalArgumentException(
          what + " needs " + bits + " bits, outside [1, " + MAX_WORDS * Long.SIZE + "]");
    }
    long bytes = words * Long.BYTES;
    long available = Runtime.getRuntime().maxMemory();
    if (bytes > available) {
      throw new IllegalArgumentException(
          String.format(
              Locale.ROOT,
              "%s cannot be allocated: %d bytes needed, the heap allows at most %d (raise -Xmx)",
              what,
              bytes,
              available));
    }
    try {
      return new long[(int) words];
    } catch (OutOfMemoryError e) {
      throw new IllegalArgumentException(
          what + " cannot be allocated: " + bytes + " bytes needed, heap exhausted", e);
    }
  }

  /** The number of bits set in {@code words}. */
  static long popCount(long[] words) {
    long count = 0;
    for (long word : words) {
      count += Long.bitCount(word);
    }
    return count;
  }

  /** Writes {@code words} and then their CRC32C. */
  static void write(DataOutputStream out, long[] words) throws IOException {
    CRC32C crc = new CRC32C();
    ByteBuffer chunk = ByteBuffer.allocate(CHUNK_BYTES);
    for (long word : words) {
      if (!chunk.hasRemaining()) {
        flush(chunk, crc, out);
      }
      chunk.putLong(word);
    }
    flush(chunk, crc, out);
    out.writeLong(crc.getValue());
  }

  private static void flush(ByteBuffer chunk, CRC32C crc, DataOutputStream out)
      throws IOException {
    crc.update(chunk.array(), 0, chunk.position());
    out.write(chunk.array(), 0, chunk.position());
    chunk.clear();
  }

  /**
   * Fills {@code words} from the stream and checks the CRC32C that follows them.
   *
   * @param what names the filter in messages, e.g. "counting filter"
   * @throws IOException if the stream ends early ("truncated filter: …") or the checksum fails
   *     ("corrupt …: checksum mismatch …")
   */
  static void read(DataInputStream in, long[] words, String what) throws IOException {
    CRC32C crc = new CRC32C();
    ByteBuffer chunk = ByteBuffer.allocate(CHUNK_BYTES);
    int i = 0;
    while (i < words.length) {
      int want = (int) Math.min(chunk.capacity(), (long) (words.length - i) * Long.BYTES);
      try {
        in.readFully(chunk.array(), 0, want);
      } catch (EOFException e) {
        throw new IOException(
            "truncated filter: expected " + words.length + " words of " + what
                + " table, stream ended within word " + i);
      }
      crc.update(chunk.array(), 0, want);
      chunk.position(0).limit(want);
      while (chunk.hasRemaining()) {
        words[i++] = chunk.getLong();
      }
      chunk.clear();
    }
    long stored =
        MembershipFilter.FilterFormat.readField(in, "checksum", DataInputStream::readLong);
    if (stored != crc.getValue()) {
      throw new IOException("corrupt " + what + ": checksum mismatch in the table words");
    }
  }
}
