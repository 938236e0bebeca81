package dev.sieve.frontier.spill;

import dev.sieve.frontier.LastFetch;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;

/**
 * The compact form of a {@link LastFetch}, the tail of a recrawled URL's {@link PendingCodec}
 * entry: {@code fetches} as a varint, {@code at} as zigzag varint epoch milliseconds, a byte
 * saying which of the rest follow, then each present one: {@code etag}, {@code lastModified} and
 * {@code recordId} as varint length and UTF-8 bytes, {@code recordDate} as zigzag varint epoch
 * milliseconds.
 */
final class LastFetchCodec {
  private static final int ETAG = 1;
  private static final int LAST_MODIFIED = 2;
  private static final int RECORD_ID = 4;
  private static final int RECORD_DATE = 8;

  private LastFetchCodec() {}

  static byte[] encode(LastFetch last) {
    ByteBuffer out = ByteBuffer.allocate(64 + length(last.etag()) + length(last.lastModified())
        + length(last.recordId()));
    PendingCodec.putVarint(out, last.fetches());
    PendingCodec.putVarlong(out, PendingCodec.zigzag(last.at().toEpochMilli()));
    int present = (last.etag() == null ? 0 : ETAG) | (last.lastModified() == null ? 0 : LAST_MODIFIED)
        | (last.recordId() == null ? 0 : RECORD_ID) | (last.recordDate() == null ? 0 : RECORD_DATE);
    out.put((byte) present);
    putString(out, last.etag());
    putString(out, last.lastModified());
    putString(out, last.recordId());
    if (last.recordDate() != null) {
      PendingCodec.putVarlong(out, PendingCodec.zigzag(last.recordDate().toEpochMilli()));
    }
    byte[] bytes = new byte[out.position()];
    out.flip().get(bytes);
    return bytes;
  }

  static LastFetch decode(ByteBuffer in) {
    int fetches = PendingCodec.getVarint(in);
    Instant at = Instant.ofEpochMilli(PendingCodec.unzigzag(PendingCodec.getVarlong(in)));
    int present = in.get();
    String etag = (present & ETAG) != 0 ? PendingCodec.getString(in) : null;
    String lastModified = (present & LAST_MODIFIED) != 0 ? PendingCodec.getString(in) : null;
    String recordId = (present & RECORD_ID) != 0 ? PendingCodec.getString(in) : null;
    Instant recordDate = (present & RECORD_DATE) != 0
        ? Instant.ofEpochMilli(PendingCodec.unzigzag(PendingCodec.getVarlong(in))) : null;
    return new LastFetch(fetches, at, etag, lastModified, recordId, recordDate);
  }

  /** The most bytes {@code value} takes: its UTF-8 (at most 3 per char) and its length. */
  private static int length(String value) {
    return value == null ? 0 : 5 + 3 * value.length();
  }

  private static void putString(ByteBuffer out, String value) {
    if (value != null) {
      byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
      PendingCodec.putVarint(out, bytes.length);
      out.put(bytes);
    }
  }
}
