package dev.sieve.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sieve.crawl.PageRecord;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The output is written in whole lines, and a failing disk leaves no partial one. */
class JsonlOutputTest {
  @TempDir Path dir;

  @Test
  void onPage_diskFullMidLine_cutsTheLineOffAndFailsEveryLaterRecord() throws Exception {
    Path file = dir.resolve("crawl.jsonl");
    // The disk takes the first record and half the second.
    int one = PageRecordJson.encode(record("http://a.example/1")).length;
    FileChannel channel = new FullAfter(FileChannel.open(file, StandardOpenOption.CREATE,
        StandardOpenOption.READ, StandardOpenOption.WRITE), one + one / 2);
    try (JsonlOutput output = new JsonlOutput(file, channel, null, true)) {
      output.onPage(record("http://a.example/1"));

      assertThatThrownBy(() -> output.onPage(record("http://a.example/2")))
          .isInstanceOf(UncheckedIOException.class)
          .hasMessage("cannot write " + file + ": No space left on device");
      assertThatThrownBy(() -> output.onPage(record("http://a.example/3")))
          .hasMessage("cannot write " + file + ": No space left on device");
    }
    String written = Files.readString(file);
    assertThat(written).endsWith("\n").contains("http://a.example/1").doesNotContain("http://a.example/2");
    assertThat(written.lines()).hasSize(1);
  }

  @Test
  void append_partialLastLine_isCutAndRecordedBeforeIgnoresIt() throws Exception {
    Path file = dir.resolve("crawl.jsonl");
    String whole = new String(PageRecordJson.encode(record("http://a.example/1")), StandardCharsets.UTF_8);
    Files.writeString(file, whole + "{\"url\":\"http://a.example/2\",\"sta");
    try (JsonlOutput output = JsonlOutput.open(file)) {
      Map<String, PageRecord> recorded =
          output.recordedBefore(Set.of("http://a.example/1", "http://a.example/2", "http://a.example/3"));
      assertThat(recorded).containsOnlyKeys("http://a.example/1");
      assertThat(recorded.get("http://a.example/1").bytes()).isEqualTo(1234);

      output.append();
      output.onPage(record("http://a.example/2"));
    }
    assertThat(Files.readString(file).lines()).hasSize(2).allMatch(l -> l.startsWith("{") && l.endsWith("}"));
  }

  @Test
  void open_fileLockedByAnotherOutput_isRefusedAndLeftAlone() throws Exception {
    Path file = dir.resolve("crawl.jsonl");
    Files.writeString(file, "{\"url\":\"http://a.example/\"}\n");
    try (JsonlOutput first = JsonlOutput.open(file)) {
      assertThatThrownBy(() -> JsonlOutput.open(file)).isInstanceOf(JsonlOutput.InUseException.class)
          .hasMessage("output " + file + " is in use by another crawl");
    }
    assertThat(Files.readString(file)).isEqualTo("{\"url\":\"http://a.example/\"}\n");
  }

  @Test
  void close_createdByARefusedRun_removesTheFileButARunThatTookItKeepsIt() throws Exception {
    Path refused = dir.resolve("refused.jsonl");
    Path ran = dir.resolve("ran.jsonl");
    JsonlOutput.open(refused).close();
    try (JsonlOutput output = JsonlOutput.open(ran)) {
      output.replace(); // the run went on, and recorded nothing
    }

    assertThat(refused).doesNotExist();
    assertThat(ran).exists().isEmptyFile();
  }

  @Test
  void recordedBefore_readsBackEveryFieldWritten() throws Exception {
    Path file = dir.resolve("crawl.jsonl");
    PageRecord full = PageRecord.builder("http://a.example/old", Instant.parse("2026-01-01T00:00:01Z"))
        .found(2, "http://a.example/sitemap.xml", Instant.parse("2025-12-31T10:00:00Z"))
        .response(301, "text/html", 12, 34)
        .links(1, 1, null)
        .redirect("http://a.example/new")
        .error(null, null)
        .payload("127.0.0.1", "3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ")
        .warc(new PageRecord.WarcLocation("SIEVE-20260101000000000-00000-h.warc.gz", 1234))
        .build();
    PageRecord seed = record("http://a.example/");
    Files.write(file, concat(PageRecordJson.encode(full), PageRecordJson.encode(seed)));
    try (JsonlOutput output = JsonlOutput.open(file)) {
      Map<String, PageRecord> recorded =
          output.recordedBefore(Set.of("http://a.example/old", "http://a.example/"));

      assertThat(recorded.get("http://a.example/old")).isEqualTo(full);
      assertThat(recorded.get("http://a.example/")).usingRecursiveComparison().isEqualTo(seed);
    }
  }

  @Test
  void recordedBefore_urlRefetched_givesItsLatestRecord() throws Exception {
    Path file = dir.resolve("crawl.jsonl");
    PageRecord first = record("http://a.example/");
    PageRecord refetch = PageRecord.builder("http://a.example/", Instant.parse("2026-01-01T00:01:00Z"))
        .found(1, null, null)
        .response(304, null, 0, 3)
        .error("not-modified", null)
        .refetch(1)
        .build();
    Files.write(file, concat(PageRecordJson.encode(first), PageRecordJson.encode(refetch)));
    try (JsonlOutput output = JsonlOutput.open(file)) {
      assertThat(output.recordedBefore(Set.of("http://a.example/")).get("http://a.example/"))
          .isEqualTo(refetch);
    }
  }

  @Test
  void encode_absentFields_areWrittenAsNullNotLeftOut() {
    String line = new String(PageRecordJson.encode(record("http://a.example/")), StandardCharsets.UTF_8);

    assertThat(line).contains("\"via\":null", "\"redirect\":null", "\"ip\":null", "\"sha1\":null",
        "\"warc\":null", "\"lastmod\":null", "\"links\":null", "\"refetch\":0");
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] both = java.util.Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, both, a.length, b.length);
    return both;
  }

  private static PageRecord record(String url) {
    return PageRecord.builder(url, Instant.parse("2026-01-01T00:00:00Z"))
        .found(1, null, null)
        .response(200, "text/html", 1234, 56)
        .links(7, 3, null)
        .build();
  }

  /** A file channel on a disk that is full once {@code capacity} bytes are written. */
  private static final class FullAfter extends FileChannel {
    private final FileChannel file;
    private final long capacity;

    FullAfter(FileChannel file, long capacity) {
      this.file = file;
      this.capacity = capacity;
    }

    @Override
    public int write(ByteBuffer src, long position) throws IOException {
      long room = capacity - position;
      if (room <= 0) {
        throw new IOException("No space left on device");
      }
      if (src.remaining() > room) {
        ByteBuffer part = src.duplicate();
        part.limit(part.position() + (int) room);
        int n = file.write(part, position);
        src.position(src.position() + n);
        return n; // a short write; the next one fails
      }
      return file.write(src, position);
    }

    @Override
    public int read(ByteBuffer dst, long position) throws IOException {
      return file.read(dst, position);
    }

    @Override
    public long size() throws IOException {
      return file.size();
    }

    @Override
    public FileChannel truncate(long size) throws IOException {
      file.truncate(size);
      return this;
    }

    @Override
    protected void implCloseChannel() throws IOException {
      file.close();
    }

    // The rest is not used by JsonlOutput.
    // @formatter:off
    @Override public int read(ByteBuffer dst) { throw unused(); }
    @Override public long read(ByteBuffer[] dsts, int offset, int length) { throw unused(); }
    @Override public int write(ByteBuffer src) { throw unused(); }
    @Override public long write(ByteBuffer[] srcs, int offset, int length) { throw unused(); }
    @Override public long position() { throw unused(); }
    @Override public FileChannel position(long newPosition) { throw unused(); }
    @Override public void force(boolean metaData) { throw unused(); }
    @Override public long transferTo(long position, long count, WritableByteChannel target) { throw unused(); }
    @Override public long transferFrom(ReadableByteChannel src, long position, long count) { throw unused(); }
    @Override public MappedByteBuffer map(MapMode mode, long position, long size) { throw unused(); }
    @Override public FileLock lock(long position, long size, boolean shared) { throw unused(); }
    @Override public FileLock tryLock(long position, long size, boolean shared) { throw unused(); }
    // @formatter:on

    private static UnsupportedOperationException unused() {
      return new UnsupportedOperationException("not used by JsonlOutput");
    }
  }
}
