package dev.sieve.bloom;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Locale;
import java.util.zip.CRC32C;

/**
 * The bit words of a filter of the family: allocation with a message that names the size, and the
 * serialized form shared by the bit-array layouts (the words big-endian, then a CRC32C of them).
 */
final class FilterWords {
  /** Java arrays hold at most about 2³¹ elements; 2³¹ − 16 words of 64 bits. */
  static final int MAX_WORDS = Integer.MAX_VALUE - 16;

  private static final int CHUNK_BYTES = 64 * 1024;

  private FilterWords() {}

  /**
   * Allocates {@code words} zeroed words for a filter of {@code bits} bits.
   *
   * @throws IllegalArgumentException if the heap cannot hold them; the message names the size
   */
  static long[] allocate(long bits, long words) {
    long bytes = words * Long.BYTES;
    long available = Runtime.getRuntime().maxMemory();
    if (bytes > available) {
      throw new IllegalArgumentException(
          String.format(
              Locale.ROOT,
              "bits (%d) cannot be allocated: %d bytes needed, the heap allows at most %d"
                  + " (raise -Xmx)",
              bits,
              bytes,
              available));
    }
    try {
      return new long[Math.toIntExact(words)];
    } catch (OutOfMemoryError e) {
      throw new IllegalArgumentException(
          "bits (" + bits + ") cannot be allocated: " + bytes + " bytes needed, heap exhausted", e);
    }
  }

  /** Writes {@code words} and then their CRC32C. */
  static void write(long[] words, DataOutputStream out) throws IOException {
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
   * Fills {@code words} from what {@link #write} wrote, checks the CRC32C, and returns the number
   * of bits set in them.
   *
   * @throws IOException if the stream ends early or the checksum does not match; {@code what}
   *     names the filter in the message
   */
  static long read(long[] words, DataInputStream in, String what) throws IOException {
    CRC32C crc = new CRC32C();
    ByteBuffer chunk = ByteBuffer.allocate(CHUNK_BYTES);
    long popCount = 0;
    int i = 0;
    while (i < words.length) {
      int want = (int) Math.min(chunk.capacity(), (long) (words.length - i) * Long.BYTES);
      try {
        in.readFully(chunk.array(), 0, want);
      } catch (EOFException e) {
        throw new IOException(
            "truncated filter: expected " + words.length + " words of bits, stream ended"
                + " within word " + i);
      }
      crc.update(chunk.array(), 0, want);
      chunk.position(0).limit(want);
      while (chunk.hasRemaining()) {
        long word = chunk.getLong();
        popCount += Long.bitCount(word);
        words[i++] = word;
      }
      chunk.clear();
    }
    long storedCrc =
        MembershipFilter.FilterFormat.readField(in, "checksum", DataInputStream::readLong);
    if (storedCrc != crc.getValue()) {
      throw new IOException("corrupt " + what + ": checksum mismatch in the bit words");
    }
    return popCount;
  }
}
