package dev.sieve.bloom;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * A 128-bit hash of a key: MurmurHash3 x64_128 with seed 0 over the key's UTF-8 bytes.
 *
 * <p>The function is fixed and part of the on-disk format ({@link BloomFilter#HASH_ID}): a filter
 * written on one machine answers the same on another. It equals Guava's {@code
 * Hashing.murmur3_128()} over the same bytes (tested), but allocates nothing per call beyond this
 * small value, which escape analysis usually removes. Unpaired surrogates encode as {@code '?'},
 * as {@link String#getBytes(java.nio.charset.Charset)} does.
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
  private static final ThreadLocal<byte[]> BUFFER = ThreadLocal.withInitial(() -> new byte[256]);

  /** Hashes the UTF-8 encoding of {@code key}. */
  public static Hash128 of(CharSequence key) {
    byte[] buffer = BUFFER.get();
    int maxBytes = key.length() * 3;
    if (buffer.length < maxBytes) {
      buffer = new byte[Math.max(maxBytes, buffer.length * 2)];
      BUFFER.set(buffer);
    }
    return of(buffer, 0, encodeUtf8(key, buffer));
  }

  /** Hashes {@code length} bytes of {@code bytes} from {@code offset}. */
  public static Hash128 of(byte[] bytes, int offset, int length) {
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
    return new Hash128(h1, h2);
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

  /** Writes the UTF-8 bytes of {@code s} into {@code out} (which has room for 3 per char). */
  private static int encodeUtf8(CharSequence s, byte[] out) {
    int n = 0;
    int length = s.length();
    for (int i = 0; i < length; i++) {
      char c = s.charAt(i);
      if (c < 0x80) {
        out[n++] = (byte) c;
      } else if (c < 0x800) {
        out[n++] = (byte) (0xc0 | (c >>> 6));
        out[n++] = (byte) (0x80 | (c & 0x3f));
      } else if (Character.isSurrogate(c)) {
        int cp = -1;
        if (Character.isHighSurrogate(c) && i + 1 < length) {
          char low = s.charAt(i + 1);
          if (Character.isLowSurrogate(low)) {
            cp = Character.toCodePoint(c, low);
            i++;
          }
        }
        if (cp < 0) {
          out[n++] = (byte) '?';
        } else {
          out[n++] = (byte) (0xf0 | (cp >>> 18));
          out[n++] = (byte) (0x80 | ((cp >>> 12) & 0x3f));
          out[n++] = (byte) (0x80 | ((cp >>> 6) & 0x3f));
          out[n++] = (byte) (0x80 | (cp & 0x3f));
        }
      } else {
        out[n++] = (byte) (0xe0 | (c >>> 12));
        out[n++] = (byte) (0x80 | ((c >>> 6) & 0x3f));
        out[n++] = (byte) (0x80 | (c & 0x3f));
      }
    }
    return n;
  }
}
