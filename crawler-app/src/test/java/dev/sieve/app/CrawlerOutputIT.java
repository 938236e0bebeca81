package dev.sieve.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sieve.testing.TestSite;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs the packaged crawler against loopback sites the ways that used to destroy output: two runs
 * on one output, state directories that are not a whole crawl, unwritable and full outputs.
 */
class CrawlerOutputIT {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;

  private CrawlerJar jar() {
    return new CrawlerJar(dir);
  }

  @Test
  void crawl_secondRunOnTheOutputOfARunningCrawl_isRefusedAndLeavesItsRecordsWhole() throws Exception {
    try (TestSite site = TestSite.start(200)) {
      Path seeds = seeds(site.url("/p/0.html"));
      CrawlerJar jar = jar();
      CrawlerJar.Started first = jar.start("crawl", "--seeds", seeds.toString(), "--output", "crawl.jsonl",
          "--delay-ms", "100", "--expected-urls", "10000");
      JsonlFiles.awaitLines(dir.resolve("crawl.jsonl"), 5, first.process());

      CrawlerJar.Run second = jar.run("crawl", "--seeds", seeds.toString(), "--output", "crawl.jsonl",
          "--delay-ms", "0", "--expected-urls", "10000", "--overwrite");

      assertThat(second.exitCode()).isEqualTo(2);
      assertThat(second.stderr()).startsWith("output crawl.jsonl is in use by another crawl")
          .hasLineCount(1);
      first.process().destroy(); // SIGTERM: the first run stops cleanly
      CrawlerJar.Run firstRun = first.finish();
      assertThat(firstRun.exitCode()).isEqualTo(143);
      List<JsonNode> records = records(dir.resolve("crawl.jsonl"));
      assertThat(records).hasSizeGreaterThanOrEqualTo(5);
      assertThat(Files.readAllBytes(dir.resolve("crawl.jsonl"))).doesNotContain((byte) 0);
      assertThat(firstRun.stdout()).contains("Crawl summary")
          .contains("pages:             " + records.size() + " ");
    }
  }

  @Test
  void crawl_secondRunOnAFinishedOutput_isRefusedUnlessOverwrite() throws Exception {
    try (TestSite site = TestSite.start(200)) {
      Path seeds = seeds(site.url("/p/0.html"));
      CrawlerJar jar = jar();
      assertThat(jar.run("crawl", "--seeds", seeds.toString(), "--output", "crawl.jsonl",
          "--delay-ms", "0", "--max-pages", "5").exitCode()).isZero();
      byte[] before = Files.readAllBytes(dir.resolve("crawl.jsonl"));

      CrawlerJar.Run refused = jar.run("crawl", "--seeds", seeds.toString(), "--output", "crawl.jsonl",
          "--delay-ms", "0", "--max-pages", "3");
      byte[] after = Files.readAllBytes(dir.resolve("crawl.jsonl"));
      CrawlerJar.Run replaced = jar.run("crawl", "--seeds", seeds.toString(), "--output", "crawl.jsonl",
          "--delay-ms", "0", "--max-pages", "3", "--overwrite");

      assertThat(refused.exitCode()).isEqualTo(2);
      assertThat(refused.stderr()).startsWith("output crawl.jsonl already holds 5 line(s)").contains("--overwrite")
          .hasLineCount(1);
      assertThat(after).isEqualTo(before);
      assertThat(replaced.exitCode()).as(replaced.stderr()).isZero();
      assertThat(records(dir.resolve("crawl.jsonl"))).hasSize(3);
    }
  }

  @Test
  void crawl_stateDirectoryWithoutSettings_isRefusedUntilFresh() throws Exception {
    try (TestSite site = TestSite.start(50)) {
      Path seeds = seeds(site.url("/p/0.html"));
      Path state = Files.createDirectories(dir.resolve("state"));
      Files.writeString(state.resolve("journal-0.log"), "");
      Files.writeString(dir.resolve("crawl.jsonl"), "{\"url\":\"http://earlier.example/\"}\n");
      CrawlerJar jar = jar();

      CrawlerJar.Run refused = jar.run("crawl", "--seeds", seeds.toString(), "--state", "state",
          "--delay-ms", "0");
      String untouched = Files.readString(dir.resolve("crawl.jsonl"));
      CrawlerJar.Run fresh = jar.run("crawl", "--seeds", seeds.toString(), "--state", "state",
          "--delay-ms", "0", "--fresh", "--overwrite");

      assertThat(refused.exitCode()).isEqualTo(2);
      assertThat(refused.stderr()).contains("state directory state is not a complete Sieve crawl state:"
          + " settings.properties is missing (it holds journal-0.log)").contains("--fresh");
      assertThat(untouched).isEqualTo("{\"url\":\"http://earlier.example/\"}\n");
      assertThat(fresh.exitCode()).as(fresh.stderr()).isZero();
      assertThat(state.resolve("settings.properties")).exists();
    }
  }

  @Test
  void crawl_stateDirectoryWithUnreadableSettings_isRefused() throws Exception {
    Path seeds = seeds("http://127.0.0.1:9/");
    Path state = Files.createDirectories(dir.resolve("state"));
    Files.writeString(state.resolve("settings.properties"), "filter=blocked\n");

    CrawlerJar.Run refused = jar().run("crawl", "--seeds", seeds.toString(), "--state", "state");

    assertThat(refused.exitCode()).isEqualTo(2);
    assertThat(refused.stderr()).contains("settings.properties lacks expected-urls, fpp, hash-id");
    assertThat(dir.resolve("crawl.jsonl")).doesNotExist();
  }

  @Test
  void crawl_outputOrStateUnderARegularFile_isOneLineAndExit74() throws Exception {
    // Root writes through chmod; a path through a regular file fails for everyone.
    Path seeds = seeds("http://127.0.0.1:9/");
    Files.writeString(dir.resolve("taken"), "a file, not a directory\n");
    CrawlerJar jar = jar();

    CrawlerJar.Run output = jar.run("crawl", "--seeds", seeds.toString(), "--output", "taken/crawl.jsonl");
    CrawlerJar.Run state = jar.run("crawl", "--seeds", seeds.toString(), "--state", "taken/state");

    assertThat(output.exitCode()).isEqualTo(CrawlCommand.EXIT_IO);
    assertThat(output.stderr().strip()).isEqualTo("cannot write taken/crawl.jsonl: a file is in the way: "
        + dir.resolve("taken").toRealPath());
    assertThat(state.exitCode()).isEqualTo(CrawlCommand.EXIT_IO);
    assertThat(state.stderr()).startsWith("cannot use state directory taken/state: Not a directory")
        .hasLineCount(1);
    assertThat(dir.resolve("crawl.jsonl")).as("the refused run leaves no output behind").doesNotExist();
  }

  @Test
  void crawl_readOnlyDirectory_isPermissionDeniedAndExit74() throws Exception {
    Path readOnly = Files.createDirectories(dir.resolve("ro"));
    Path seeds = seeds("http://127.0.0.1:9/");
    // Run as nobody when the test runs as root, for whom chmod stops no write.
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
    Files.setPosixFilePermissions(seeds, PosixFilePermissions.fromString("rw-r--r--"));
    Files.setPosixFilePermissions(readOnly, PosixFilePermissions.fromString("r-xr-xr-x"));
    Path writable = Files.createDirectories(dir.resolve("rw"));
    Files.setPosixFilePermissions(writable, PosixFilePermissions.fromString("rwxrwxrwx"));
    try {
      CrawlerJar jar = jar().unprivileged();

      CrawlerJar.Run output = jar.run("crawl", "--seeds", seeds.toString(), "--output", "ro/crawl.jsonl");
      CrawlerJar.Run state = jar.run("crawl", "--seeds", seeds.toString(), "--state", "ro/state",
          "--output", "rw/crawl.jsonl");

      assertThat(output.exitCode()).as(output.stderr()).isEqualTo(CrawlCommand.EXIT_IO);
      assertThat(output.stderr().strip()).isEqualTo("cannot write ro/crawl.jsonl: permission denied");
      assertThat(state.exitCode()).as(state.stderr()).isEqualTo(CrawlCommand.EXIT_IO);
      assertThat(state.stderr()).startsWith("cannot use state directory ro/state: permission denied")
          .hasLineCount(1);
    } finally {
      Files.setPosixFilePermissions(readOnly, PosixFilePermissions.fromString("rwxr-xr-x"));
    }
  }

  @Test
  void crawl_fullDisk_stopsWithOneLineTheSummaryAndExit74() throws Exception {
    // /dev/full fails every write with ENOSPC, as a full file system does.
    org.junit.jupiter.api.Assumptions.assumeTrue(Files.isWritable(Path.of("/dev/full")), "/dev/full");
    try (TestSite site = TestSite.start(200)) {
      Path seeds = seeds(site.url("/p/0.html"));
      long started = System.nanoTime();

      CrawlerJar.Run run = jar().run("crawl", "--seeds", seeds.toString(), "--output", "/dev/full",
          "--delay-ms", "0");

      assertThat(run.exitCode()).isEqualTo(CrawlCommand.EXIT_IO);
      assertThat(run.stderr()).contains("Stopping the crawl: cannot write /dev/full: No space left on device")
          .doesNotContain("Exception").doesNotContain("\tat ");
      assertThat(run.stdout()).contains("Crawl summary").contains("pages:             0 ");
      // No 40 s wait for a shutdown that never comes (a generous bound, JVM start included).
      assertThat(TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started)).isLessThan(30);
    }
  }

  @Test
  void crawl_resumeAfterACrashMidLine_cutsThePartialLineWithAWarning() throws Exception {
    try (TestSite site = TestSite.start(200)) {
      Path seeds = seeds(site.url("/p/0.html"));
      CrawlerJar jar = jar();
      assertThat(jar.run("crawl", "--seeds", seeds.toString(), "--state", "state", "--delay-ms", "0",
          "--max-pages", "10").exitCode()).isZero();
      String partial = "{\"url\":\"" + site.url("/p/199.html") + "\",\"sta";
      Files.writeString(dir.resolve("crawl.jsonl"), partial, StandardOpenOption.APPEND);

      // --max-pages counts the pages of this run: 10 more.
      CrawlerJar.Run resumed = jar.run("crawl", "--seeds", seeds.toString(), "--state", "state",
          "--delay-ms", "0", "--max-pages", "10");

      assertThat(resumed.exitCode()).as(resumed.stderr()).isZero();
      assertThat(resumed.stderr()).contains("ended in a partial line of " + partial.length() + " bytes");
      List<JsonNode> records = records(dir.resolve("crawl.jsonl"));
      assertThat(records).hasSize(20);
      assertThat(records.stream().map(r -> r.get("url").asText()).distinct()).hasSize(20);
      assertThat(resumed.stdout()).contains("pages:             20 ");
    }
  }

  @Test
  void crawl_resumeWithChangedSeeds_isRefusedWithTheDifferenceUnlessAddSeeds() throws Exception {
    try (TestSite site = TestSite.start(200)) {
      Path seeds = seeds(site.url("/p/0.html"), site.url("/p/1.html"));
      CrawlerJar jar = jar();
      assertThat(jar.run("crawl", "--seeds", seeds.toString(), "--state", "state", "--delay-ms", "0",
          "--max-pages", "5").exitCode()).isZero();
      Path changed = seeds(site.url("/p/0.html"), site.url("/p/150.html"), site.url("/p/151.html"));
      byte[] before = Files.readAllBytes(dir.resolve("crawl.jsonl"));

      CrawlerJar.Run refused = jar.run("crawl", "--seeds", changed.toString(), "--state", "state",
          "--delay-ms", "0", "--max-pages", "10");
      byte[] after = Files.readAllBytes(dir.resolve("crawl.jsonl"));
      CrawlerJar.Run added = jar.run("crawl", "--seeds", changed.toString(), "--state", "state",
          "--delay-ms", "0", "--add-seeds");

      assertThat(refused.exitCode()).isEqualTo(2);
      assertThat(refused.stderr()).contains("the seed file differs from the saved crawl's: 2 seeds added,"
          + " 1 removed (first added: " + site.url("/p/150.html") + "; first removed: "
          + site.url("/p/1.html") + ")").contains("--add-seeds");
      assertThat(after).isEqualTo(before);
      assertThat(added.exitCode()).as(added.stderr()).isZero();
      List<String> urls = records(dir.resolve("crawl.jsonl")).stream().map(r -> r.get("url").asText()).toList();
      assertThat(urls).doesNotHaveDuplicates()
          .contains(site.url("/p/150.html"), site.url("/p/151.html"), site.url("/p/1.html"));
      assertThat(urls).hasSize(site.reachablePaths(Integer.MAX_VALUE).size());
    }
  }

  @Test
  void crawl_seedFileWithByteOrderMark_keepsTheFirstSeed() throws Exception {
    try (TestSite site = TestSite.start(20)) {
      Path seeds = dir.resolve("seeds.txt");
      Files.write(seeds, ("\uFEFF" + site.url("/p/3.html") + "\n").getBytes(StandardCharsets.UTF_8));

      CrawlerJar.Run run = jar().run("crawl", "--seeds", seeds.toString(), "--delay-ms", "0",
          "--max-depth", "0");

      assertThat(run.exitCode()).as(run.stderr()).isZero();
      assertThat(run.stderr()).doesNotContain("skipped");
      assertThat(records(dir.resolve("crawl.jsonl"))).extracting(r -> r.get("url").asText())
          .containsExactly(site.url("/p/3.html"));
    }
  }

  @Test
  void crawl_withoutAConsole_logsProgressLinesEveryInterval() throws Exception {
    try (TestSite site = TestSite.start(30)) {
      Path seeds = seeds(site.url("/p/0.html"));

      CrawlerJar.Run run = jar().run("crawl", "--seeds", seeds.toString(), "--delay-ms", "100",
          "--progress-interval", "1");

      assertThat(run.exitCode()).as(run.stderr()).isZero();
      assertThat(run.stderr().lines().filter(l -> l.contains("INFO  dev.sieve.progress - ")).count())
          .isGreaterThanOrEqualTo(2);
    }
  }

  private Path seeds(String... urls) throws IOException {
    Path file = dir.resolve("seeds-" + urls.length + "-" + Math.abs(String.join(" ", urls).hashCode()) + ".txt");
    return Files.writeString(file, String.join("\n", urls) + "\n");
  }

  private static List<JsonNode> records(Path file) throws IOException {
    List<JsonNode> records = new ArrayList<>();
    for (String line : Files.readAllLines(file)) {
      records.add(JSON.readTree(line));
    }
    return records;
  }
}
