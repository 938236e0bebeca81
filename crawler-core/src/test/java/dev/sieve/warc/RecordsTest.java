package dev.sieve.warc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sieve.fetch.FetchResult;
import dev.sieve.fetch.Fetcher;
import dev.sieve.fetch.TlsSettings;
import dev.sieve.testing.TestCa;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.ReadableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.zip.Inflater;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import okhttp3.Protocol;
import okio.Buffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.netpreserve.jwarc.MediaType;
import org.netpreserve.jwarc.MessageVersion;
import org.netpreserve.jwarc.WarcCaptureRecord;
import org.netpreserve.jwarc.WarcReader;
import org.netpreserve.jwarc.WarcRecord;
import org.netpreserve.jwarc.WarcRequest;
import org.netpreserve.jwarc.WarcResponse;
import org.netpreserve.jwarc.WarcRevisit;
import org.netpreserve.jwarc.WarcTruncationReason;

/**
 * The headers of an exchange's records are the bytes jwarc's builders write for the same fields:
 * each record written is read back with jwarc, built again with jwarc's builders from what was
 * read, and the two headers compared byte for byte.
 */
class RecordsTest {
  private static final ReadableByteChannel NO_BODY =
      Channels.newChannel(InputStream.nullInputStream());

  private final MockWebServer server = new MockWebServer();
  private Fetcher fetcher;

  @BeforeEach
  void setUp() throws IOException {
    server.start(InetAddress.getByName("127.0.0.1"), 0);
    fetcher = Fetcher.builder().maxBodyBytes(1_000).build();
  }

  @AfterEach
  void tearDown() {
    fetcher.close();
    server.close();
  }

  private FetchResult fetch(MockResponse response, String path) {
    server.enqueue(response);
    return fetcher.fetch("http://127.0.0.1:" + server.getPort() + path);
  }

  /** The members {@code writer} holds (each with a 10-byte header, as Sieve writes them), inflated. */
  private static List<byte[]> members(MemberWriter writer) throws Exception {
    List<byte[]> members = new ArrayList<>();
    byte[] all = writer.records().toByteArray();
    int at = 0;
    while (at < all.length) {
      Inflater inflater = new Inflater(true);
      inflater.setInput(all, at + 10, all.length - at - 10);
      ByteArrayOutputStream member = new ByteArrayOutputStream();
      byte[] buffer = new byte[8192];
      while (!inflater.finished()) {
        member.write(buffer, 0, inflater.inflate(buffer));
      }
      at = all.length - inflater.getRemaining() + 8; // the CRC and length after the stream
      inflater.end();
      members.add(member.toByteArray());
    }
    return members;
  }

  private static String header(byte[] record) {
    String text = new String(record, StandardCharsets.UTF_8);
    return text.substring(0, text.indexOf("\r\n\r\n") + 4);
  }

  private static WarcCaptureRecord read(byte[] record) throws IOException {
    try (WarcReader reader = new WarcReader(Channels.newChannel(new ByteArrayInputStream(record)))) {
      return (WarcCaptureRecord) reader.next().orElseThrow();
    }
  }

  /** The header jwarc's builders write for {@code record}'s fields. */
  private static String jwarcHeader(WarcCaptureRecord record) throws IOException {
    String url = record.target();
    WarcCaptureRecord.AbstractBuilder<?, ?> builder;
    if (record instanceof WarcRequest) {
      builder = new WarcRequest.Builder(url);
    } else if (record instanceof WarcRevisit revisit) {
      WarcRevisit.Builder revisitBuilder = new WarcRevisit.Builder(url, revisit.profile())
          .refersTo(revisit.refersTo().orElseThrow(), revisit.refersToTargetURI().orElseThrow(),
              revisit.refersToDate().orElseThrow());
      revisit.payloadDigest().ifPresent(revisitBuilder::payloadDigest);
      builder = revisitBuilder;
    } else {
      WarcResponse response = (WarcResponse) record;
      WarcResponse.Builder responseBuilder = new WarcResponse.Builder(url)
          .payloadDigest(response.payloadDigest().orElseThrow());
      if (response.truncated() != WarcTruncationReason.NOT_TRUNCATED) {
        responseBuilder.truncated(response.truncated());
      }
      builder = responseBuilder;
    }
    builder.version(MessageVersion.WARC_1_1);
    builder.recordId(record.id()).date(record.date());
    record.concurrentTo().forEach(builder::concurrentTo);
    builder.blockDigest(record.blockDigest().orElseThrow());
    builder.body(MediaType.parse(record.contentType().toString()), NO_BODY, record.body().size());
    if (record.ipAddress().isPresent()) {
      builder.ipAddress(record.ipAddress().get());
    }
    // Extension fields (WARC-Protocol may repeat): every value, in the order read.
    for (String name : List.of("WARC-Protocol", "WARC-Cipher-Suite")) {
      record.headers().all(name).forEach(value -> builder.addHeader(name, value));
    }
    return new String(((WarcRecord) builder.build()).serializeHeader(), StandardCharsets.UTF_8);
  }

  private static void assertHeadersAreJwarcs(MemberWriter writer) throws Exception {
    List<byte[]> members = members(writer);
    assertThat(members).hasSize(2);
    for (byte[] member : members) {
      assertThat(header(member)).isEqualTo(jwarcHeader(read(member)));
    }
  }

  @Test
  void exchange_response_headersAreTheBytesJwarcWrites() throws Exception {
    FetchResult result = fetch(new MockResponse.Builder().code(200)
        .setHeader("Content-Type", "text/html").body("<p>hello</p>").build(), "/a?b=c%20d");

    try (MemberWriter writer = MemberWriter.borrow(1)) {
      Records.exchange(writer, result.url(), result.exchange().orElseThrow(), result.sha1(), null);
      assertHeadersAreJwarcs(writer);
    }
  }

  @Test
  void exchange_h2OverTls_headersAreTheBytesJwarcWritesWithProtocolsAndCipherSuite(
      @TempDir Path dir) throws Exception {
    TestCa ca = TestCa.create(dir);
    try (MockWebServer tls = new MockWebServer();
        Fetcher trusting = Fetcher.builder()
            .tls(TlsSettings.withCaCerts(List.of(ca.caCert()))).build()) {
      tls.useHttps(ca.issue("server").serverContext().getSocketFactory());
      tls.setProtocols(List.of(Protocol.HTTP_2, Protocol.HTTP_1_1));
      tls.enqueue(new MockResponse.Builder().code(200).body("<p>over h2</p>").build());
      tls.start(InetAddress.getByName("127.0.0.1"), 0);
      FetchResult result = trusting.fetch("https://localhost:" + tls.getPort() + "/h2");

      try (MemberWriter writer = MemberWriter.borrow(1)) {
        Records.exchange(writer, result.url(), result.exchange().orElseThrow(), result.sha1(), null);
        assertHeadersAreJwarcs(writer);
        for (byte[] member : members(writer)) {
          assertThat(header(member))
              .contains("\r\nWARC-Protocol: h2\r\nWARC-Protocol: tls/1.3\r\n")
              .containsPattern("\r\nWARC-Cipher-Suite: TLS_[A-Z0-9_]+\r\n");
        }
      }
    }
  }

  @Test
  void exchange_plainHttp_oneProtocolFieldNoCipherSuite() throws Exception {
    FetchResult result = fetch(new MockResponse.Builder().code(200).body("plain").build(), "/p");

    try (MemberWriter writer = MemberWriter.borrow(1)) {
      Records.exchange(writer, result.url(), result.exchange().orElseThrow(), result.sha1(), null);
      for (byte[] member : members(writer)) {
        assertThat(header(member)).contains("\r\nWARC-Protocol: http/1.1\r\nWARC-Record-ID: ")
            .doesNotContain("WARC-Cipher-Suite");
      }
    }
  }

  @Test
  void exchange_truncatedResponse_headersAreTheBytesJwarcWrites() throws Exception {
    FetchResult result = fetch(new MockResponse.Builder().code(200)
        .body(new Buffer().write(new byte[5_000])).build(), "/big");

    try (MemberWriter writer = MemberWriter.borrow(1)) {
      Records.exchange(writer, result.url(), result.exchange().orElseThrow(), result.sha1(), null);
      assertHeadersAreJwarcs(writer);
      assertThat(header(members(writer).get(1))).contains("WARC-Truncated: length\r\n");
    }
  }

  @Test
  void exchange_revisit_headersAreTheBytesJwarcWrites() throws Exception {
    FetchResult result = fetch(new MockResponse.Builder().code(200).body("same").build(), "/copy");
    Digests.Original original = new Digests.Original(UUID.randomUUID(),
        "http://127.0.0.1/first", Instant.parse("2026-01-02T03:04:05Z"));

    try (MemberWriter writer = MemberWriter.borrow(1)) {
      Records.exchange(writer, result.url(), result.exchange().orElseThrow(), result.sha1(),
          original);
      assertHeadersAreJwarcs(writer);
      assertThat(header(members(writer).get(1))).contains("WARC-Type: revisit\r\n");
    }
  }

  @Test
  void exchange_notModified_serverNotModifiedRevisitAsJwarcWritesIt() throws Exception {
    FetchResult result = fetch(new MockResponse.Builder().code(304).setHeader("ETag", "\"v1\"")
        .build(), "/same");
    Digests.Original last = new Digests.Original(UUID.randomUUID(), result.url(),
        Instant.parse("2026-11-27T08:00:00Z"));

    try (MemberWriter writer = MemberWriter.borrow(1)) {
      Records.exchange(writer, result.url(), result.exchange().orElseThrow(), result.sha1(), last,
          true);
      assertHeadersAreJwarcs(writer);
      WarcRevisit revisit = (WarcRevisit) read(members(writer).get(1));
      assertThat(revisit.profile()).isEqualTo(WarcRevisit.SERVER_NOT_MODIFIED_1_1);
      assertThat(revisit.refersTo()).contains(URI.create("urn:uuid:" + last.recordId()));
      assertThat(revisit.refersToDate()).contains(last.date());
      assertThat(revisit.payloadDigest()).isEmpty();
      assertThat(revisit.http().status()).isEqualTo(304);
    }
  }

  @Test
  void recordHeader_valueBeyondAscii_utf8AsJwarcWritesIt() {
    String url = "http://example.test/caf\u00e9?q=\u65e5\u672c";
    UUID id = UUID.randomUUID();
    Instant date = Instant.parse("2026-11-24T12:00:00Z");
    WarcRequest request = new WarcRequest.Builder(url).version(MessageVersion.WARC_1_1)
        .recordId(id).date(date).build();

    ByteBuffer ours = new RecordHeader().start()
        .field("Content-Length", 0)
        .field("WARC-Date", date)
        .field("WARC-Record-ID", id)
        .field("WARC-Target-URI", url)
        .field("WARC-Type", "request")
        .end();

    byte[] bytes = new byte[ours.remaining()];
    ours.get(bytes);
    assertThat(bytes).isEqualTo(request.serializeHeader());
  }

  @Test
  void address_asJwarcWritesIt() throws IOException {
    for (String ip : List.of("127.0.0.1", "0:0:0:0:0:0:0:1", "2001:db8:0:0:1:0:0:1",
        "fe80:0:0:0:0:0:0:1", "::ffff:7f00:1")) {
      WarcRequest request = new WarcRequest.Builder(URI.create("http://example.test/"))
          .ipAddress(InetAddress.getByName(ip)).build();

      assertThat(Records.address(ip)).as(ip)
          .isEqualTo(request.headers().first("WARC-IP-Address").orElseThrow());
    }
  }
}
