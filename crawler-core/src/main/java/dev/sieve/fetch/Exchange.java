package dev.sieve.fetch;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;

/**
 * One HTTP exchange as it went over the wire, for archiving: the request line and headers as
 * sent, the status line and headers as received, and the body as transferred (transfer-decoded,
 * content-encoding kept). Immutable and thread-safe.
 */
public final class Exchange {
  /** Why the transferred body is incomplete, as WARC's {@code WARC-Truncated} values. */
  public enum Truncation {
    /** The body is complete. */
    NONE,
    /** The body exceeded {@code maxBodyBytes}. */
    LENGTH,
    /** The read or call timeout ended the body read. */
    TIME,
    /** The connection failed during the body read. */
    DISCONNECT
  }

  private final Instant date;
  private final String ip;
  private final byte[] requestHead;
  private final byte[] responseHead;
  private final byte[] payload;
  private final Truncation truncation;

  /** Takes ownership of the arrays; callers must not modify them afterwards. */
  Exchange(Instant date, String ip, byte[] requestHead, byte[] responseHead, byte[] payload,
      Truncation truncation) {
    this.date = date;
    this.ip = ip;
    this.requestHead = requestHead;
    this.responseHead = responseHead;
    this.payload = payload;
    this.truncation = truncation;
  }

  /** When the request was sent. */
  public Instant date() {
    return date;
  }

  /** The remote IP address of the connection, or null when unknown. */
  public String ip() {
    return ip;
  }

  /** The request line and headers as sent, ending with the empty line (CRLF CRLF). */
  public ByteBuffer requestHead() {
    return ByteBuffer.wrap(requestHead).asReadOnlyBuffer();
  }

  /** The status line and headers as received, ending with the empty line (CRLF CRLF). */
  public ByteBuffer responseHead() {
    return ByteBuffer.wrap(responseHead).asReadOnlyBuffer();
  }

  /** The body as transferred (content-encoding kept), at most {@code maxBodyBytes} long. */
  public ByteBuffer payload() {
    return ByteBuffer.wrap(payload).asReadOnlyBuffer();
  }

  /** Reads bytes in place: {@link #readPayload}'s reader. */
  @FunctionalInterface
  public interface BytesReader<T> {
    /** Reads {@code bytes[offset, offset + length)}, which it must neither change nor keep. */
    T read(byte[] bytes, int offset, int length);
  }

  /**
   * Gives {@code reader} the payload's own bytes, without the copy that reading {@link
   * #payload()} into an array takes: for the archive, which digests, checksums and deflates a
   * body of up to {@code maxBodyBytes}. The reader must not change them or keep them past the
   * call.
   */
  public <T> T readPayload(BytesReader<T> reader) {
    return reader.read(payload, 0, payload.length);
  }

  /** Whether and why {@link #payload()} is incomplete. */
  public Truncation truncation() {
    return truncation;
  }

  @Override
  public String toString() {
    String head = new String(responseHead, 0, Math.min(responseHead.length, 40), StandardCharsets.ISO_8859_1);
    int eol = head.indexOf('\r');
    return "Exchange{" + (eol < 0 ? head : head.substring(0, eol)) + ", " + payload.length
        + " bytes" + (truncation == Truncation.NONE ? "" : ", truncated " + truncation) + "}";
  }
}
