package dev.sieve.warc;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * A raw deflate stream (RFC 1951) written for speed: LZ77 with one probe of a hash table per
 * position and the fixed Huffman codes (RFC 1951 section 3.2.6), a block falling back to stored
 * when that would be smaller. Any inflater reads it. Against zlib's level 1 it does no hash
 * chains, no lazy matching and no per-block code trees, and skips ahead faster where nothing
 * matches, so it costs about half as much CPU on HTML and a tenth on incompressible bytes,
 * for output ~20% larger on HTML (docs/benchmarks.md has the figures).
 *
 * <p>A stream is {@link #start started}, given bytes any number of times ({@link #write}), each
 * call's bytes matched only against themselves, and {@link #finish finished}. Not thread-safe.
 */
final class FastDeflate {
  private static final VarHandle INT_LE =
      MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle LONG_LE =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final int HASH_BITS = 14;
  private static final int WINDOW = 32 * 1024;
  private static final int MIN_MATCH = 4;
  private static final int MAX_MATCH = 258;
  /** Input per block: a stored block's length field has 16 bits. */
  private static final int BLOCK = 65_535;
  /** Positions without a match before the scan takes longer steps (one more per this many). */
  private static final int SKIP_SHIFT = 5;
  private static final int END_OF_BLOCK = 256;

  /** Fixed code of each literal/length symbol, bit-reversed (deflate sends codes MSB first). */
  private static final int[] SYMBOL_CODE = new int[286];
  private static final int[] SYMBOL_BITS = new int[286];
  /** Per match length: its symbol's code with the extra bits above it, and their bit count. */
  private static final int[] LENGTH_CODE = new int[MAX_MATCH + 1];
  private static final int[] LENGTH_BITS = new int[MAX_MATCH + 1];
  private static final int[] LENGTH_BASE =
      {3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115,
       131, 163, 195, 227, 258};
  private static final int[] LENGTH_EXTRA =
      {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};
  private static final int[] DISTANCE_BASE =
      {1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537,
       2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577};
  private static final int[] DISTANCE_EXTRA =
      {0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12,
       13, 13};
  /** Distance code of distance d: [d - 1] for d <= 256, [256 + ((d - 1) >> 7)] above. */
  private static final byte[] DISTANCE_CODE = new byte[512];

  static {
    for (int symbol = 0; symbol < SYMBOL_CODE.length; symbol++) {
      int code;
      int bits;
      if (symbol < 144) {
        code = 0x30 + symbol;
        bits = 8;
      } else if (symbol < 256) {
        code = 0x190 + symbol - 144;
        bits = 9;
      } else if (symbol < 280) {
        code = symbol - 256;
        bits = 7;
      } else {
        code = 0xc0 + symbol - 280;
        bits = 8;
      }
      SYMBOL_CODE[symbol] = reverse(code, bits);
      SYMBOL_BITS[symbol] = bits;
    }
    for (int c = 0; c < LENGTH_BASE.length; c++) {
      int symbol = 257 + c;
      // 258 has a code of its own (285), though 284's extra bits could also express it.
      int last = c == LENGTH_BASE.length - 1 ? MAX_MATCH : Math.min(LENGTH_BASE[c + 1] - 1, 257);
      for (int length = LENGTH_BASE[c]; length <= last; length++) {
        LENGTH_CODE[length] = SYMBOL_CODE[symbol] | (length - LENGTH_BASE[c]) << SYMBOL_BITS[symbol];
        LENGTH_BITS[length] = SYMBOL_BITS[symbol] + LENGTH_EXTRA[c];
      }
    }
    for (int c = 0, distance = 1; distance <= WINDOW; distance++) {
      if (c + 1 < DISTANCE_BASE.length && DISTANCE_BASE[c + 1] == distance) {
        c++;
      }
      DISTANCE_CODE[distance <= 256 ? distance - 1 : 256 + ((distance - 1) >> 7)] = (byte) c;
    }
  }

  /** Position + {@link #base} of the last place each hash was seen; below base: stale. */
  private final int[] table = new int[1 << HASH_BITS];
  /** What the table's positions are shifted by; raised past all earlier input per write. */
  private int base = 1;
  private byte[] out;
  private int at;
  /** Bits not yet written to {@link #out}, the first in the lowest bit. */
  private long bits;
  private int count;

  /** Starts a new stream. */
  void start() {
    bits = 0;
    count = 0;
  }

  /** Appends {@code in[from, to)} to the stream as one or more blocks, none of them final. */
  void write(byte[] in, int from, int to, MemberWriter.Output sink) {
    if (base > Integer.MAX_VALUE - (to - from) - WINDOW) {
      Arrays.fill(table, 0);
      base = 1;
    }
    int shift = base - from; // a position p is held as p + shift
    for (int start = from; start < to; start += BLOCK) {
      int end = Math.min(to, start + BLOCK);
      out = sink.reserve(8 + (end - start) * 9 / 8 + 16);
      at = sink.size();
      int blockAt = at;
      long blockBits = bits;
      int blockCount = count;
      long storedBits = 3 + 7 + 32 + 8L * (end - start); // header, padding at most, LEN and NLEN
      long budget = storedBits + 8L * blockAt + blockCount; // where the stored block would end
      if (!fixedBlock(in, from, start, end, shift, budget)) {
        at = blockAt;
        bits = blockBits;
        count = blockCount;
        storedBlock(in, start, end);
      }
      sink.advanceTo(at);
    }
    base = shift + to + WINDOW; // nothing later matches this input
  }

  /** Ends the stream with an empty final block and pads it to a whole byte. */
  void finish(MemberWriter.Output sink) {
    out = sink.reserve(16);
    at = sink.size();
    put(0b011, 3); // BFINAL, fixed codes
    put(SYMBOL_CODE[END_OF_BLOCK], SYMBOL_BITS[END_OF_BLOCK]);
    flushToByte();
    sink.advanceTo(at);
  }

  /**
   * One fixed-code block of {@code in[start, end)}, matching back as far as {@code from}; false,
   * leaving it unfinished, when it would end past bit {@code budget} of the output (a stored
   * block would be smaller). Bytes with no match cost 8 or 9 bits for 8: an incompressible
   * block is seen after its scan, which skips ahead ever faster, without writing its literals.
   */
  private boolean fixedBlock(byte[] in, int from, int start, int end, int shift, long budget) {
    put(0b010, 3); // not final, fixed codes
    int i = start;
    int literalsFrom = start;
    int last = end - MIN_MATCH;
    int misses = 0;
    while (i <= last) {
      int word = (int) INT_LE.get(in, i);
      int hash = (word * 0x9E3779B1) >>> (32 - HASH_BITS);
      int candidate = table[hash] - shift;
      table[hash] = i + shift;
      if (candidate >= from && i - candidate <= WINDOW && (int) INT_LE.get(in, candidate) == word) {
        int max = Math.min(MAX_MATCH, end - i);
        int differs = Arrays.mismatch(in, candidate + MIN_MATCH, candidate + max,
            in, i + MIN_MATCH, i + max);
        int length = differs < 0 ? max : MIN_MATCH + differs;
        literals(in, literalsFrom, i);
        match(length, i - candidate);
        i += length;
        literalsFrom = i;
        misses = 0;
      } else {
        i += 1 + (misses++ >> SKIP_SHIFT);
      }
    }
    long ends = 8L * at + count + literalBits(in, literalsFrom, end) + SYMBOL_BITS[END_OF_BLOCK];
    if (ends > budget) {
      return false;
    }
    literals(in, literalsFrom, end);
    put(SYMBOL_CODE[END_OF_BLOCK], SYMBOL_BITS[END_OF_BLOCK]);
    return true;
  }

  /**
   * The bits the fixed codes of the literals {@code in[from, to)} take: 8 each, 9 from 144 up.
   * Eight bytes at a time: a byte is 144 (0x90) or more when its top bit is set and its low
   * seven bits plus 0x70 carry into the top bit, which no byte's sum overflows.
   */
  static long literalBits(byte[] in, int from, int to) {
    long high = 0;
    int i = from;
    for (; i + 8 <= to; i += 8) {
      long word = (long) LONG_LE.get(in, i);
      high += Long.bitCount(word & ((word & 0x7f7f7f7f7f7f7f7fL) + 0x7070707070707070L)
          & 0x8080808080808080L);
    }
    for (; i < to; i++) {
      high += (in[i] & 0xff) >= 144 ? 1 : 0;
    }
    return 8L * (to - from) + high;
  }

  private void literals(byte[] in, int from, int to) {
    for (int i = from; i < to; i++) {
      int b = in[i] & 0xff;
      put(SYMBOL_CODE[b], SYMBOL_BITS[b]);
    }
  }

  private void match(int length, int distance) {
    int code = DISTANCE_CODE[distance <= 256 ? distance - 1 : 256 + ((distance - 1) >> 7)];
    put(LENGTH_CODE[length], LENGTH_BITS[length]);
    put(reverse(code, 5) | (distance - DISTANCE_BASE[code]) << 5, 5 + DISTANCE_EXTRA[code]);
  }

  /** A stored block: its header, then at the next byte LEN, NLEN and the bytes (RFC 1951 3.2.4). */
  private void storedBlock(byte[] in, int start, int end) {
    int length = end - start;
    put(0b000, 3); // not final, stored
    flushToByte();
    out[at++] = (byte) length;
    out[at++] = (byte) (length >>> 8);
    out[at++] = (byte) ~length;
    out[at++] = (byte) (~length >>> 8);
    System.arraycopy(in, start, out, at, length);
    at += length;
  }

  /** Adds the low {@code n} (at most 32) bits of {@code value}, writing each whole 32 bits out. */
  private void put(long value, int n) {
    bits |= value << count;
    count += n;
    if (count >= 32) {
      INT_LE.set(out, at, (int) bits);
      at += 4;
      bits >>>= 32;
      count -= 32;
    }
  }

  /** Writes the bits left, padded with zeros to a whole byte. */
  private void flushToByte() {
    while (count > 0) {
      out[at++] = (byte) bits;
      bits >>>= 8;
      count -= 8;
    }
    bits = 0;
    count = 0;
  }

  private static int reverse(int code, int bits) {
    return Integer.reverse(code) >>> (32 - bits);
  }
}
