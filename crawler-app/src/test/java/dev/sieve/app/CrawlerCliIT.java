package dev.sieve.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sieve.testing.TestSite;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Runs the packaged crawler.jar as a user would, against a generated site on loopback. */
class CrawlerCliIT {
  private static final Path JAR = Path.of(System.getProperty("crawler.jar", "target/crawler.jar"));
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;

  @Test
  void crawl_generatedSite_writesOneRecordPerReachableUrlAndExitsZero() throws Exception {
    try (TestSite site = TestSite.start(1000)) {
      Path seeds = write("seeds.txt", "# the site\n\n" + site.url("/p/0.html") + "\n");

      Result result = run("crawl", "--seeds", seeds.toString(), "--output", "out/crawl.jsonl",
          "--delay-ms", "0", "--per-host", "4", "--threads", "4", "--expected-urls", "100000");

      assertThat(result.exitCode).as(result.stderr).isZero();
      List<JsonNode> records = jsonl(dir.resolve("out/crawl.jsonl"));
      Set<String> paths = records.stream().map(r -> URI.create(r.get("url").asText()).getRawPath())
          .collect(Collectors.toSet());
      assertThat(paths).isEqualTo(site.reachablePaths(Integer.MAX_VALUE));
      assertThat(records).hasSize(paths.size());
      JsonNode first = records.stream().filter(r -> r.get("url").asText().endsWith("/p/0.html")).findFirst().orElseThrow();
      assertThat(fieldNames(first)).containsExactly(
          "url", "status", "depth", "via", "contentType", "bytes", "fetchMs", "outlinks", "newLinks", "redirect", "error",
          "cause", "ip", "protocol", "sha1", "warc", "lastmod", "fetchedAt", "links", "refetch");
      // The seed's 9 links: 2 junk hrefs, 1 to another origin, the rest new or seen; they add up.
      JsonNode links = first.get("links");
      assertThat(links.get("found").asInt()).isEqualTo(first.get("outlinks").asInt()).isEqualTo(9);
      assertThat(links.get("new").asInt()).isEqualTo(first.get("newLinks").asInt());
      assertThat(links.get("invalid").asInt()).isEqualTo(2);
      assertThat(links.get("out-of-scope").asInt()).isEqualTo(1);
      int fates = 0;
      for (String fate : fieldNames(links)) {
        fates += fate.equals("found") ? 0 : links.get(fate).asInt();
      }
      assertThat(fates).isEqualTo(9);
      assertThat(first.get("status").asInt()).isEqualTo(200);
      assertThat(first.get("depth").asInt()).isZero();
      assertThat(first.get("error").isNull()).isTrue();
      assertThat(Instant.parse(first.get("fetchedAt").asText())).isNotNull();
      assertThat(result.stdout).contains("Crawl summary").contains("pages:").contains("skipped seeds:     0")
          .containsPattern("links: +\\{found=[0-9,]+, new=[0-9,]+, seen=");
    }
  }

  @Test
  void crawl_maxPagesAndBadSeedLines_skipsLinesWithWarningsAndStopsAtLimit() throws Exception {
    try (TestSite site = TestSite.start(200)) {
      Path seeds = write("seeds.txt", "not a url\n" + site.url("/p/0.html") + "\nftp://files.example/\n");

      Result result = run("crawl", "--seeds", seeds.toString(), "--output", "crawl.jsonl",
          "--delay-ms", "0", "--max-pages", "7");

      assertThat(result.exitCode).as(result.stderr).isZero();
      assertThat(jsonl(dir.resolve("crawl.jsonl"))).hasSize(7);
      assertThat(result.stderr)
          .contains("seeds.txt:1: not an absolute http(s) URL, skipped: not a url")
          .contains("seeds.txt:3: not an absolute http(s) URL, skipped: ftp://files.example/");
      assertThat(result.stdout).contains("skipped seeds:     2");
    }
  }

  @Test
  void crawl_seedFileWithoutValidSeed_isUsageError() throws Exception {
    Path seeds = write("seeds.txt", "# nothing\n\njunk\n");

    Result result = run("crawl", "--seeds", seeds.toString());

    assertThat(result.exitCode).isEqualTo(2);
    assertThat(result.stderr).contains("No valid seed in").contains("1 line(s) skipped");
    assertThat(result.stderr).doesNotContain("Exception");
  }

  @Test
  void crawl_missingSeedFileOrUnknownOption_isUsageError() throws Exception {
    Result missing = run("crawl", "--seeds", "absent.txt");
    Result unknown = run("crawl", "--seeds", "absent.txt", "--bogus");

    assertThat(missing.exitCode).isEqualTo(2);
    assertThat(missing.stderr).contains("Seed file not found: absent.txt");
    assertThat(unknown.exitCode).isEqualTo(2);
    assertThat(unknown.stderr).contains("Unknown option: '--bogus'");
  }

  @Test
  void crawl_configFile_suppliesDefaultsAndCommandLineWins() throws Exception {
    try (TestSite site = TestSite.start(200)) {
      Path seeds = write("seeds.txt", site.url("/p/0.html") + "\n");
      Path config = write("my.properties", "max-pages=5\ndelay-ms=0\noutput=from-config.jsonl\n");

      Result result = run("crawl", "--config", config.toString(), "--seeds", seeds.toString(), "--max-pages", "3");

      assertThat(result.exitCode).as(result.stderr).isZero();
      assertThat(jsonl(dir.resolve("from-config.jsonl"))).hasSize(3);
    }
  }

  @Test
  void crawl_configFileWithUnknownKey_isUsageError() throws Exception {
    Path config = write("bad.properties", "max-pagez=5\n");

    Result result = run("crawl", "--config", config.toString(), "--seeds", "x.txt");

    assertThat(result.exitCode).isEqualTo(2);
    assertThat(result.stderr).contains("unknown setting 'max-pagez'");
  }

  @Test
  void crawl_maxRetryAfterOutOfRange_isUsageErrorNamingTheOption() throws Exception {
    Path seeds = write("seeds.txt", "http://127.0.0.1:9/\n");

    for (String seconds : List.of("-1", "86401")) {
      Result result = run("crawl", "--seeds", seeds.toString(), "--max-retry-after", seconds);

      assertThat(result.exitCode).as(seconds).isEqualTo(2);
      assertThat(result.stderr).contains("--max-retry-after (" + seconds + ") must be between 0 and 86400");
      assertThat(dir.resolve("crawl.jsonl")).doesNotExist();
    }
  }

  @Test
  void size_examples_printTextbookFigures() throws Exception {
    Result million = run("size", "--capacity", "1000000", "--fpp", "0.001");
    Result billion = run("size", "--capacity", "1000000000", "--fpp", "0.0001");

    assertThat(million.exitCode).isZero();
    assertThat(million.stdout).contains("14,377,588").contains("1.71 MiB").contains("k = 10");
    assertThat(billion.exitCode).isZero();
    assertThat(billion.stdout).contains("2.23 GiB").contains("2.40 GB").contains("minimum")
        .contains("1.66 GB").contains("cuckoo").contains("fewest hashes").contains("fpp at 2x");
  }

  @Test
  void helpAndVersion_exitZero() throws Exception {
    assertThat(run("--help").stdout).contains("crawl").contains("size");
    assertThat(run("crawl", "--help").stdout).contains("--max-pages").contains("--scope");
    assertThat(run("size", "--help").exitCode).isZero();
    assertThat(run("--version").stdout).contains("Sieve ");
  }

  @Test
  void version_namesTheVersionAndTheCommitItWasBuiltFrom() throws Exception {
    Result version = run("--version");

    assertThat(version.exitCode).isZero();
    assertThat(version.stdout.strip())
        .matches("Sieve \\d+\\.\\d+\\.\\d+(-SNAPSHOT)? \\(commit ([0-9a-f]{12}(-dirty)?|unknown)\\)");
  }

  @Test
  void noCommand_listsEveryCommand() throws Exception {
    Result result = run();

    assertThat(result.exitCode).isEqualTo(2);
    assertThat(result.stderr).contains("Missing command: one of crawl, demo, size, bench, serve (or help)");
  }

  @Test
  void configFileWithOneRunKeys_isUsageError() throws Exception {
    for (String key : List.of("help", "version", "fresh", "overwrite")) {
      Path config = write(key + ".properties", key + "=true\n");

      Result result = run("crawl", "--config", config.toString(), "--seeds", "x.txt");

      assertThat(result.exitCode).as(key).isEqualTo(2);
      assertThat(result.stderr).as(key).containsAnyOf(
          "'" + key + "' is not a crawl setting", "unknown setting '" + key + "'");
    }
  }

  @Test
  void invalidSettings_messagesNameTheOption() throws Exception {
    Path seeds = write("seeds.txt", "http://127.0.0.1:9/\n");

    assertThat(run("crawl", "--seeds", seeds.toString(), "--fpp", "0").stderr)
        .contains("Invalid setting: --fpp (0.0) must be in (0, 1)");
    assertThat(run("crawl", "--seeds", seeds.toString(), "--threads", "0").stderr)
        .contains("Invalid setting: --threads (0) must be >= 1");
    assertThat(run("crawl", "--seeds", seeds.toString(), "--per-host", "0").stderr)
        .contains("Invalid setting: --per-host (0) must be >= 1");
    assertThat(run("crawl", "--seeds", seeds.toString(), "--delay-ms", "-1").stderr)
        .contains("Invalid setting: --delay-ms (-1) must be >= 0");
  }

  @Test
  void invalidSettings_checkedBySettingsTypes_nameTheOptionAndTheValueAsGiven() throws Exception {
    Path seeds = write("seeds.txt", "http://127.0.0.1:9/\n");

    assertThat(run("crawl", "--seeds", seeds.toString(), "--max-crawl-delay", "-5").stderr)
        .contains("Invalid setting: --max-crawl-delay (-5) must be >= 0");
    assertThat(run("crawl", "--seeds", seeds.toString(), "--max-depth", "-1").stderr)
        .contains("Invalid setting: --max-depth (-1) must be >= 0");
    assertThat(run("crawl", "--seeds", seeds.toString(), "--max-outlinks", "-1").stderr)
        .contains("Invalid setting: --max-outlinks (-1) must be >= 0");
    assertThat(run("crawl", "--seeds", seeds.toString(), "--progress-interval", "0").stderr)
        .contains("Invalid setting: --progress-interval (0) must be >= 1");
    assertThat(dir.resolve("crawl.jsonl")).doesNotExist();
  }

  @Test
  void benchFrontier_smallRunWithTinyBudget_spillsAndVerifies() throws Exception {
    Result result = run("bench", "frontier", "--urls", "20000", "--hosts", "100",
        "--pending-memory", "65536", "--dir", dir.resolve("spill").toString());

    assertThat(result.exitCode).as(result.stderr).isZero();
    assertThat(result.stdout)
        .containsPattern("spill on disk peak +[1-9]")
        .contains("none (count and checksums match)")
        .containsPattern("per-host order +kept")
        .containsPattern("result +OK");
  }

  @Test
  void benchLinks_smallCorpus_everyPageAgreesAndIsTimed() throws Exception {
    Path corpus = Files.createDirectories(dir.resolve("corpus/sub"));
    write("corpus/a.html", "<a href=x.html>x</a><!-- <a href=hidden.html> -->");
    write("corpus/sub/b.html", "<base href=/b/><noscript><a href=n.html></noscript>");
    write("corpus/sub/c.html", "<svg><a href=s.html/></svg><script>'<a href=no.html>'</script>");
    write("corpus/notes.txt", "<a href=not-html.html>");

    Result result = run("bench", "links", "--corpus", dir.resolve("corpus").toString(),
        "--warmup", "2");

    assertThat(result.exitCode).as(result.stderr).isZero();
    assertThat(result.stdout)
        .containsPattern("corpus +3 +3 ")
        .contains("3 of 3 pages agree (100.000%); 3 links found");
    assertThat(corpus).isDirectory();
  }

  @Test
  void benchSieve_smallRun_reportsPutAndQueryRatiosOfEachRun() throws Exception {
    Result result = run("bench", "sieve", "--urls", "2e5", "--probes", "20000", "--runs", "2");

    assertThat(result.exitCode).as(result.stderr).isZero();
    assertThat(result.stdout)
        .containsPattern("run +sieve put/s +guava put/s +put × +sieve query/s +guava query/s"
            + " +query ×")
        .containsPattern("\\n +1 +[0-9.]+ [kM] +[0-9.]+ [kM] +[0-9.]+x +[0-9.]+ [kM]")
        .containsPattern("\\n +2 +[0-9.]+ [kM]")
        .containsPattern("median +[0-9.]+x +[0-9.]+x")
        .containsPattern("measured fpp")
        .containsPattern("guava +[0-9.]+ \\S+ +9\\.59")
        .containsPattern("\\nMachine: .+, [0-9]+ cores, load average -?[0-9.]+; Java: "
            + "\\Q" + System.getProperty("java.version") + "\\E \\(.+\\), max heap [0-9,]+ MiB\\n");
    assertThat(run("bench", "sieve", "--help").stdout).doesNotContain("Machine:");
    assertThat(run("bench", "sieve", "--urls", "1e8.5").stderr)
        .contains("'1e8.5' is not a whole number (e.g. 100000000 or 1e8)");
  }

  private record Result(int exitCode, String stdout, String stderr) {}

  private Result run(String... args) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx512m", "-jar", JAR.toAbsolutePath().toString()));
    command.addAll(List.of(args));
    Path stdout = dir.resolve("stdout.txt");
    Path stderr = dir.resolve("stderr.txt");
    Process process = new ProcessBuilder(command)
        .directory(dir.toFile())
        .redirectOutput(stdout.toFile())
        .redirectError(stderr.toFile())
        .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
        .start();
    if (!process.waitFor(120, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new AssertionError("crawler.jar did not finish in 120 s: " + command);
    }
    return new Result(process.exitValue(), Files.readString(stdout), Files.readString(stderr));
  }

  private Path write(String name, String content) throws IOException {
    return Files.writeString(dir.resolve(name), content, StandardCharsets.UTF_8);
  }

  private static List<JsonNode> jsonl(Path file) throws IOException {
    List<JsonNode> records = new ArrayList<>();
    for (String line : Files.readAllLines(file)) {
      records.add(JSON.readTree(line));
    }
    return records;
  }

  private static List<String> fieldNames(JsonNode node) {
    List<String> names = new ArrayList<>();
    node.fieldNames().forEachRemaining(names::add);
    return names;
  }
}
