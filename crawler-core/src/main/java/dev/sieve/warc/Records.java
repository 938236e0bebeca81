package dev.sieve.warc;

import com.google.common.net.InetAddresses;
import dev.sieve.fetch.Exchange;
import dev.sieve.fetch.Sha1;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.netpreserve.jwarc.MediaType;
import org.netpreserve.jwarc.MessageBody;
import org.netpreserve.jwarc.MessageVersion;
import org.netpreserve.jwarc.WarcRevisit;
import org.netpreserve.jwarc.Warcinfo;

/**
 * The WARC records of a file's start (built by jwarc) and of one exchange (headers written as
 * jwarc writes them, see {@link RecordHeader}), each gzipped as a member of its own. Stateless
 * and thread-safe.
 */
final class Records {
  private static final byte[] END = "\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1);
  private static final String SHA1 = "sha1:";
  private static final String HTTP_REQUEST = MediaType.HTTP_REQUEST.toString();
  private static final String HTTP_RESPONSE = MediaType.HTTP_RESPONSE.toString();
  private static final byte[] TRANSFER_ENCODING =
      "transfer-encoding:".getBytes(StandardCharsets.ISO_8859_1);
  /** What a stored {@code Transfer-Encoding} header is renamed to: the body is de-chunked. */
  static final String KEPT_TRANSFER_ENCODING = "X-Sieve-Transfer-Encoding";

  /**
   * A request and its response (or revisit), gzipped into a writer's {@link
   * MemberWriter#records()}: where the response starts there, its record ID and date.
   */
  record Pair(int responseOffset, UUID responseId, Instant date) {}

  private Records() {}

  /** The warcinfo record that starts file {@code filename}, with {@code info}'s fields. */
  static byte[] warcinfo(WarcSettings settings, Map<String, String> info, String filename,
      Instant date) {
    Map<String, List<String>> fields = new LinkedHashMap<>();
    fields.put("software", List.of(settings.software));
    fields.put("format", List.of("WARC File Format 1.1"));
    fields.put("conformsTo",
        List.of("http://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/"));
    fields.put("hostname", List.of(settings.host));
    info.forEach((name, value) -> fields.put(name, List.of(value)));
    Warcinfo record = new Warcinfo.Builder()
        .version(MessageVersion.WARC_1_1)
        .date(date.truncatedTo(ChronoUnit.SECONDS))
        .filename(filename)
        .fields(fields)
        .build();
    byte[] block = readAll(record.body());
    try (MemberWriter writer = MemberWriter.borrow(settings.gzipLevel)) {
      writer.member(ByteBuffer.wrap(record.serializeHeader()), ByteBuffer.wrap(block), end());
      return writer.records().toByteArray();
    }
  }

  /**
   * The request and response records of {@code exchange} for {@code url}, or request and revisit
   * when {@code original} (the first response with the same payload) is given. Their headers are
   * the bytes jwarc's builders write (see {@link RecordHeader}).
   */
  static Pair exchange(MemberWriter writer, String url, Exchange exchange, String payloadSha1,
      Digests.Original original) {
    return exchange(writer, url, exchange, payloadSha1, original, false);
  }

  /**
   * {@link #exchange(MemberWriter, String, Exchange, String, Digests.Original)}; when {@code
   * notModified}, the exchange is a {@code 304} to a conditional request and is written as a
   * request and a revisit with the server-not-modified profile (the 304's head as its block, no
   * payload digest) referring to {@code original}, the last response of the URL (its record ID
   * omitted when null).
   */
  static Pair exchange(MemberWriter writer, String url, Exchange exchange, String payloadSha1,
      Digests.Original original, boolean notModified) {
    Instant date = exchange.date().truncatedTo(ChronoUnit.SECONDS);
    UUID requestId = UUID.randomUUID();
    UUID responseId = UUID.randomUUID();
    String ip = address(exchange.ip());
    ByteBuffer requestBlock = exchange.requestHead();
    ByteBuffer responseHead = ByteBuffer.wrap(keepTransferEncoding(bytes(exchange.responseHead())));
    // The body is read in place, never copied: digested, then deflated. Nothing here writes to
    // it, and nothing keeps it past this call.
    ByteBuffer payload = original == null
        ? exchange.readPayload(ByteBuffer::wrap)
        : ByteBuffer.allocate(0);
    RecordHeader header = writer.header();

    // Fields in jwarc's order: by name, ignoring case.
    String cipherSuite = exchange.cipherSuite();
    header.start()
        .field("Content-Length", requestBlock.remaining())
        .field("Content-Type", HTTP_REQUEST)
        .field("WARC-Block-Digest", SHA1 + Sha1.encode(writer.sha1(requestBlock)));
    if (cipherSuite != null) {
      header.field("WARC-Cipher-Suite", cipherSuite);
    }
    header.field("WARC-Concurrent-To", responseId)
        .field("WARC-Date", date);
    if (ip != null) {
      header.field("WARC-IP-Address", ip);
    }
    protocols(header, exchange);
    header.field("WARC-Record-ID", requestId)
        .field("WARC-Target-URI", url)
        .field("WARC-Type", "request");
    // A request record is a few hundred bytes: stored, not deflated (see MemberWriter#stored).
    writer.stored(header.end(), requestBlock, end());

    header.start()
        .field("Content-Length", (long) responseHead.remaining() + payload.remaining())
        .field("Content-Type", HTTP_RESPONSE)
        .field("WARC-Block-Digest", SHA1 + Sha1.encode(writer.sha1(responseHead, payload)));
    if (cipherSuite != null) {
      header.field("WARC-Cipher-Suite", cipherSuite);
    }
    header.field("WARC-Concurrent-To", requestId)
        .field("WARC-Date", date);
    if (ip != null) {
      header.field("WARC-IP-Address", ip);
    }
    if (!notModified) {
      header.field("WARC-Payload-Digest", SHA1 + payloadSha1);
    }
    if (original != null) {
      header.field("WARC-Profile", (notModified
          ? WarcRevisit.SERVER_NOT_MODIFIED_1_1 : WarcRevisit.IDENTICAL_PAYLOAD_DIGEST_1_1).toString());
    }
    protocols(header, exchange);
    header.field("WARC-Record-ID", responseId);
    if (original != null) {
      if (original.recordId() != null) {
        header.field("WARC-Refers-To", original.recordId());
      }
      header.field("WARC-Refers-To-Date", original.date())
          .field("WARC-Refers-To-Target-URI", original.url());
    }
    header.field("WARC-Target-URI", url);
    String truncated = truncation(exchange.truncation());
    if (truncated != null) {
      header.field("WARC-Truncated", truncated);
    }
    header.field("WARC-Type", original == null ? "response" : "revisit");
    int responseOffset = writer.records().size();
    writer.member(header.end(), responseHead, payload, end());
    return new Pair(responseOffset, responseId, date);
  }

  /**
   * One {@code WARC-Protocol} field per protocol of the exchange ({@code h2}, then {@code
   * tls/1.3}), as the WARC-Protocol proposal (iipc/warc-specifications#42) writes them.
   */
  private static void protocols(RecordHeader header, Exchange exchange) {
    for (String protocol : exchange.protocols()) {
      header.field("WARC-Protocol", protocol);
    }
  }

  /** The {@code WARC-Truncated} value of {@code truncation}, or null for a whole body. */
  private static String truncation(Exchange.Truncation truncation) {
    return switch (truncation) {
      case NONE -> null;
      case LENGTH -> "length";
      case TIME -> "time";
      case DISCONNECT -> "disconnect";
    };
  }

  /**
   * Renames a {@code Transfer-Encoding} header: the stored body is de-chunked, and a reader
   * seeing {@code chunked} would try to de-chunk it again. Nothing else in the head changes.
   */
  static byte[] keepTransferEncoding(byte[] head) {
    StringBuilder renamed = null;
    int lineStart = 0;
    for (int i = 0; i < head.length; i++) {
      if (head[i] == '\n') {
        lineStart = i + 1;
      } else if (i == lineStart && startsWithIgnoreCase(head, i, TRANSFER_ENCODING)) {
        if (renamed == null) {
          renamed = new StringBuilder(new String(head, StandardCharsets.ISO_8859_1));
        }
        int shift = renamed.length() - head.length;
        renamed.replace(i + shift, i + shift + "Transfer-Encoding".length(), KEPT_TRANSFER_ENCODING);
      }
    }
    return renamed == null ? head : renamed.toString().getBytes(StandardCharsets.ISO_8859_1);
  }

  private static boolean startsWithIgnoreCase(byte[] bytes, int at, byte[] prefix) {
    if (bytes.length - at < prefix.length) {
      return false;
    }
    for (int i = 0; i < prefix.length; i++) {
      if (Character.toLowerCase((char) bytes[at + i]) != prefix[i]) {
        return false;
      }
    }
    return true;
  }

  /**
   * {@code ip} as jwarc writes an address: IPv4 as given (a connection's dotted quad), IPv6 in
   * its compressed form (RFC 5952); null when there is none or it is not an address.
   */
  static String address(String ip) {
    if (ip == null || ip.indexOf(':') < 0) {
      return ip;
    }
    try {
      return InetAddresses.toAddrString(InetAddresses.forString(ip));
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  private static byte[] bytes(ByteBuffer buffer) {
    byte[] out = new byte[buffer.remaining()];
    buffer.get(out);
    return out;
  }

  /** The blank line that ends each record, as a buffer of its own. */
  private static ByteBuffer end() {
    return ByteBuffer.wrap(END);
  }

  /** The whole body of a record built in memory. */
  private static byte[] readAll(MessageBody body) {
    try {
      return body.stream().readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e); // in memory: cannot happen
    }
  }
}
