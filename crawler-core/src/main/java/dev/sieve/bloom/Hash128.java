package dev.sieve.bloom;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.CharBuffer;
import java.nio.charset.CharsetEncoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * A 128-bit hash of a key: MurmurHash3 x64_128 with seed 0 over the key's UTF-8 bytes.
 *
 * <p>The function is fixed and part of the on-disk format ({@link BloomFilter#HASH_ID}): a filter
 * written on one machine answers the same on another. It equals Guava's {@code
 * Hashing.murmur3_128()} over the same bytes (tested), but allocates nothing per call beyond this
 * small value, which escape analysis removes when the JIT inlines {@code of} into the caller
 * (measured 0 B/op for {@code filter.put(Hash128.of(bytes, off, len))}; the filters' {@code
 * put(CharSequence)} do not depend on it). Unpaired surrogates encode as {@code '?'}, as {@link
 * String#getBytes(java.nio.charset.Charset)} does.
 *
 * <p>XXH3-128 (zero-allocation-hashing) was measured against this Murmur3 and kept out: 1.2–1.3×
 * faster on the bytes of an 85-byte URL (29 against 37 ns in JMH, 3 forks), which is about 8 ns of
 * a String's 45–60 ns hash and under 3% of an operation on a 10⁸-key filter, where one memory miss
 * dominates; not worth a new on-disk hash id and a runtime dependency (bench/RESULTS-bloom.md).
 *
 * <p>Compute a key's hash once and pass it to every filter operation that needs it.
 *
 * @param h1 the first 64 bits
 * @param h2 the second 64 bits
 */
public record Hash128(long h1, long h2) {
  private static final long C1 = 0x87c37b91114253d5L;
  private static final long C2 = 0x4cf5ad432745937fL;
  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final ThreadLocal<Utf8Buffer> BUFFER = ThreadLocal.withInitial(Utf8Buffer::new);

  /** Hashes the UTF-8 encoding of {@code key}. */
  public static Hash128 of(CharSequence key) {
    long[] hash = utf8(key);
    return new Hash128(hash[0], hash[1]);
  }

  /**
   * Hashes the UTF-8 encoding of {@code key} into this thread's pair {h1, h2} and returns it; read
   * it before hashing again on this thread. The filters' {@code put(CharSequence)} use this: it
   * allocates nothing even where the JIT declines to inline {@link #of(CharSequence)}.
   */
  static long[] utf8(CharSequence key) {
    return BUFFER.get().hash(key);
  }

  /**
   * Hashes {@code length} bytes of {@code bytes} from {@code offset}. Allocation-free once inlined:
   * the work happens in a separate method that writes into a per-thread pair, and this small one,
   * inlined into the caller, lets escape analysis drop the record.
   */
  public static Hash128 of(byte[] bytes, int offset, int length) {
    long[] hash = BUFFER.get().hash;
    murmur3(bytes, offset, length, hash);
    return new Hash128(hash[0], hash[1]);
  }

  /** Murmur3 x64_128 of the bytes into {@code out[0]} (h1) and {@code out[1]} (h2). */
  private static void murmur3(byte[] bytes, int offset, int length, long[] out) {
    out[0] = murmur3(bytes, offset, length, out, 1);
  }

  /**
   * Murmur3 x64_128 of the bytes: returns h1 and stores h2 at {@code h2s[index]}, so that a batch
   * is hashed straight into its arrays.
   */
  static long murmur3(byte[] bytes, int offset, int length, long[] h2s, int index) {
    long h1 = 0;
    long h2 = 0;
    int blocks = length >>> 4;
    for (int i = 0; i < blocks; i++) {
      int at = offset + (i << 4);
      long k1 = (long) LONGS.get(bytes, at);
      long k2 = (long) LONGS.get(bytes, at + 8);
      h1 ^= mixK1(k1);
      h1 = Long.rotateLeft(h1, 27) + h2;
      h1 = h1 * 5 + 0x52dce729;
      h2 ^= mixK2(k2);
      h2 = Long.rotateLeft(h2, 31) + h1;
      h2 = h2 * 5 + 0x38495ab5;
    }
    int tail = offset + (blocks << 4);
    int rest = length & 15;
    long k1 = 0;
    long k2 = 0;
    for (int i = rest - 1; i >= 8; i--) {
      k2 = (k2 << 8) | (bytes[tail + i] & 0xffL);
    }
    for (int i = Math.min(rest, 8) - 1; i >= 0; i--) {
      k1 = (k1 << 8) | (bytes[tail + i] & 0xffL);
    }
    if (rest > 8) {
      h2 ^= mixK2(k2);
    }
    if (rest > 0) {
      h1 ^= mixK1(k1);
    }
    h1 ^= length;
    h2 ^= length;
    h1 += h2;
    h2 += h1;
    h1 = fmix64(h1);
    h2 = fmix64(h2);
    h1 += h2;
    h2 += h1;
    h2s[index] = h2;
    return h1;
  }

  private static long mixK1(long k1) {
    return Long.rotateLeft(k1 * C1, 31) * C2;
  }

  private static long mixK2(long k2) {
    return Long.rotateLeft(k2 * C2, 33) * C1;
  }

  private static long fmix64(long k) {
    k ^= k >>> 33;
    k *= 0xff51afd7ed558ccdL;
    k ^= k >>> 33;
    k *= 0xc4ceb9fe1a85ec53L;
    k ^= k >>> 33;
    return k;
  }

  /**
   * A thread's reusable buffers for UTF-8 encoding and the hash result: the JDK's encoder copies
   * ASCII runs with an intrinsic, about 2.5× faster than a per-char loop for URLs, and allocates
   * nothing once the buffers are large enough.
   */
  private static final class Utf8Buffer {
    private final CharsetEncoder encoder =
        StandardCharsets.UTF_8
            .newEncoder()
            .onMalformedInput(CodingErrorAction.REPLACE)
            .onUnmappableCharacter(CodingErrorAction.REPLACE);
    /** The last hash computed on this thread: {h1, h2}. */
    final long[] hash = new long[2];
    private char[] chars = new char[0];
    private byte[] bytes = new byte[0];
    private CharBuffer charView;
    private ByteBuffer byteView;

    Utf8Buffer() {
      ensureCapacity(128);
    }

    /**
     * Hashes the UTF-8 encoding of {@code key} into {@link #hash} and returns it. The work is here
     * rather than in {@link Hash128#of(CharSequence)} so that that one stays small enough for the
     * JIT to inline into callers, which is what lets escape analysis drop the record.
     */
    long[] hash(CharSequence key) {
      int length = encode(key); // first: it may replace the buffers
      murmur3(bytes, 0, length, hash);
      return hash;
    }

    /** Encodes {@code key} into {@link #bytes} and returns the byte count. */
    int encode(CharSequence key) {
      int length = key.length();
      ensureCapacity(length);
      if (key instanceof String) {
        ((String) key).getChars(0, length, chars, 0);
      } else {
        for (int i = 0; i < length; i++) {
          chars[i] = key.charAt(i);
        }
      }
      charView.clear().limit(length);
      byteView.clear();
      encoder.reset();
      // Cannot overflow: 3 bytes per char is UTF-8's worst case. Malformed input is replaced.
      encoder.encode(charView, byteView, true);
      encoder.flush(byteView);
      return byteView.position();
    }

    private void ensureCapacity(int length) {
      if (chars.length < length) {
        int capacity = Math.max(length, 2 * chars.length);
        chars = new char[capacity];
        bytes = new byte[3 * capacity];
        charView = CharBuffer.wrap(chars);
        byteView = ByteBuffer.wrap(bytes);
      }
    }
  }
}
