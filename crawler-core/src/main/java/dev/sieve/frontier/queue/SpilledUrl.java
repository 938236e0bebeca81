package dev.sieve.frontier.queue;

import dev.sieve.frontier.spill.PendingCodec;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The compact form of a pending URL that a queue keeps in its {@link
 * dev.sieve.frontier.spill.PendingQueue} (in memory within the budget, spilled beyond): its due
 * time (8 bytes), the URL (varint length, UTF-8) and the metadata (varint length + 1, 0 for none,
 * then its bytes), then, only when it differs from the due time, the creation date (8 bytes; an
 * entry without it was created when due, as every discovered URL is). About 10 + length bytes per URL against ~170 for a {@link PendingUrl} with its
 * map entry and heap slot.
 */
final class SpilledUrl {
  private SpilledUrl() {}

  static byte[] encode(String url, long due, byte[] metadata, long created) {
    byte[] text = url.getBytes(StandardCharsets.UTF_8);
    int meta = metadata == null ? 0 : metadata.length + 1;
    int dated = created == due ? 0 : 8;
    byte[] out = new byte[8 + PendingCodec.varintSize(text.length) + text.length
        + PendingCodec.varintSize(meta) + Math.max(0, meta - 1) + dated];
    writeLong(out, 0, due);
    int at = PendingCodec.writeVarint(out, 8, text.length);
    System.arraycopy(text, 0, out, at, text.length);
    at = PendingCodec.writeVarint(out, at + text.length, meta);
    if (metadata != null) {
      System.arraycopy(metadata, 0, out, at, metadata.length);
      at += metadata.length;
    }
    if (dated != 0) {
      writeLong(out, at, created);
    }
    return out;
  }

  static PendingUrl decode(byte[] bytes, int offset, int length) {
    long due = readLong(bytes, offset);
    int urlLength = PendingCodec.readVarint(bytes, offset + 8);
    int at = offset + 8 + PendingCodec.varintSize(urlLength);
    String url = new String(bytes, at, urlLength, StandardCharsets.UTF_8);
    at += urlLength;
    int meta = PendingCodec.readVarint(bytes, at);
    at += PendingCodec.varintSize(meta);
    byte[] metadata = meta == 0 ? null : Arrays.copyOfRange(bytes, at, at + meta - 1);
    at += Math.max(0, meta - 1);
    long created = due;
    if (at + 8 == offset + length) {
      created = readLong(bytes, at);
    } else if (at != offset + length) {
      throw new IllegalArgumentException("a pending URL entry of " + length + " bytes is malformed");
    }
    return new PendingUrl(url, due, metadata, created);
  }

  private static void writeLong(byte[] out, int at, long value) {
    for (int i = 0; i < 8; i++) {
      out[at + i] = (byte) (value >>> (56 - 8 * i));
    }
  }

  private static long readLong(byte[] bytes, int at) {
    long value = 0;
    for (int i = 0; i < 8; i++) {
      value = (value << 8) | (bytes[at + i] & 0xff);
    }
    return value;
  }

  /** Whether the entry at {@code bytes[offset]} holds the URL whose UTF-8 bytes are {@code url}. */
  static boolean holds(byte[] bytes, int offset, byte[] url) {
    int urlLength = PendingCodec.readVarint(bytes, offset + 8);
    int at = offset + 8 + PendingCodec.varintSize(urlLength);
    return urlLength == url.length && Arrays.equals(bytes, at, at + urlLength, url, 0, url.length);
  }
}
