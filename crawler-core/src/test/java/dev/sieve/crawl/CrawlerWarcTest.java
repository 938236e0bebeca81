package dev.sieve.crawl;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sieve.testing.ReadWarc;
import dev.sieve.testing.ReadWarc.Read;
import dev.sieve.testing.TestSite;
import dev.sieve.warc.WarcSettings;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A crawl with --warc: every fetch archived, robots.txt included. */
class CrawlerWarcTest {
  @TempDir Path dir;

  @Test
  void crawl_withWarc_everyRecordedFetchHasAResponseAndRobotsIsArchived() throws Exception {
    List<PageRecord> records = new ArrayList<>();
    try (TestSite site = TestSite.start(60)) {
      CrawlConfig config = RecordedCrawl.defaults(site.url("/p/0.html"))
          .warc(WarcSettings.builder(dir).host("test").maxFileBytes(64 * 1024).index(true).build())
          .build();
      RecordedCrawl.run(config, records, new ArrayList<>());

      Set<String> archived = new HashSet<>();
      List<Path> files;
      try (Stream<Path> list = Files.list(dir)) {
        files = list.filter(f -> f.toString().endsWith(".warc.gz")).sorted().toList();
      }
      assertThat(files).hasSizeGreaterThan(1); // rotated
      for (Path file : files) {
        List<Read> read = ReadWarc.records(file);
        assertThat(read.get(0).type()).isEqualTo("warcinfo");
        assertThat(new String(read.get(0).block(), StandardCharsets.UTF_8)).contains("robots: obey");
        for (Read record : read) {
          if (record.type().equals("response") || record.type().equals("revisit")) {
            archived.add(record.header("WARC-Target-URI").orElseThrow());
          }
        }
        assertThat(Files.exists(dir.resolve(file.getFileName().toString().replace(".warc.gz", ".cdxj"))))
            .isTrue();
      }
      assertThat(archived).contains(site.url("/robots.txt"));
      assertThat(records).filteredOn(r -> r.status() > 0).isNotEmpty()
          .allSatisfy(r -> assertThat(archived).contains(r.url()));
      try (Stream<Path> list = Files.list(dir)) {
        assertThat(list.filter(f -> f.toString().endsWith(".open"))).isEmpty();
      }
    }
  }

  @Test
  void crawl_warcDirectoryGoneMidCrawl_stopsWithOneLineNamingTheFile() throws Exception {
    Path warc = dir.resolve("warc");
    try (TestSite site = TestSite.start(200)) {
      CrawlConfig config = RecordedCrawl.defaults(site.url("/p/0.html"))
          .warc(WarcSettings.builder(warc).host("test").maxFileBytes(16 * 1024).build())
          .build();
      AtomicBoolean removed = new AtomicBoolean();
      Crawler crawler = Crawler.open(config, new CrawlListener() {
        @Override
        public void onPage(PageRecord record) {
          if (removed.compareAndSet(false, true)) {
            deleteTree(warc); // the next file cannot be created
          }
        }
      });

      CrawlProgress summary = crawler.run();

      // Rotation fails on the first file's rename (its directory is gone).
      assertThat(crawler.failure()).hasValueSatisfying(failure -> assertThat(failure)
          .startsWith("cannot close WARC file " + warc.resolve("sieve-"))
          .endsWith(".warc.gz.open: no such file or directory"));
      assertThat(summary.pages()).isLessThan(200);
    }
  }

  private static void deleteTree(Path root) {
    try (Stream<Path> files = Files.walk(root)) {
      for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(file);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
