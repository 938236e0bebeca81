package dev.sieve.warc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sieve.fetch.FetchResult;
import dev.sieve.fetch.Fetcher;
import dev.sieve.testing.ReadWarc;
import dev.sieve.testing.ReadWarc.Read;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import okio.Buffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.netpreserve.jwarc.MessageVersion;
import org.netpreserve.jwarc.WarcReader;
import org.netpreserve.jwarc.WarcRequest;
import org.netpreserve.jwarc.WarcResponse;
import org.netpreserve.jwarc.WarcRevisit;
import org.netpreserve.jwarc.WarcTruncationReason;

/** Records written for real fetches from a local server, read back with jwarc. */
class WarcArchiveTest {
  static final Clock CLOCK = Clock.fixed(Instant.parse("2026-01-02T03:04:05Z"), ZoneOffset.UTC);

  private final MockWebServer server = new MockWebServer();
  private Fetcher fetcher;
  @TempDir Path dir;

  @BeforeEach
  void setUp() throws IOException {
    server.start(InetAddress.getByName("127.0.0.1"), 0);
    fetcher = Fetcher.builder().maxBodyBytes(64 * 1024).build();
  }

  @AfterEach
  void tearDown() {
    fetcher.close();
    server.close();
  }

  private String url(String path) {
    return "http://127.0.0.1:" + server.getPort() + path;
  }

  private FetchResult serve(MockResponse response, String path) {
    server.enqueue(response);
    return fetcher.fetch(url(path));
  }

  private FetchResult serve(String body, String path) {
    return serve(new MockResponse.Builder().code(200).setHeader("Content-Type", "text/html")
        .body(body).build(), path);
  }

  static WarcSettings.Builder settings(Path dir) {
    return WarcSettings.builder(dir).host("testhost").software("Sieve/test");
  }

  static List<Read> read(Path file) throws IOException {
    return ReadWarc.records(file);
  }

  static List<Path> files(Path dir, String suffix) throws IOException {
    try (var list = Files.list(dir)) {
      return list.filter(f -> f.getFileName().toString().endsWith(suffix))
          .filter(f -> !f.getFileName().toString().equals(WarcArchive.LOCK_FILE))
          .sorted().toList();
    }
  }

  @Test
  void write_response_exactBytesDigestsAndLinks() throws Exception {
    FetchResult page = serve("<html>hello</html>", "/a.html");

    Path file;
    WarcArchive.Location location;
    try (WarcArchive archive = WarcArchive.open(settings(dir).info("robots", "obey").build(), CLOCK)) {
      location = archive.write(page).orElseThrow();
    }
    file = dir.resolve(location.file());

    assertThat(location.file()).matches("sieve-20260102030405000-00000-testhost\\.warc\\.gz");
    List<Read> records = read(file);
    assertThat(records).extracting(Read::type).containsExactly("warcinfo", "request", "response");
    assertThat(records).allSatisfy(r -> assertThat(r.record().version()).isEqualTo(MessageVersion.WARC_1_1));
    Read info = records.get(0);
    assertThat(info.header("WARC-Filename")).contains(location.file());
    assertThat(new String(info.block(), StandardCharsets.UTF_8))
        .contains("software: Sieve/test\r\n").contains("robots: obey\r\n");
    Read request = records.get(1);
    Read response = records.get(2);
    WarcResponse warc = (WarcResponse) response.record();
    assertThat(warc.target()).isEqualTo(url("/a.html"));
    assertThat(response.payload()).isEqualTo("<html>hello</html>".getBytes(StandardCharsets.UTF_8));
    assertThat(response.http().status()).isEqualTo(200);
    assertThat(warc.payloadDigest().orElseThrow().base32()).isEqualTo(page.sha1());
    assertThat(warc.payloadDigest().orElseThrow().base32()).isEqualTo(ReadWarc.sha1(response.payload()));
    assertThat(warc.blockDigest().orElseThrow().base32()).isEqualTo(response.blockSha1());
    assertThat(request.record().blockDigest().orElseThrow().base32()).isEqualTo(request.blockSha1());
    assertThat(warc.concurrentTo()).containsExactly(request.record().id());
    assertThat(((WarcRequest) request.record()).concurrentTo()).containsExactly(warc.id());
    assertThat(warc.ipAddress().orElseThrow().getHostAddress()).isEqualTo("127.0.0.1");
    assertThat(new String(request.block(), StandardCharsets.ISO_8859_1))
        .startsWith("GET /a.html HTTP/1.1\r\n").contains("Accept-Encoding: gzip\r\n");
    assertThat(warc.truncated()).isEqualTo(WarcTruncationReason.NOT_TRUNCATED);
    assertThat(response.offset()).isEqualTo(location.offset());
    try (WarcReader reader = new WarcReader(file)) {
      reader.position(location.offset());
      assertThat(reader.next().orElseThrow().id()).isEqualTo(warc.id());
    }
  }

  @Test
  void write_everyGzipLevel_sameRecordsReadBack() throws Exception {
    String body = "<p>a page, a page, a page</p>\n".repeat(2_000); // under the 64 KB cap
    for (int level = 1; level <= 9; level++) {
      FetchResult page = serve(body, "/level" + level);
      Path levelDir = dir.resolve("level" + level);
      WarcArchive.Location location;
      try (WarcArchive archive = WarcArchive.open(settings(levelDir).gzipLevel(level).build(), CLOCK)) {
        location = archive.write(page).orElseThrow();
      }

      List<Read> records = read(levelDir.resolve(location.file()));
      assertThat(records).extracting(Read::type).containsExactly("warcinfo", "request", "response");
      Read response = records.get(2);
      assertThat(response.payload()).as("level " + level).isEqualTo(body.getBytes(StandardCharsets.UTF_8));
      assertThat(((WarcResponse) response.record()).blockDigest().orElseThrow().base32())
          .isEqualTo(response.blockSha1());
    }
  }

  @Test
  void write_gzipBody_payloadAsTransferred() throws Exception {
    ByteArrayOutputStream compressed = new ByteArrayOutputStream();
    try (OutputStream gzip = new GZIPOutputStream(compressed)) {
      gzip.write("zipped page".getBytes(StandardCharsets.UTF_8));
    }
    FetchResult page = serve(new MockResponse.Builder().code(200).setHeader("Content-Encoding", "gzip")
        .body(new Buffer().write(compressed.toByteArray())).build(), "/z");

    WarcArchive.Location location;
    try (WarcArchive archive = WarcArchive.open(settings(dir).build(), CLOCK)) {
      location = archive.write(page).orElseThrow();
    }

    Read response = read(dir.resolve(location.file())).get(2);
    assertThat(response.http().headers().first("Content-Encoding")).contains("gzip");
    assertThat(response.payload()).isEqualTo(compressed.toByteArray());
    assertThat(new GZIPInputStream(new ByteArrayInputStream(response.payload())).readAllBytes())
        .isEqualTo("zipped page".getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void write_chunkedBody_transferEncodingRenamedAndBodyReadable() throws Exception {
    FetchResult page = serve(new MockResponse.Builder().code(200).chunkedBody("chunk-by-chunk", 4)
        .build(), "/c");

    WarcArchive.Location location;
    try (WarcArchive archive = WarcArchive.open(settings(dir).build(), CLOCK)) {
      location = archive.write(page).orElseThrow();
    }

    Read response = read(dir.resolve(location.file())).get(2);
    assertThat(response.http().headers().first("Transfer-Encoding")).isEmpty();
    assertThat(response.http().headers().first(Records.KEPT_TRANSFER_ENCODING)).contains("chunked");
    assertThat(new String(response.payload(), StandardCharsets.UTF_8)).isEqualTo("chunk-by-chunk");
  }

  @Test
  void write_bodyOverCap_truncatedLength() throws Exception {
    FetchResult page = serve("x".repeat(100_000), "/big");

    WarcArchive.Location location;
    try (WarcArchive archive = WarcArchive.open(settings(dir).build(), CLOCK)) {
      location = archive.write(page).orElseThrow();
    }

    Read response = read(dir.resolve(location.file())).get(2);
    assertThat(response.record().truncated()).isEqualTo(WarcTruncationReason.LENGTH);
    assertThat(response.header("WARC-Truncated")).contains("length");
    assertThat(response.payload()).hasSize(64 * 1024);
    assertThat(response.header("WARC-Payload-Digest")).contains("sha1:" + page.sha1());
  }

  @Test
  void write_bodyCutByTimeout_truncatedTime() throws Exception {
    server.enqueue(new MockResponse.Builder().code(200).body("y".repeat(500))
        .throttleBody(1, 100, java.util.concurrent.TimeUnit.MILLISECONDS).build());
    FetchResult page;
    try (Fetcher slow = Fetcher.builder().callTimeout(java.time.Duration.ofMillis(500)).build()) {
      page = slow.fetch(url("/slow"));
    }

    WarcArchive.Location location;
    try (WarcArchive archive = WarcArchive.open(settings(dir).build(), CLOCK)) {
      location = archive.write(page).orElseThrow();
    }

    Read response = read(dir.resolve(location.file())).get(2);
    assertThat(response.header("WARC-Truncated")).contains("time");
    assertThat(response.payload().length).isBetween(0, 499);
  }

  @Test
  void write_noResponse_nothingWritten() throws IOException {
    int port = server.getPort();
    server.close();
    FetchResult refused = fetcher.fetch("http://127.0.0.1:" + port + "/");

    try (WarcArchive archive = WarcArchive.open(settings(dir).build(), CLOCK)) {
      assertThat(archive.write(refused)).isEmpty();
    }
    assertThat(files(dir, "")).isEmpty();
  }

  @Test
  void write_samePayloadTwice_secondIsRevisit() throws Exception {
    FetchResult first = serve("same body", "/one");
    FetchResult second = serve("same body", "/two");

    WarcArchive.Location location;
    try (WarcArchive archive = WarcArchive.open(settings(dir).build(), CLOCK)) {
      archive.write(first);
      location = archive.write(second).orElseThrow();
    }

    List<Read> records = read(dir.resolve(location.file()));
    assertThat(records).extracting(Read::type)
        .containsExactly("warcinfo", "request", "response", "request", "revisit");
    WarcResponse original = (WarcResponse) records.get(2).record();
    WarcRevisit revisit = (WarcRevisit) records.get(4).record();
    assertThat(revisit.profile()).isEqualTo(WarcRevisit.IDENTICAL_PAYLOAD_DIGEST_1_1);
    assertThat(revisit.target()).isEqualTo(url("/two"));
    assertThat(revisit.refersToTargetURI()).contains(java.net.URI.create(url("/one")));
    assertThat(revisit.refersToDate()).contains(original.date());
    assertThat(revisit.refersTo()).contains(original.id());
    assertThat(revisit.payloadDigest()).isEqualTo(original.payloadDigest());
    assertThat(revisit.blockDigest().orElseThrow().base32()).isEqualTo(records.get(4).blockSha1());
    assertThat(records.get(4).http().status()).isEqualTo(200);
    assertThat(records.get(4).payload()).isEmpty();
    try (WarcReader reader = new WarcReader(dir.resolve(location.file()))) {
      reader.position(location.offset());
      assertThat(reader.next().orElseThrow().type()).isEqualTo("revisit");
    }
  }

  @Test
  void write_samePayloadWithoutDedupe_bothResponses() throws Exception {
    FetchResult first = serve("same body", "/one");
    FetchResult second = serve("same body", "/two");

    WarcArchive.Location location;
    try (WarcArchive archive = WarcArchive.open(settings(dir).dedupe(false).build(), CLOCK)) {
      archive.write(first);
      location = archive.write(second).orElseThrow();
    }

    assertThat(read(dir.resolve(location.file()))).extracting(Read::type)
        .containsExactly("warcinfo", "request", "response", "request", "response");
  }

  @Test
  void open_dirIsAFile_failsNamingIt() throws IOException {
    Path file = Files.writeString(dir.resolve("taken"), "x");

    assertThatThrownBy(() -> WarcArchive.open(settings(file).build(), CLOCK))
        .isInstanceOf(WarcException.class)
        .hasMessageStartingWith("cannot create WARC directory " + file + ": ");
  }

  @Test
  void open_directoryInUse_refusedUntilTheFirstCloses() {
    WarcArchive first = WarcArchive.open(settings(dir).build(), CLOCK);

    assertThatThrownBy(() -> WarcArchive.open(settings(dir).build(), CLOCK))
        .isInstanceOfSatisfying(WarcException.class, e -> assertThat(e.inUse()).isTrue())
        .hasMessage("WARC directory " + dir + " is in use by another crawl");
    first.close();
    WarcArchive.open(settings(dir).build(), CLOCK).close();
  }

  @Test
  void settings_invalid_namedForTheOption() {
    assertThatThrownBy(() -> settings(dir).maxFileBytes(10).build())
        .hasMessage("warcMaxSize (10) must be >= " + WarcSettings.MIN_FILE_BYTES);
    assertThatThrownBy(() -> settings(dir).prefix("a b").build())
        .hasMessageStartingWith("warcPrefix (a b) must be");
  }
}
