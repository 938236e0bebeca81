package dev.sieve.frontier.spill;

import dev.sieve.frontier.Lease;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The compact form of a pending URL: {@code depth, attempt, chain length} as varints, then each
 * redirect-chain URL and the URL itself as a varint length and UTF-8 bytes. The host key is not
 * stored: it is the queue's. About 4 + length bytes per URL against ~150 for a {@link Lease}
 * object graph.
 */
public final class PendingCodec {
  private PendingCodec() {}

  public static byte[] encode(Lease lease) {
    byte[] url = lease.url().getBytes(StandardCharsets.UTF_8);
    List<byte[]> chain = new ArrayList<>(lease.redirectChain().size());
    int size = varintSize(lease.depth()) + varintSize(lease.attempt())
        + varintSize(lease.redirectChain().size()) + varintSize(url.length) + url.length;
    for (String hop : lease.redirectChain()) {
      byte[] bytes = hop.getBytes(StandardCharsets.UTF_8);
      chain.add(bytes);
      size += varintSize(bytes.length) + bytes.length;
    }
    ByteBuffer out = ByteBuffer.allocate(size);
    putVarint(out, lease.depth());
    putVarint(out, lease.attempt());
    putVarint(out, chain.size());
    for (byte[] hop : chain) {
      putVarint(out, hop.length);
      out.put(hop);
    }
    putVarint(out, url.length);
    out.put(url);
    return out.array();
  }

  public static Lease decode(byte[] bytes, String hostKey) {
    return decode(bytes, 0, bytes.length, hostKey);
  }

  /** Decodes the entry in {@code bytes[offset, offset + length)}. */
  static Lease decode(byte[] bytes, int offset, int length, String hostKey) {
    ByteBuffer in = ByteBuffer.wrap(bytes, offset, length);
    int depth = getVarint(in);
    int attempt = getVarint(in);
    int hops = getVarint(in);
    List<String> chain = new ArrayList<>(hops);
    for (int i = 0; i < hops; i++) {
      chain.add(getString(in));
    }
    return new Lease(getString(in), depth, hostKey, attempt, chain);
  }

  private static String getString(ByteBuffer in) {
    int length = getVarint(in);
    String s = new String(in.array(), in.position(), length, StandardCharsets.UTF_8);
    in.position(in.position() + length);
    return s;
  }

  public static int varintSize(int value) {
    int size = 1;
    while ((value & ~0x7f) != 0) {
      value >>>= 7;
      size++;
    }
    return size;
  }

  public static void putVarint(ByteBuffer out, int value) {
    while ((value & ~0x7f) != 0) {
      out.put((byte) ((value & 0x7f) | 0x80));
      value >>>= 7;
    }
    out.put((byte) value);
  }

  /** The varint at {@code bytes[offset]}. */
  public static int readVarint(byte[] bytes, int offset) {
    int value = 0;
    for (int shift = 0; shift < 35; shift += 7) {
      byte b = bytes[offset++];
      value |= (b & 0x7f) << shift;
      if (b >= 0) {
        return value;
      }
    }
    throw new IllegalArgumentException("malformed varint");
  }

  /** Writes {@code value} as a varint at {@code bytes[offset]}; returns the offset after it. */
  public static int writeVarint(byte[] bytes, int offset, int value) {
    while ((value & ~0x7f) != 0) {
      bytes[offset++] = (byte) ((value & 0x7f) | 0x80);
      value >>>= 7;
    }
    bytes[offset++] = (byte) value;
    return offset;
  }

  public static int getVarint(ByteBuffer in) {
    int value = 0;
    for (int shift = 0; shift < 35; shift += 7) {
      byte b = in.get();
      value |= (b & 0x7f) << shift;
      if (b >= 0) {
        return value;
      }
    }
    throw new IllegalArgumentException("malformed varint");
  }

  /** The entries in {@code bytes}, a run of {@code [varint length][entry bytes]}, or -1 if malformed. */
  static int countEntries(byte[] bytes) {
    int found = 0;
    try {
      for (int at = 0; at < bytes.length; found++) {
        int length = readVarint(bytes, at);
        at += varintSize(length) + length;
        if (length < 0 || at > bytes.length) {
          return -1;
        }
      }
    } catch (IllegalArgumentException | ArrayIndexOutOfBoundsException e) {
      return -1;
    }
    return found;
  }
}
