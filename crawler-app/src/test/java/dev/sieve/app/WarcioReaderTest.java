package dev.sieve.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.URI;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.netpreserve.jwarc.MediaType;
import org.netpreserve.jwarc.WarcCaptureRecord;
import org.netpreserve.jwarc.WarcCompression;
import org.netpreserve.jwarc.WarcDigest;
import org.netpreserve.jwarc.WarcReader;
import org.netpreserve.jwarc.WarcRecord;
import org.netpreserve.jwarc.WarcRequest;
import org.netpreserve.jwarc.WarcResponse;
import org.netpreserve.jwarc.WarcRevisit;
import org.netpreserve.jwarc.WarcTargetRecord;
import org.netpreserve.jwarc.WarcTruncationReason;
import org.netpreserve.jwarc.WarcWriter;
import org.netpreserve.jwarc.Warcinfo;

/**
 * The independent reader (warcio.js under node) against WARC files jwarc writes here directly:
 * the two libraries must agree on every record, and a torn file must not pass.
 */
class WarcioReaderTest {
  private static final Instant DATE = Instant.parse("2026-11-24T03:00:00Z");
  private static final String SITE = "http://127.0.0.1:8080";

  @TempDir Path dir;
  private WarcioReader warcio;

  @BeforeEach
  void requireWarcio() {
    warcio = WarcioReader.require();
  }

  @Test
  void read_jwarcGzipAndPlainFiles_countsDigestsAndFieldsEqualJwarcs() throws Exception {
    for (WarcCompression compression : List.of(WarcCompression.GZIP, WarcCompression.NONE)) {
      Path file = write("sample." + (compression == WarcCompression.GZIP ? "warc.gz" : "warc"),
          compression, sampleRecords());

      WarcioReader.WarcFile read = warcio.read(file);
      List<Jwarc> expected = readWithJwarc(file);

      assertThat(read.gzip()).isEqualTo(compression == WarcCompression.GZIP);
      assertThat(read.records()).isEqualTo(expected.size()).isEqualTo(7);
      assertThat(read.counts()).isEqualTo(countByType(expected))
          .isEqualTo(Map.of("warcinfo", 1, "request", 2, "response", 3, "revisit", 1));
      for (int i = 0; i < expected.size(); i++) {
        WarcioReader.Entry entry = read.entries().get(i);
        Jwarc jwarc = expected.get(i);
        assertThat(entry.offset()).as("record %d's offset", i).isEqualTo(jwarc.position());
        assertThat(entry.type()).isEqualTo(jwarc.type());
        assertThat(entry.recordId()).isEqualTo("<" + jwarc.id() + ">");
        assertThat(entry.targetUri()).isEqualTo(jwarc.target());
        assertThat(entry.concurrentTo()).isEqualTo(jwarc.concurrentTo());
        assertThat(entry.contentLength()).isEqualTo(jwarc.contentLength());
        assertThat(entry.computedBlockDigest()).as("record %d's block", i)
            .isEqualTo(jwarc.computedBlockDigest()).isEqualTo(entry.blockDigest());
        assertThat(entry.payloadDigest()).isEqualTo(jwarc.declaredPayloadDigest());
        assertThat(entry.computedPayloadDigest()).as("record %d's payload", i)
            .isEqualTo(jwarc.computedPayloadDigest());
        assertThat(entry.httpStatus()).isEqualTo(jwarc.status());
      }
    }
  }

  @Test
  void read_responseRevisitAndTruncatedRecords_fieldsAsWritten() throws Exception {
    Path file = write("fields.warc.gz", WarcCompression.GZIP, sampleRecords());

    List<WarcioReader.Entry> entries = warcio.read(file).entries();

    WarcioReader.Entry request = entries.get(1);
    WarcioReader.Entry response = entries.get(2);
    WarcioReader.Entry revisit = entries.get(4);
    WarcioReader.Entry truncated = entries.get(6);
    assertThat(request.httpMethod()).isEqualTo("GET");
    assertThat(request.concurrentTo()).containsExactly(response.recordId());
    assertThat(response.httpStatus()).isEqualTo(200);
    assertThat(response.ipAddress()).isEqualTo("127.0.0.1");
    assertThat(response.payloadLength()).isEqualTo(page("a").length);
    assertThat(response.computedPayloadDigest()).isEqualTo(response.payloadDigest())
        .isEqualTo(sha1(page("a")));
    assertThat(revisit.profile()).isEqualTo(WarcRevisit.IDENTICAL_PAYLOAD_DIGEST_1_1.toString());
    assertThat(revisit.refersTo()).isEqualTo(response.recordId());
    assertThat(revisit.refersToTargetUri()).isEqualTo(SITE + "/a");
    assertThat(revisit.payloadDigest()).isEqualTo(response.payloadDigest());
    assertThat(revisit.payloadLength()).isZero();
    assertThat(truncated.truncated()).isEqualTo("length");
    assertThat(truncated.payloadLength()).isEqualTo(1000);
    assertThat(truncated.computedPayloadDigest()).isEqualTo(truncated.payloadDigest());
  }

  @Test
  void read_wrongDeclaredDigest_reportsTheDigestOfTheBytes() throws Exception {
    byte[] block = http("HTTP/1.1 200 OK", page("x"));
    WarcResponse lying = new WarcResponse.Builder(URI.create(SITE + "/x")).date(DATE)
        .blockDigest(new WarcDigest("sha1", "3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ"))
        .body(MediaType.HTTP_RESPONSE, block).build();
    Path file = write("lying.warc.gz", WarcCompression.GZIP, List.of(lying));

    WarcioReader.Entry entry = warcio.read(file).entries().get(0);

    assertThat(entry.blockDigest()).isEqualTo("sha1:3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ");
    assertThat(entry.computedBlockDigest()).isEqualTo(sha1(block)).isNotEqualTo(entry.blockDigest());
  }

  @Test
  void read_tornFiles_malformedWithOneLineNamingTheFile() throws Exception {
    Path gzip = write("whole.warc.gz", WarcCompression.GZIP, sampleRecords());
    Path plain = write("whole.warc", WarcCompression.NONE, sampleRecords());
    Path tornGzip = cut(gzip, "torn.warc.gz", Files.size(gzip) - 7);
    Path tornPlain = cut(plain, "torn.warc", Files.size(plain) - 300);
    Path notWarc = Files.writeString(dir.resolve("page.html"), "<html></html>\r\n\r\n");

    assertThatThrownBy(() -> warcio.read(tornGzip)).isInstanceOf(WarcioReader.MalformedWarc.class)
        .hasMessageStartingWith(tornGzip + ": malformed WARC: gzip").hasMessageNotContaining("\n");
    assertThatThrownBy(() -> warcio.read(tornPlain)).isInstanceOf(WarcioReader.MalformedWarc.class)
        .hasMessageMatching(tornPlain.toString().replace(".", "\\.")
            + ": malformed WARC: record 6 at offset \\d+ \\(response\\): block ends after \\d+ of \\d+ bytes");
    assertThatThrownBy(() -> warcio.read(List.of(gzip, notWarc)))
        .hasMessageContaining(notWarc + ": malformed WARC: record 0 at offset 0: not a WARC version line");
  }

  @Test
  void read_gzipFileCutAtARecordBoundary_validWithTheRecordsBefore() throws Exception {
    Path gzip = write("whole.warc.gz", WarcCompression.GZIP, sampleRecords());
    long lastRecord = readWithJwarc(gzip).get(6).position();

    WarcioReader.WarcFile read = warcio.read(cut(gzip, "recovered.warc.gz", lastRecord));

    assertThat(read.records()).isEqualTo(6);
    assertThat(read.counts()).containsEntry("response", 2);
  }

  /**
   * warcinfo; request and response for /a; response for /img.png (binary); a revisit of /b (the
   * same payload as /a); request and truncated response for /big.
   */
  private static List<WarcRecord> sampleRecords() throws IOException {
    List<WarcRecord> records = new ArrayList<>();
    byte[] fields = "software: sieve-test\r\nformat: WARC File Format 1.1\r\n"
        .getBytes(StandardCharsets.UTF_8);
    records.add(new Warcinfo.Builder().date(DATE).filename("sample.warc.gz")
        .blockDigest(digest(fields)).body(MediaType.WARC_FIELDS, fields).build());

    byte[] pageA = page("a");
    WarcResponse a = response("/a", http("HTTP/1.1 200 OK", pageA), pageA, null);
    records.add(request("/a", a));
    records.add(a);

    byte[] png = new byte[4096];
    new Random(15).nextBytes(png);
    png[0] = (byte) 0x89;
    records.add(response("/img.png", http("HTTP/1.1 200 OK", png), png, null));

    byte[] revisitBlock = http("HTTP/1.1 200 OK", new byte[0]);
    records.add(new WarcRevisit.Builder(URI.create(SITE + "/b"), WarcRevisit.IDENTICAL_PAYLOAD_DIGEST_1_1)
        .date(DATE).refersTo(a.id(), a.targetURI(), a.date()).payloadDigest(digest(pageA))
        .blockDigest(digest(revisitBlock)).body(MediaType.HTTP_RESPONSE, revisitBlock).build());

    byte[] prefix = Arrays.copyOf("<html><body>".repeat(100).getBytes(StandardCharsets.UTF_8), 1000);
    byte[] cutBlock = concat(("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 100000\r\n\r\n")
        .getBytes(StandardCharsets.ISO_8859_1), prefix);
    WarcResponse big = response("/big", cutBlock, prefix, WarcTruncationReason.LENGTH);
    records.add(request("/big", big));
    records.add(big);
    return records;
  }

  private static WarcResponse response(String path, byte[] block, byte[] payload,
      WarcTruncationReason truncated) throws IOException {
    WarcResponse.Builder builder = new WarcResponse.Builder(URI.create(SITE + path)).date(DATE)
        .ipAddress(InetAddress.getLoopbackAddress())
        .blockDigest(digest(block)).payloadDigest(digest(payload));
    if (truncated != null) {
      builder.truncated(truncated);
    }
    return builder.body(MediaType.HTTP_RESPONSE, block).build();
  }

  private static WarcRequest request(String path, WarcResponse response) {
    byte[] block = ("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nUser-Agent: sieve-test\r\n"
        + "Accept-Encoding: gzip\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1);
    return new WarcRequest.Builder(URI.create(SITE + path)).date(DATE).concurrentTo(response.id())
        .blockDigest(digest(block)).body(MediaType.HTTP_REQUEST, block).build();
  }

  private static byte[] page(String name) {
    return ("<!doctype html><html><body><h1>" + name + "</h1>\r\n\r\n<p>after a blank line</p></body></html>\n")
        .getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] http(String statusLine, byte[] body) {
    return concat((statusLine + "\r\nContent-Type: application/octet-stream\r\nContent-Length: "
        + body.length + "\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1), body);
  }

  private Path write(String name, WarcCompression compression, List<WarcRecord> records)
      throws IOException {
    Path file = dir.resolve(name);
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        WarcWriter writer = new WarcWriter(channel, compression)) {
      for (WarcRecord record : records) {
        writer.write(record);
      }
    }
    return file;
  }

  private Path cut(Path file, String name, long length) throws IOException {
    return Files.write(dir.resolve(name), Arrays.copyOf(Files.readAllBytes(file), (int) length));
  }

  /** What jwarc reads from a file: fields, block digest it calculates, payload it parses. */
  private record Jwarc(long position, String type, String id, String target, List<String> concurrentTo,
      long contentLength, String computedBlockDigest, String declaredPayloadDigest,
      String computedPayloadDigest, Integer status) {}

  private static List<Jwarc> readWithJwarc(Path file) throws IOException {
    List<Jwarc> records = new ArrayList<>();
    try (WarcReader reader = new WarcReader(file)) {
      reader.calculateBlockDigest();
      for (WarcRecord record : reader) {
        String target = record instanceof WarcTargetRecord t ? t.target() : null;
        List<String> concurrent = record instanceof WarcCaptureRecord c
            ? c.concurrentTo().stream().map(u -> "<" + u + ">").toList() : List.of();
        String declaredPayload = record instanceof WarcTargetRecord t
            ? t.payloadDigest().map(WarcDigest::prefixedBase32).orElse(null) : null;
        String payload = null;
        Integer status = null;
        if (record instanceof WarcResponse response) {
          status = response.http().status();
          payload = sha1(readAll(response.http().body().stream()));
        } else if (record instanceof WarcRevisit revisit) {
          status = revisit.http().status();
          payload = sha1(readAll(revisit.http().body().stream()));
        } else if (record instanceof WarcRequest request) {
          payload = sha1(readAll(request.http().body().stream()));
        }
        record.body().consume();
        records.add(new Jwarc(record.position(), record.type(), record.id().toString(), target,
            concurrent, record.headers().sole("Content-Length").map(Long::parseLong).orElseThrow(),
            record.calculatedBlockDigest().map(WarcDigest::prefixedBase32).orElse(null),
            declaredPayload, payload, status));
      }
    }
    return records;
  }

  private static Map<String, Integer> countByType(List<Jwarc> records) {
    Map<String, Integer> counts = new TreeMap<>();
    records.forEach(r -> counts.merge(r.type(), 1, Integer::sum));
    return counts;
  }

  private static byte[] readAll(InputStream in) throws IOException {
    try (in) {
      return in.readAllBytes();
    }
  }

  private static WarcDigest digest(byte[] bytes) {
    try {
      MessageDigest sha1 = MessageDigest.getInstance("SHA-1");
      sha1.update(bytes);
      return new WarcDigest(sha1);
    } catch (NoSuchAlgorithmException e) {
      throw new AssertionError(e);
    }
  }

  private static String sha1(byte[] bytes) {
    return digest(bytes).prefixedBase32();
  }

  private static byte[] concat(byte[] a, byte[] b) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.writeBytes(a);
    out.writeBytes(b);
    return out.toByteArray();
  }
}
