package dev.sieve.frontier.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.sieve.crawl.CrawlConfig;
import dev.sieve.crawl.CrawlListener;
import dev.sieve.crawl.CrawlProgress;
import dev.sieve.crawl.Crawler;
import dev.sieve.crawl.PageRecord;
import dev.sieve.testing.CapturedLogs;
import dev.sieve.testing.TestSite;
import dev.sieve.url.Url;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CrawlStateTest {
  @TempDir Path state;

  @Test
  void resume_afterStops_fetchesTheRestAndEachUrlOnce() throws Exception {
    try (TestSite site = TestSite.start(400)) {
      List<PageRecord> records = new CopyOnWriteArrayList<>();
      CrawlProgress first = crawl(site, records, b -> b.maxPages(60));
      CrawlProgress second = crawl(site, records, b -> b.maxPages(60));
      CrawlProgress last = crawl(site, records, b -> b);

      assertThat(first.pages()).isEqualTo(60);
      assertThat(second.pages()).as("counters go on from the checkpoint").isEqualTo(120);
      Set<String> expected = site.reachablePaths(Integer.MAX_VALUE);
      assertThat(paths(records)).hasSameElementsAs(expected);
      assertThat(records).hasSameSizeAs(expected);
      Map<String, Integer> counts = new HashMap<>(site.requestCounts());
      counts.remove("/robots.txt");
      assertThat(counts.values()).containsOnly(1);
      assertThat(last.pages()).isEqualTo(expected.size());
    }
  }

  @Test
  void resume_afterStops_everyRecordKeepsTheUrlItWasFoundThrough() throws Exception {
    try (TestSite site = TestSite.start(300)) {
      List<PageRecord> records = new CopyOnWriteArrayList<>();
      crawl(site, records, b -> b.maxPages(40));
      int firstRun = records.size();
      crawl(site, records, b -> b);

      Map<String, PageRecord> byUrl = records.stream()
          .collect(Collectors.toMap(PageRecord::url, r -> r));
      String seed = site.url("/p/0.html");
      assertThat(byUrl.get(seed).via()).isNull();
      List<PageRecord> resumed = records.subList(firstRun, records.size());
      assertThat(resumed).isNotEmpty().allSatisfy(record -> {
        // Found before the stop, fetched after it: the referrer came back with the frontier.
        PageRecord from = byUrl.get(record.via());
        assertThat(from).as("the record of %s's via %s", record.url(), record.via()).isNotNull();
        if (record.url().equals(from.redirect())) {
          assertThat(record.depth()).isEqualTo(from.depth());
        } else {
          assertThat(record.depth()).isEqualTo(from.depth() + 1);
        }
      });
    }
  }

  @Test
  void resume_withAChangedFilterSize_refusedWithTheSettingNamed() throws Exception {
    try (TestSite site = TestSite.start(50)) {
      crawl(site, new CopyOnWriteArrayList<>(), b -> b.maxPages(5));

      assertThatThrownBy(() -> crawl(site, new CopyOnWriteArrayList<>(), b -> b.expectedUrls(12_345)))
          .isInstanceOf(CrawlStateException.class)
          .hasMessageContaining("expected-urls 12345 (the saved crawl has 100000)")
          .hasMessageContaining("--fresh");
    }
  }

  @Test
  void fresh_overExistingState_startsOver() throws Exception {
    try (TestSite site = TestSite.start(50)) {
      crawl(site, new CopyOnWriteArrayList<>(), b -> b.maxPages(5));
      List<PageRecord> again = new CopyOnWriteArrayList<>();

      CrawlProgress progress = crawl(site, again, b -> b.maxPages(5).freshState(true));

      assertThat(progress.pages()).isEqualTo(5);
      assertThat(again).extracting(PageRecord::url).contains(site.url("/p/0.html"));
    }
  }

  @Test
  void resume_newestCheckpointDamaged_fallsBackToThePreviousOne() throws Exception {
    try (TestSite site = TestSite.start(300)) {
      List<PageRecord> records = new CopyOnWriteArrayList<>();
      crawl(site, records, b -> b.maxPages(40));
      crawl(site, records, b -> b.maxPages(40));
      Path newest = newestCheckpoint();
      byte[] filter = Files.readAllBytes(newest.resolve("filter.bin"));
      filter[filter.length / 2] ^= 1;
      Files.write(newest.resolve("filter.bin"), filter);

      crawl(site, records, b -> b);

      Set<String> expected = site.reachablePaths(Integer.MAX_VALUE);
      assertThat(paths(records)).hasSameElementsAs(expected);
      assertThat(records).hasSameSizeAs(expected);
    }
  }

  @Test
  void resume_everyCheckpointDamaged_stopsNamingTheFileAndProblem() throws Exception {
    try (TestSite site = TestSite.start(50)) {
      crawl(site, new CopyOnWriteArrayList<>(), b -> b.maxPages(5));
      crawl(site, new CopyOnWriteArrayList<>(), b -> b.maxPages(5));
      try (Stream<Path> files = Files.walk(state)) {
        for (Path frontier : files.filter(p -> p.getFileName().toString().equals("frontier.bin")).toList()) {
          Files.write(frontier, new byte[] {1, 2, 3});
        }
      }
      try (Stream<Path> files = Files.list(state)) {
        for (Path journal : files.filter(p -> p.getFileName().toString().equals("journal-0.log")).toList()) {
          Files.delete(journal);
        }
      }

      assertThatThrownBy(() -> crawl(site, new CopyOnWriteArrayList<>(), b -> b))
          .isInstanceOf(CrawlStateException.class)
          .hasMessageContaining("frontier.bin has 3 bytes, the manifest says");
    }
  }

  @ParameterizedTest(name = "{0}, {1}")
  @CsvSource({
    "filter.bin, truncate", "filter.bin, flip",
    "frontier.bin, truncate", "frontier.bin, flip",
    "counters.properties, truncate", "counters.properties, flip",
    "MANIFEST, truncate", "MANIFEST, flip",
  })
  void resume_newestCheckpointFileDamaged_fallsBackAndLosesNothing(String file, String damage)
      throws Exception {
    try (TestSite site = TestSite.start(200)) {
      List<PageRecord> records = new CopyOnWriteArrayList<>();
      crawl(site, records, b -> b.maxPages(30));
      crawl(site, records, b -> b.maxPages(30));
      damage(newestCheckpoint().resolve(file), damage);
      try (CapturedLogs logs = new CapturedLogs(CrawlState.class.getName())) {
        crawl(site, records, b -> b);

        assertThat(logs.messages()).anyMatch(m -> m.contains("is unusable") && m.contains(file));
      }
      Set<String> expected = site.reachablePaths(Integer.MAX_VALUE);
      assertThat(paths(records)).hasSameElementsAs(expected);
      assertThat(records).hasSameSizeAs(expected);
    }
  }

  @Test
  void resume_journalCutShort_resumesFromWhatItHoldsAndLosesNothing() throws Exception {
    try (TestSite site = TestSite.start(200)) {
      List<PageRecord> records = new CopyOnWriteArrayList<>();
      crawl(site, records, b -> b.maxPages(40));
      deleteCheckpoints();
      damage(state.resolve("journal-0.log"), "truncate");

      crawl(site, records, b -> b);

      // A cut journal is a crash at that point: pages whose completion was cut are fetched again.
      assertThat(paths(records)).hasSameElementsAs(site.reachablePaths(Integer.MAX_VALUE));
    }
  }

  @Test
  void resume_journalWithAFlippedByte_stopsNamingTheJournal() throws Exception {
    try (TestSite site = TestSite.start(200)) {
      crawl(site, new CopyOnWriteArrayList<>(), b -> b.maxPages(40));
      deleteCheckpoints();
      Path journal = state.resolve("journal-0.log");
      byte[] bytes = Files.readAllBytes(journal);
      bytes[bytes.length / 3] ^= 0x5a;
      Files.write(journal, bytes);

      assertThatThrownBy(() -> crawl(site, new CopyOnWriteArrayList<>(), b -> b))
          .isInstanceOf(CrawlStateException.class)
          .hasMessageContaining("corrupt journal " + journal);
    }
  }

  @Test
  void diskNearlyFull_noNewUrlIsTakenAndAWarningSaysWhy() throws Exception {
    try (TestSite site = TestSite.start(50);
        CapturedLogs logs = new CapturedLogs(Checkpointer.class.getName())) {
      List<PageRecord> records = new CopyOnWriteArrayList<>();
      CrawlConfig config = CrawlConfig.builder()
          .seeds(List.of(Url.parse(site.url("/p/0.html")).orElseThrow()))
          .politenessDelay(Duration.ZERO)
          .stateDir(state)
          .diskReserveBytes(Long.MAX_VALUE)
          .build();
      Crawler crawler = Crawler.open(config, new CrawlListener() {
        @Override
        public void onPage(PageRecord record) {
          records.add(record);
        }
      });
      Thread run = new Thread(() -> {
        try {
          crawler.run();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      });
      run.start();
      try {
        assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
          while (logs.messages().stream().noneMatch(m -> m.startsWith("Disk nearly full"))) {
            run.join(10);
          }
        });
      } finally {
        crawler.stop();
        run.join(30_000);
      }
      assertThat(records).isEmpty();
      assertThat(site.requestCounts()).isEmpty();
    }
  }

  /** As if the process died before its first checkpoint: only the journals hold the crawl. */
  private void deleteCheckpoints() throws IOException {
    try (Stream<Path> entries = Files.list(state)) {
      for (Path checkpoint : entries.filter(p -> p.getFileName().toString().startsWith("checkpoint-")).toList()) {
        try (Stream<Path> files = Files.walk(checkpoint)) {
          for (Path f : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
            Files.delete(f);
          }
        }
      }
    }
  }

  private static void damage(Path file, String how) throws IOException {
    byte[] bytes = Files.readAllBytes(file);
    if (how.equals("truncate")) {
      Files.write(file, java.util.Arrays.copyOf(bytes, bytes.length / 2));
    } else {
      bytes[bytes.length / 2] ^= 0x20;
      Files.write(file, bytes);
    }
  }

  private Path newestCheckpoint() throws IOException {
    try (Stream<Path> entries = Files.list(state)) {
      return entries.filter(p -> p.getFileName().toString().matches("checkpoint-\\d+"))
          .max((a, b) -> Long.compare(index(a), index(b))).orElseThrow();
    }
  }

  private static long index(Path checkpoint) {
    return Long.parseLong(checkpoint.getFileName().toString().substring("checkpoint-".length()));
  }

  private CrawlProgress crawl(TestSite site, List<PageRecord> records,
      UnaryOperator<CrawlConfig.Builder> settings) throws InterruptedException {
    CrawlConfig config = settings.apply(CrawlConfig.builder()
            .seeds(List.of(Url.parse(site.url("/p/0.html")).orElseThrow()))
            .threads(4)
            .politenessDelay(Duration.ZERO)
            .maxInFlightPerHost(4)
            .expectedUrls(100_000)
            .stateDir(state))
        .build();
    return Crawler.open(config, new CrawlListener() {
      @Override
      public void onPage(PageRecord record) {
        records.add(record);
      }
    }).run();
  }

  private static Set<String> paths(List<PageRecord> records) {
    return records.stream().map(r -> URI.create(r.url()).getRawPath()).collect(Collectors.toSet());
  }
}
