package dev.sieve.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sieve.testing.RedisServers;
import dev.sieve.testing.TestSite;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three packaged crawler processes share one crawl through a real redis-server: together they
 * fetch every reachable page once, survive one of them being killed, and keep per-host spacing.
 * A crawl rides out the redis-server being killed and started again.
 */
class RedisCrawlIT {
  private static final Path JAR = Path.of(System.getProperty("crawler.jar", "target/crawler.jar"));
  private static final int THREADS = 4;
  private static final int PER_HOST = 6;
  private static final ObjectMapper JSON = new ObjectMapper();
  private static RedisServers redis;

  @TempDir Path dir;

  @BeforeAll
  static void startRedis() throws IOException {
    redis = RedisServers.standalone();
  }

  @AfterAll
  static void stopRedis() {
    if (redis != null) {
      redis.close();
    }
  }

  @Test
  void threeProcesses_fetchTheReachableSetExactlyOnceBetweenThem() throws Exception {
    try (TestSite site = TestSite.start(2000)) {
      Path seeds = Files.writeString(dir.resolve("seeds.txt"), site.url("/p/0.html") + "\n");
      List<Process> crawlers = new ArrayList<>();
      for (int i = 0; i < 3; i++) {
        crawlers.add(start(seeds, "once", i, "--delay-ms", "0", "--per-host", "6"));
      }
      for (Process crawler : crawlers) {
        assertThat(crawler.waitFor(240, TimeUnit.SECONDS)).as("each crawler finishes").isTrue();
        assertThat(crawler.exitValue()).isZero();
      }
      Set<String> expected = site.reachablePaths(Integer.MAX_VALUE);
      List<String> recorded = recorded("once", 3);
      assertThat(recorded).hasSize(expected.size());
      assertThat(Set.copyOf(recorded)).isEqualTo(expected);
      Map<String, Integer> counts = new HashMap<>(site.requestCounts());
      counts.remove("/robots.txt");
      assertThat(counts.keySet()).isEqualTo(expected);
      assertThat(counts.values()).as("no URL fetched twice").containsOnly(1);
      for (int i = 0; i < 3; i++) {
        assertThat(Files.readString(dir.resolve("stdout-once-" + i + ".txt"))).contains("Crawl summary");
        assertThat(JsonlFiles.lines(dir.resolve("crawl-once-" + i + ".jsonl"))).as("process %d shared the work", i)
            .isPositive();
      }
      String status = status("once");
      assertThat(status).contains("state:             finished").contains("pending:           0");
    }
  }

  @Test
  void oneOfThreeKilled_theOthersFinishRefetchingOnlyItsLeases() throws Exception {
    try (TestSite site = TestSite.start(2000)) {
      Path seeds = Files.writeString(dir.resolve("seeds.txt"), site.url("/p/0.html") + "\n");
      List<Process> crawlers = new ArrayList<>();
      for (int i = 0; i < 3; i++) {
        crawlers.add(start(seeds, "kill", i, "--delay-ms", "0", "--per-host",
            Integer.toString(PER_HOST), "--lease-seconds", "3"));
      }
      JsonlFiles.awaitLines(dir.resolve("crawl-kill-0.jsonl"), 100, crawlers.get(0));
      crawlers.get(0).destroyForcibly().waitFor(30, TimeUnit.SECONDS);
      assertThat(crawlers.get(0).exitValue()).as("killed by SIGKILL").isEqualTo(137);
      for (Process crawler : crawlers.subList(1, 3)) {
        assertThat(crawler.waitFor(240, TimeUnit.SECONDS)).as("the others finish").isTrue();
        assertThat(crawler.exitValue()).isZero();
      }
      Set<String> expected = site.reachablePaths(Integer.MAX_VALUE);
      assertThat(Set.copyOf(recorded("kill", 3))).isEqualTo(expected);
      Map<String, Integer> counts = new HashMap<>(site.requestCounts());
      counts.remove("/robots.txt");
      assertThat(counts.keySet()).isEqualTo(expected);
      int refetched = counts.values().stream().mapToInt(n -> n - 1).sum();
      // Only the killed process's leases are fetched again: the URLs it had in flight, at most
      // its --per-host share of the one host (each lease runs on a thread of its own; --threads
      // bounds only the work after a fetch).
      assertThat(refetched).isLessThanOrEqualTo(PER_HOST);
    }
  }

  @Test
  void threeProcesses_spaceFetchesOfTheHostByTheDelay() throws Exception {
    long delayMs = 25;
    try (TestSite site = TestSite.start(120)) {
      Path seeds = Files.writeString(dir.resolve("seeds.txt"), site.url("/p/0.html") + "\n");
      List<Process> crawlers = new ArrayList<>();
      for (int i = 0; i < 3; i++) {
        crawlers.add(start(seeds, "polite", i, "--delay-ms", Long.toString(delayMs)));
      }
      for (Process crawler : crawlers) {
        assertThat(crawler.waitFor(240, TimeUnit.SECONDS)).isTrue();
        assertThat(crawler.exitValue()).isZero();
      }
      List<TestSite.Request> log = site.log().stream()
          .filter(r -> r.host().equals("127.0.0.1")).toList();
      assertThat(log.size()).isGreaterThan(100);
      for (int i = 1; i < log.size(); i++) {
        long gapMs = (log.get(i).nanoTime() - log.get(i - 1).nanoTime()) / 1_000_000;
        // Redis's clock counts whole milliseconds: a gap may read 1 ms short.
        assertThat(gapMs).as("gap before %s", log.get(i).path()).isGreaterThanOrEqualTo(delayMs - 1);
      }
    }
  }

  @Test
  void redisUnreachable_isOneLineAndExit2() throws Exception {
    Path seeds = Files.writeString(dir.resolve("seeds.txt"), "http://127.0.0.1:1/\n");
    Process crawler = new ProcessBuilder(java(), "-jar", JAR.toAbsolutePath().toString(), "crawl",
        "--seeds", seeds.toString(), "--frontier", "redis://127.0.0.1:1", "--crawl-id", "x")
        .directory(dir.toFile()).redirectErrorStream(true).start();
    String out = new String(crawler.getInputStream().readAllBytes());
    assertThat(crawler.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(crawler.exitValue()).isEqualTo(2);
    assertThat(out.strip()).startsWith("Redis frontier: cannot reach Redis at redis://127.0.0.1:1")
        .doesNotContain("\n").doesNotContain("Exception");
  }

  @Test
  void outputHoldingRecords_isRefusedUnlessOverwrite_asForALocalCrawl() throws Exception {
    try (TestSite site = TestSite.start(20)) {
      Path seeds = Files.writeString(dir.resolve("seeds.txt"), site.url("/p/0.html") + "\n");
      Path output = dir.resolve("crawl-rules-0.jsonl");
      String earlier = "{\"url\":\"http://earlier.example/\"}\n";
      Files.writeString(output, earlier);

      Process refused = start(seeds, "rules", 0, "--delay-ms", "0");
      assertThat(refused.waitFor(60, TimeUnit.SECONDS)).isTrue();
      String refusal = Files.readString(dir.resolve("stderr-rules-0.txt"));
      String untouched = Files.readString(output);
      Process replaced = start(seeds, "rules", 0, "--delay-ms", "0", "--overwrite");
      assertThat(replaced.waitFor(120, TimeUnit.SECONDS)).isTrue();

      assertThat(refused.exitValue()).isEqualTo(2);
      assertThat(refusal).contains("already holds 1 line(s)").contains("--overwrite");
      assertThat(untouched).isEqualTo(earlier);
      assertThat(replaced.exitValue()).isZero();
      assertThat(Files.readString(output)).doesNotContain("earlier.example").contains(site.url("/p/0.html"));
    }
  }

  @Test
  void redisKilledAndStartedAgain_theCrawlWaitsOnceAndFinishesWhole() throws Exception {
    try (RedisServers aof = RedisServers.appendOnly(); TestSite site = TestSite.start(600)) {
      Path seeds = Files.writeString(dir.resolve("seeds.txt"), site.url("/p/0.html") + "\n");
      Process crawler = start(aof.uri(), seeds, "outage", 0, "--delay-ms", "20", "--per-host",
          "2", "--lease-seconds", "60");
      Path stderr = dir.resolve("stderr-outage-0.txt");
      JsonlFiles.awaitLines(dir.resolve("crawl-outage-0.jsonl"), 100, crawler);
      aof.kill();
      ServeIT.await(() -> read(stderr).contains("is unreachable"), "the crawl says it waits");
      long linesWhileDown = JsonlFiles.lines(dir.resolve("crawl-outage-0.jsonl"));
      aof.restart();
      assertThat(crawler.waitFor(240, TimeUnit.SECONDS)).as("the crawl finishes").isTrue();

      String out = Files.readString(dir.resolve("stdout-outage-0.txt"));
      assertThat(crawler.exitValue()).as(read(stderr)).isZero();
      assertThat(linesWhileDown).as("killed mid-crawl").isLessThan(600);
      Set<String> expected = site.reachablePaths(Integer.MAX_VALUE);
      List<String> recorded = recorded("outage", 1);
      assertThat(Set.copyOf(recorded)).as("every page recorded").isEqualTo(expected);
      // A take Redis ran but whose answer the kill lost is fetched again after its lease: at
      // most one per worker thread.
      assertThat(recorded.size() - expected.size()).as("pages recorded twice").isBetween(0, THREADS);
      assertThat(out).contains("frontier outages:  1 (Redis unreachable; the crawl waited)");
      assertThat(read(stderr).lines().filter(line -> line.contains("is unreachable")))
          .as("one WARN for the outage").hasSize(1);
      assertThat(read(stderr)).doesNotContain("\tat ");
    }
  }

  private static String read(Path file) {
    try {
      return Files.exists(file) ? Files.readString(file) : "";
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private Process start(Path seeds, String crawlId, int index, String... extra) throws IOException {
    return start(redis.uri(), seeds, crawlId, index, extra);
  }

  private Process start(String redisUri, Path seeds, String crawlId, int index, String... extra)
      throws IOException {
    List<String> command = new ArrayList<>(List.of(java(), "-Xmx256m",
        "-jar", JAR.toAbsolutePath().toString(), "crawl",
        "--seeds", seeds.toString(), "--output", dir.resolve("crawl-" + crawlId + "-" + index + ".jsonl").toString(),
        "--frontier", redisUri, "--crawl-id", crawlId,
        "--threads", Integer.toString(THREADS), "--expected-urls", "100000"));
    command.addAll(List.of(extra));
    return new ProcessBuilder(command)
        .directory(dir.toFile())
        .redirectOutput(dir.resolve("stdout-" + crawlId + "-" + index + ".txt").toFile())
        .redirectError(dir.resolve("stderr-" + crawlId + "-" + index + ".txt").toFile())
        .start();
  }

  private String status(String crawlId) throws Exception {
    Process status = new ProcessBuilder(java(), "-jar", JAR.toAbsolutePath().toString(), "crawl",
        "--frontier", redis.uri(), "--crawl-id", crawlId, "--status")
        .directory(dir.toFile()).redirectErrorStream(true).start();
    String out = new String(status.getInputStream().readAllBytes());
    assertThat(status.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(status.exitValue()).as(out).isZero();
    return out;
  }

  private static String java() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }

  /** The paths recorded in every process's output, with repeats. */
  private List<String> recorded(String crawlId, int processes) throws IOException {
    List<String> recorded = new ArrayList<>();
    for (int i = 0; i < processes; i++) {
      Path output = dir.resolve("crawl-" + crawlId + "-" + i + ".jsonl");
      if (!Files.exists(output)) {
        continue;
      }
      for (String line : Files.readAllLines(output)) {
        recorded.add(URI.create(JSON.readTree(line).get("url").asText()).getRawPath());
      }
    }
    return recorded;
  }
}
