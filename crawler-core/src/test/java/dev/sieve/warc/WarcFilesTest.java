package dev.sieve.warc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sieve.fetch.FetchResult;
import dev.sieve.fetch.Fetcher;
import dev.sieve.testing.CapturedLogs;
import dev.sieve.testing.ReadWarc;
import dev.sieve.testing.ReadWarc.Read;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import okio.Buffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.netpreserve.jwarc.WarcCaptureRecord;

/** The archive's files: rotation, {@code .open} names, torn-file recovery, CDXJ, concurrency. */
class WarcFilesTest {
  private final MockWebServer server = new MockWebServer();
  private final Random random = new Random(15);
  private Fetcher fetcher;
  @TempDir Path dir;

  @BeforeEach
  void setUp() throws IOException {
    server.start(InetAddress.getByName("127.0.0.1"), 0);
    fetcher = Fetcher.builder().clock(WarcArchiveTest.CLOCK).build();
  }

  @AfterEach
  void tearDown() {
    fetcher.close();
    server.close();
  }

  /** A page of {@code size} random (incompressible, never repeated) bytes. */
  private FetchResult page(String path, int size) {
    byte[] body = new byte[size];
    random.nextBytes(body);
    server.enqueue(new MockResponse.Builder().code(200).setHeader("Content-Type", "text/plain")
        .body(new Buffer().write(body)).build());
    return fetcher.fetch("http://127.0.0.1:" + server.getPort() + path);
  }

  private WarcArchive open(WarcSettings.Builder settings) {
    return WarcArchive.open(settings.build(), WarcArchiveTest.CLOCK);
  }

  @Test
  void write_pastMaxSize_rotatesToNextSerialEachWithWarcinfo() throws IOException {
    try (WarcArchive archive = open(WarcArchiveTest.settings(dir).maxFileBytes(20_000))) {
      for (int i = 0; i < 5; i++) {
        archive.write(page("/p" + i, 8_000));
      }
    }

    List<Path> files = WarcArchiveTest.files(dir, ".warc.gz");
    assertThat(files).hasSize(3);
    assertThat(files).extracting(f -> f.getFileName().toString()).containsExactly(
        "sieve-20260102030405000-00000-testhost.warc.gz",
        "sieve-20260102030405000-00001-testhost.warc.gz",
        "sieve-20260102030405000-00002-testhost.warc.gz");
    int responses = 0;
    for (Path file : files) {
      List<Read> records = ReadWarc.records(file);
      assertThat(records.get(0).type()).isEqualTo("warcinfo");
      assertThat(Files.size(file)).isLessThanOrEqualTo(20_000 + 9_000);
      responses += (int) records.stream().filter(r -> r.type().equals("response")).count();
    }
    assertThat(responses).isEqualTo(5);
    assertThat(WarcArchiveTest.files(dir, ".open")).isEmpty();
  }

  @Test
  void write_fileBeingWritten_endsInOpenUntilClosed() throws IOException {
    WarcArchive archive = open(WarcArchiveTest.settings(dir));
    WarcArchive.Location location = archive.write(page("/", 100)).orElseThrow();
    archive.sync();

    assertThat(WarcArchiveTest.files(dir, "")).extracting(f -> f.getFileName().toString())
        .containsExactly(location.file() + ".open");
    archive.close();
    assertThat(WarcArchiveTest.files(dir, "")).extracting(f -> f.getFileName().toString())
        .containsExactly(location.file());
  }

  @Test
  void open_tornFileLeftByCrash_cutAtLastCompleteRecordRenamedAndWarned() throws IOException {
    WarcArchive crashed = open(WarcArchiveTest.settings(dir));
    crashed.write(page("/1", 3000));
    WarcArchive.Location second = crashed.write(page("/2", 3000)).orElseThrow();
    crashed.write(page("/3", 3000));
    crashed.sync();
    // What kill -9 leaves: the .open file as written, in a directory no process holds.
    Path left = Files.createDirectory(dir.resolve("after-crash"));
    Path torn = Files.copy(dir.resolve(second.file() + ".open"), left.resolve(second.file() + ".open"));
    crashed.close();
    dir = left;
    long size = Files.size(torn);
    try (FileChannel channel = FileChannel.open(torn, StandardOpenOption.WRITE)) {
      channel.truncate(size - 1000); // the third response is torn
    }

    WarcArchive.Location next;
    try (CapturedLogs logs = new CapturedLogs(WarcArchive.class.getName());
        WarcArchive resumed = open(WarcArchiveTest.settings(dir).index(true))) {
      assertThat(logs.messages()).singleElement().asString()
          .contains(torn.toString()).contains("left open by a crash")
          .contains("cut " + (size - 1000 - keptLength(dir.resolve(second.file()))) + " torn byte(s)")
          .contains("closed as " + second.file());
      next = resumed.write(page("/4", 100)).orElseThrow();
    }

    List<Read> records = ReadWarc.records(dir.resolve(second.file()));
    assertThat(records).extracting(Read::type)
        .containsExactly("warcinfo", "request", "response", "request", "response", "request");
    assertThat(records.get(4).record().headers().first("WARC-Target-URI")).hasValueSatisfying(
        uri -> assertThat(uri).endsWith("/2"));
    assertThat(next.file()).contains("-00001-").isNotEqualTo(second.file());
    assertThat(Files.exists(CdxjIndex.pathOf(dir.resolve(second.file())))).isTrue();
    assertThat(WarcArchiveTest.files(dir, ".open")).isEmpty();
  }

  private static long keptLength(Path file) throws IOException {
    return Files.size(file);
  }

  @Test
  void open_openFileWithNoCompleteRecord_deleted() throws IOException {
    Path torn = Files.write(dir.resolve("sieve-20260101000000000-00007-x.warc.gz.open"),
        new byte[] {0x1f, (byte) 0x8b, 8, 0});

    try (CapturedLogs logs = new CapturedLogs(WarcArchive.class.getName());
        WarcArchive archive = open(WarcArchiveTest.settings(dir))) {
      assertThat(logs.messages()).singleElement().asString().contains("no complete record");
      assertThat(archive.write(page("/", 10)).orElseThrow().file()).contains("-00000-");
    }
    assertThat(Files.exists(torn)).isFalse();
  }

  @Test
  void close_withIndex_cdxjLinePerResponseSortedBySurt() throws IOException {
    List<WarcArchive.Location> locations = new ArrayList<>();
    try (WarcArchive archive = open(WarcArchiveTest.settings(dir).index(true))) {
      locations.add(archive.write(page("/b", 500)).orElseThrow());
      locations.add(archive.write(page("/a?x=1", 500)).orElseThrow());
    }

    Path warc = dir.resolve(locations.get(0).file());
    Path index = dir.resolve(locations.get(0).file().replace(".warc.gz", ".cdxj"));
    List<String> lines = Files.readAllLines(index);
    List<Read> records = ReadWarc.records(warc);
    long secondLength = Files.size(warc) - locations.get(1).offset();
    long firstLength = records.get(3).offset() - locations.get(0).offset();
    String digestA = ((WarcCaptureRecord) records.get(4).record()).payloadDigest().orElseThrow().base32();
    String digestB = ((WarcCaptureRecord) records.get(2).record()).payloadDigest().orElseThrow().base32();
    assertThat(lines).containsExactly(
        "127,0,0,1:" + server.getPort() + ")/a?x=1 20260102030405 {\"url\": \"http://127.0.0.1:"
            + server.getPort() + "/a?x=1\", \"mime\": \"text/plain\", \"status\": \"200\", \"digest\": \"sha1:"
            + digestA + "\", \"length\": \"" + secondLength + "\", \"offset\": \""
            + locations.get(1).offset() + "\", \"filename\": \"" + warc.getFileName() + "\"}",
        "127,0,0,1:" + server.getPort() + ")/b 20260102030405 {\"url\": \"http://127.0.0.1:"
            + server.getPort() + "/b\", \"mime\": \"text/plain\", \"status\": \"200\", \"digest\": \"sha1:"
            + digestB + "\", \"length\": \"" + firstLength + "\", \"offset\": \""
            + locations.get(0).offset() + "\", \"filename\": \"" + warc.getFileName() + "\"}");
  }

  @Test
  void surt_hostReversedButIpv4KeptInOrder() {
    assertThat(CdxjIndex.surt("http://www.Example.com/a/b?x=1"))
        .isEqualTo("com,example)/a/b?x=1");
    assertThat(CdxjIndex.surt("http://10.1.2.3:8080/p")).isEqualTo("10,1,2,3:8080)/p");
  }

  @Test
  void write_fromManyThreads_eachRequestFollowedByItsResponse() throws Exception {
    int pages = 40;
    List<FetchResult> fetched = new ArrayList<>();
    for (int i = 0; i < pages; i++) {
      fetched.add(page("/t" + i, 2000));
    }
    WarcArchive.Location location;
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try (WarcArchive archive = open(WarcArchiveTest.settings(dir))) {
      List<Future<?>> writes = new ArrayList<>();
      for (FetchResult result : fetched) {
        writes.add(pool.submit(() -> archive.write(result)));
      }
      for (Future<?> write : writes) {
        write.get();
      }
      location = archive.write(page("/last", 10)).orElseThrow();
    } finally {
      pool.shutdown();
    }

    List<Read> records = ReadWarc.records(dir.resolve(location.file()));
    assertThat(records).hasSize(1 + 2 * (pages + 1));
    for (int i = 1; i < records.size(); i += 2) {
      WarcCaptureRecord request = (WarcCaptureRecord) records.get(i).record();
      WarcCaptureRecord response = (WarcCaptureRecord) records.get(i + 1).record();
      assertThat(request.type()).isEqualTo("request");
      assertThat(response.concurrentTo()).containsExactly(request.id());
      assertThat(response.target()).isEqualTo(request.target());
    }
  }
}
