package dev.sieve.fetch;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;

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
  private final List<String> protocols;
  private final String cipherSuite;

  /**
   * Takes ownership of the arrays; callers must not modify them afterwards. {@code protocols} are
   * {@link #protocols()}' values, {@code cipherSuite} null without TLS.
   */
  Exchange(Instant date, String ip, byte[] requestHead, byte[] responseHead, byte[] payload,
      Truncation truncation, List<String> protocols, String cipherSuite) {
    this.protocols = List.copyOf(protocols);
    this.cipherSuite = cipherSuite;
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

  /**
   * The protocols of the exchange as WARC's {@code WARC-Protocol} names them, the application's
   * first: {@code h2}, {@code http/1.1} or {@code http/1.0}, then {@code tls/1.3} or {@code
   * tls/1.2} (or older) where TLS carried it.
   */
  public List<String> protocols() {
    return protocols;
  }

  /** The HTTP protocol: {@code h2}, {@code http/1.1} or {@code http/1.0}. */
  public String httpProtocol() {
    return protocols.get(0);
  }

  /** The TLS cipher suite's IANA name ({@code TLS_AES_128_GCM_SHA256}), or null without TLS. */
  public String cipherSuite() {
    return cipherSuite;
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
