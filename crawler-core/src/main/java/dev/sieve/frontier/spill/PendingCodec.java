package dev.sieve.frontier.spill;

import dev.sieve.frontier.LastFetch;
import dev.sieve.frontier.Lease;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The compact form of a pending URL: {@code depth, attempt, chain length} as varints, then each
 * redirect-chain URL and the URL itself as a varint length and UTF-8 bytes; then, only when the
 * URL has a referrer or a lastmod, a flags byte and those: {@code via} as the length of the prefix
 * it shares with the URL and the rest (varint length and UTF-8 bytes), or nothing when it is the
 * chain's last URL (a redirect's source); {@code lastmod} as zigzag varint epoch seconds and
 * varint nanoseconds. The host key is not stored: it is the queue's. About 4 + length bytes per
 * URL, plus for a link found on its own site the referrer's path, against ~150 for a {@link
 * Lease} object graph. An entry without the trailing part (as written before referrers were kept)
 * reads back with {@code via} and {@code lastmod} null. A recrawled URL's {@link LastFetch} comes
 * last ({@link LastFetchCodec}).
 */
public final class PendingCodec {
  private static final int VIA = 1;
  private static final int VIA_LAST_HOP = 2;
  private static final int LASTMOD = 4;
  private static final int LAST_FETCH = 8;

  private PendingCodec() {}

  public static byte[] encode(Lease lease) {
    byte[] url = lease.url().toString().getBytes(StandardCharsets.UTF_8);
    List<byte[]> chain = new ArrayList<>(lease.redirectChain().size());
    int size = varintSize(lease.depth()) + varintSize(lease.attempt())
        + varintSize(lease.redirectChain().size()) + varintSize(url.length) + url.length;
    for (String hop : lease.redirectChain()) {
      byte[] bytes = hop.getBytes(StandardCharsets.UTF_8);
      chain.add(bytes);
      size += varintSize(bytes.length) + bytes.length;
    }
    int flags = 0;
    byte[] via = null;
    int shared = 0;
    if (lease.via() != null) {
      List<String> hops = lease.redirectChain();
      if (!hops.isEmpty() && hops.get(hops.size() - 1).equals(lease.via())) {
        flags |= VIA_LAST_HOP;
      } else {
        flags |= VIA;
        via = lease.via().getBytes(StandardCharsets.UTF_8);
        shared = sharedPrefix(url, via);
        size += varintSize(shared) + varintSize(via.length - shared) + via.length - shared;
      }
    }
    Instant lastmod = lease.lastmod();
    if (lastmod != null) {
      flags |= LASTMOD;
      size += varlongSize(zigzag(lastmod.getEpochSecond())) + varintSize(lastmod.getNano());
    }
    byte[] last = lease.last() == null ? null : LastFetchCodec.encode(lease.last());
    if (last != null) {
      flags |= LAST_FETCH;
      size += last.length;
    }
    if (flags != 0) {
      size++;
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
    if (flags != 0) {
      out.put((byte) flags);
    }
    if (via != null) {
      putVarint(out, shared);
      putVarint(out, via.length - shared);
      out.put(via, shared, via.length - shared);
    }
    if (lastmod != null) {
      putVarlong(out, zigzag(lastmod.getEpochSecond()));
      putVarint(out, lastmod.getNano());
    }
    if (last != null) {
      out.put(last);
    }
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
    int urlLength = getVarint(in);
    int urlAt = in.position();
    String url = new String(bytes, urlAt, urlLength, StandardCharsets.UTF_8);
    in.position(urlAt + urlLength);
    int flags = in.hasRemaining() ? in.get() : 0;
    String via = null;
    if ((flags & VIA_LAST_HOP) != 0) {
      via = chain.get(chain.size() - 1);
    } else if ((flags & VIA) != 0) {
      int shared = getVarint(in);
      int rest = getVarint(in);
      if (shared > urlLength) {
        throw new IllegalArgumentException("referrer shares more than the URL's " + urlLength
            + " bytes");
      }
      byte[] joined = new byte[shared + rest];
      System.arraycopy(bytes, urlAt, joined, 0, shared);
      in.get(joined, shared, rest);
      via = new String(joined, StandardCharsets.UTF_8);
    }
    Instant lastmod = null;
    if ((flags & LASTMOD) != 0) {
      long seconds = unzigzag(getVarlong(in));
      lastmod = Instant.ofEpochSecond(seconds, getVarint(in));
    }
    LastFetch last = (flags & LAST_FETCH) != 0 ? LastFetchCodec.decode(in) : null;
    return new Lease(Lease.stored(url), depth, hostKey, attempt, chain, via, lastmod, last);
  }

  /** The bytes {@code a} and {@code b} share at their start. */
  private static int sharedPrefix(byte[] a, byte[] b) {
    int n = Math.min(a.length, b.length);
    int i = 0;
    while (i < n && a[i] == b[i]) {
      i++;
    }
    return i;
  }

  static long zigzag(long value) {
    return (value << 1) ^ (value >> 63);
  }

  static long unzigzag(long value) {
    return (value >>> 1) ^ -(value & 1);
  }

  static int varlongSize(long value) {
    int size = 1;
    while ((value & ~0x7fL) != 0) {
      value >>>= 7;
      size++;
    }
    return size;
  }

  static void putVarlong(ByteBuffer out, long value) {
    while ((value & ~0x7fL) != 0) {
      out.put((byte) ((value & 0x7f) | 0x80));
      value >>>= 7;
    }
    out.put((byte) value);
  }

  static long getVarlong(ByteBuffer in) {
    long value = 0;
    for (int shift = 0; shift < 70; shift += 7) {
      byte b = in.get();
      value |= (long) (b & 0x7f) << shift;
      if (b >= 0) {
        return value;
      }
    }
    throw new IllegalArgumentException("malformed varint");
  }

  static String getString(ByteBuffer in) {
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
