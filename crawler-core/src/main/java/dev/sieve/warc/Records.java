package dev.sieve.warc;

import dev.sieve.fetch.Exchange;
import dev.sieve.fetch.Sha1;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.ReadableByteChannel;
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
import org.netpreserve.jwarc.WarcCaptureRecord;
import org.netpreserve.jwarc.WarcRequest;
import org.netpreserve.jwarc.WarcResponse;
import org.netpreserve.jwarc.WarcRevisit;
import org.netpreserve.jwarc.WarcTruncationReason;
import org.netpreserve.jwarc.Warcinfo;

/**
 * The WARC records of a file's start and of one exchange, each serialized by jwarc's builders
 * and gzipped as a member of its own. Stateless and thread-safe.
 */
final class Records {
  private static final byte[] END = "\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1);
  /** The body given to jwarc's builders, which only serialize the header they make. */
  private static final ReadableByteChannel NO_BODY = Channels.newChannel(InputStream.nullInputStream());
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
   * when {@code original} (the first response with the same payload) is given.
   */
  static Pair exchange(MemberWriter writer, String url, Exchange exchange, String payloadSha1,
      Digests.Original original) {
    Instant date = exchange.date().truncatedTo(ChronoUnit.SECONDS);
    UUID requestId = UUID.randomUUID();
    UUID responseId = UUID.randomUUID();
    InetAddress ip = address(exchange.ip());
    ByteBuffer requestBlock = exchange.requestHead();
    ByteBuffer responseHead = ByteBuffer.wrap(keepTransferEncoding(bytes(exchange.responseHead())));
    ByteBuffer payload = original == null ? writer.readable(exchange.payload()) : ByteBuffer.allocate(0);
    // The body is read in place: digested, then deflated, never copied whole.
    WarcRequest request = capture(new WarcRequest.Builder(url), requestId, date, responseId, ip,
        MediaType.HTTP_REQUEST, writer.sha1(requestBlock), requestBlock.remaining()).build();
    long responseLength = (long) responseHead.remaining() + payload.remaining();
    byte[] responseDigest = writer.sha1(responseHead, payload);
    WarcCaptureRecord response;
    if (original == null) {
      WarcResponse.Builder builder = capture(new WarcResponse.Builder(url), responseId, date,
          requestId, ip, MediaType.HTTP_RESPONSE, responseDigest, responseLength)
          .payloadDigest("sha1", payloadSha1);
      WarcTruncationReason truncated = truncation(exchange.truncation());
      if (truncated != WarcTruncationReason.NOT_TRUNCATED) {
        builder.truncated(truncated);
      }
      response = builder.build();
    } else {
      response = capture(new WarcRevisit.Builder(url, WarcRevisit.IDENTICAL_PAYLOAD_DIGEST_1_1),
          responseId, date, requestId, ip, MediaType.HTTP_RESPONSE, responseDigest, responseLength)
          .payloadDigest("sha1", payloadSha1)
          .refersTo(urn(original.recordId()), original.url(), original.date())
          .build();
    }
    // A request record is a few hundred bytes: stored, not deflated (see MemberWriter#stored).
    writer.stored(ByteBuffer.wrap(request.serializeHeader()), requestBlock, end());
    int responseOffset = writer.records().size();
    writer.member(ByteBuffer.wrap(response.serializeHeader()), responseHead, payload, end());
    return new Pair(responseOffset, responseId, date);
}

  /** The fields every record of an exchange has, and its block. */
  private static <R extends WarcCaptureRecord, B extends WarcCaptureRecord.AbstractBuilder<R, B>> B
      capture(B builder, UUID id, Instant date, UUID concurrentTo, InetAddress ip, MediaType type,
          byte[] blockSha1, long blockLength) {
    builder.version(MessageVersion.WARC_1_1);
    // Only the header is serialized: the block is written from the exchange's own buffers.
    builder.recordId(id).date(date).concurrentTo(urn(concurrentTo))
        .blockDigest("sha1", Sha1.encode(blockSha1)).body(type, NO_BODY, blockLength);
    if (ip != null) {
      builder.ipAddress(ip);
    }
    return builder;
  }

  static URI urn(UUID id) {
    return URI.create("urn:uuid:" + id);
  }

  private static WarcTruncationReason truncation(Exchange.Truncation truncation) {
    return switch (truncation) {
      case NONE -> WarcTruncationReason.NOT_TRUNCATED;
      case LENGTH -> WarcTruncationReason.LENGTH;
      case TIME -> WarcTruncationReason.TIME;
      case DISCONNECT -> WarcTruncationReason.DISCONNECT;
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

  private static InetAddress address(String ip) {
    if (ip == null) {
      return null;
    }
    try {
      return InetAddress.getByName(ip); // a literal: no lookup
    } catch (UnknownHostException e) {
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
