package dev.sieve.bench;

/**
 * A chunk of realistic URL keys of 40–120 ASCII characters, distinct per (stream, index), written
 * as bytes side by side in one array, so that a benchmark can make them before its stopwatch
 * starts and hand every filter the same bytes. Reused chunk after chunk: allocates nothing once
 * grown.
 */
final class SyntheticKeys {
  private static final byte[][] SECTIONS = ascii(
      "news", "blog/2024", "products/category", "wiki", "forum/thread", "docs/reference/api",
      "shop/items", "en/articles");
  private static final byte[] PREFIX = ascii("https://www.site")[0];
  private static final byte[] DOMAIN = ascii(".example.com/")[0];
  private static final byte[] ITEM = ascii("/item-")[0];
  private static final byte[] SUFFIX = ascii(".html")[0];
  private static final byte[] QUERY = ascii("?utm_source=feed&page=")[0];

  private byte[] bytes = new byte[1 << 16];
  private int[] starts = new int[1025];
  private int count;
  private int end;

  /** Empties the chunk. */
  void clear() {
    count = 0;
    end = 0;
  }

  /** The number of keys in the chunk. */
  int count() {
    return count;
  }

  /** The bytes every key is in. */
  byte[] bytes() {
    return bytes;
  }

  /** Where key {@code i} starts in {@link #bytes()}. */
  int offset(int i) {
    return starts[i];
  }

  /** The length of key {@code i} in bytes. */
  int length(int i) {
    return starts[i + 1] - starts[i];
  }

  /** Appends the key {@code (stream, index)}. */
  void add(int stream, long index) {
    if (count + 2 > starts.length) {
      starts = java.util.Arrays.copyOf(starts, 2 * starts.length);
    }
    if (end + 256 > bytes.length) {
      bytes = java.util.Arrays.copyOf(bytes, 2 * bytes.length);
    }
    long mixed = mix(index * 31 + stream);
    starts[count] = end;
    put(PREFIX);
    decimal((mixed >>> 8) % 5000);
    put(DOMAIN);
    put(SECTIONS[(int) (mixed & 7)]);
    bytes[end++] = '/';
    decimal(stream);
    put(ITEM);
    decimal(index);
    bytes[end++] = '-';
    hex(mixed >>> 44);
    put(SUFFIX);
    if ((mixed & 0x100) != 0) {
      put(QUERY);
      decimal((mixed >>> 20) & 63);
    }
    starts[++count] = end;
  }

  /** Key {@code i} as a String, for messages. */
  String toString(int i) {
    return new String(bytes, offset(i), length(i), java.nio.charset.StandardCharsets.US_ASCII);
  }

  private void put(byte[] text) {
    System.arraycopy(text, 0, bytes, end, text.length);
    end += text.length;
  }

  private void decimal(long value) {
    int digits = 1;
    for (long rest = value / 10; rest > 0; rest /= 10) {
      digits++;
    }
    for (int i = end + digits - 1; i >= end; i--) {
      bytes[i] = (byte) ('0' + value % 10);
      value /= 10;
    }
    end += digits;
  }

  private void hex(long value) {
    int digits = Math.max(1, (Long.SIZE - Long.numberOfLeadingZeros(value) + 3) / 4);
    for (int i = end + digits - 1; i >= end; i--) {
      bytes[i] = (byte) Character.forDigit((int) (value & 15), 16);
      value >>>= 4;
    }
    end += digits;
  }

  private static long mix(long z) {
    z = (z ^ (z >>> 33)) * 0xff51afd7ed558ccdL;
    z = (z ^ (z >>> 33)) * 0xc4ceb9fe1a85ec53L;
    return z ^ (z >>> 33);
  }

  private static byte[][] ascii(String... texts) {
    byte[][] out = new byte[texts.length][];
    for (int i = 0; i < texts.length; i++) {
      out[i] = texts[i].getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    }
    return out;
  }
}
