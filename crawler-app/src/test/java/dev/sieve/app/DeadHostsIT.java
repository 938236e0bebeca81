package dev.sieve.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sieve.testing.SilentServer;
import dev.sieve.testing.TestSite;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 13's acceptance: dead hosts cost seconds, not hours, and never hold up a live one. The
 * packaged crawler.jar, limited to 2 processors, crawls 1,000 URLs on a refusing port, 1,000 on a
 * server that accepts and never answers, and a live 2,000-page site, with 5 s timeouts.
 */
class DeadHostsIT {
  private static final Path JAR = Path.of(System.getProperty("crawler.jar", "target/crawler.jar"));
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int DEAD_URLS = 1000;

  @TempDir Path dir;

  @Test
  void crawl_refusingAndSilentHostsBesideALiveSite_deadUrlsRecordedWithCause_liveSiteWhole_underTwoMinutes()
      throws Exception {
    int refusing = SilentServer.refusingPort();
    try (SilentServer silent = SilentServer.start(); TestSite site = TestSite.start(2000)) {
      String refusingOrigin = "http://127.0.0.1:" + refusing;
      StringBuilder seeds = new StringBuilder();
      for (int i = 0; i < DEAD_URLS; i++) {
        seeds.append(refusingOrigin).append("/dead/").append(i).append(".html\n");
        seeds.append(silent.url("/silent/" + i + ".html")).append('\n');
      }
      seeds.append(site.url("/p/0.html")).append('\n');
      Path seedFile = Files.writeString(dir.resolve("seeds.txt"), seeds, StandardCharsets.UTF_8);

      long start = System.nanoTime();
      Process crawler = start("crawl", "--seeds", seedFile.toString(), "--output", "out.jsonl",
          "--delay-ms", "0", "--timeout", "5", "--expected-urls", "100000");
      boolean ended = crawler.waitFor(180, TimeUnit.SECONDS);
      Duration wall = Duration.ofNanos(System.nanoTime() - start);
      if (!ended) {
        crawler.destroyForcibly();
      }
      String stdout = Files.readString(dir.resolve("stdout.txt"));
      String stderr = Files.readString(dir.resolve("stderr.txt"));
      System.out.printf("DeadHostsIT: crawl wall time %.1f s%n", wall.toMillis() / 1000.0);

      assertThat(ended).as("the crawl ended within 180 s; stderr:%n%s", stderr).isTrue();
      assertThat(crawler.exitValue()).as(stderr).isZero();
      assertThat(wall).as("wall time of the whole crawl").isLessThan(Duration.ofMinutes(2));
      assertThat(wall).as("--timeout 5 applied: three default 30 s read timeouts alone take 90 s")
          .isLessThan(Duration.ofSeconds(90));

      Map<String, List<JsonNode>> byOrigin = records().stream()
          .collect(Collectors.groupingBy(r -> origin(r.get("url").asText())));
      assertThat(byOrigin.keySet())
          .containsExactlyInAnyOrder(refusingOrigin, silent.url(""), site.url(""));
      assertDead(byOrigin.get(refusingOrigin), "connection refused");
      assertDead(byOrigin.get(silent.url("")), "read timeout");

      List<String> livePaths = byOrigin.get(site.url("")).stream()
          .map(r -> URI.create(r.get("url").asText()).getRawPath()).toList();
      assertThat(livePaths).as("every page once").doesNotHaveDuplicates()
          .containsExactlyInAnyOrderElementsOf(site.reachablePaths(Integer.MAX_VALUE));
      assertThat(site.requestCounts()).as("no page of the live site fetched twice")
          .allSatisfy((path, count) -> assertThat(count).as(path).isEqualTo(1));
      assertThat(silent.connections()).as("robots.txt only, once per failure up to the limit")
          .isEqualTo(3);

      assertThat(warnings(stderr, refusingOrigin)).singleElement().asString()
          .contains("connection refused");
      assertThat(warnings(stderr, silent.url(""))).singleElement().asString()
          .contains("read timeout");
      assertThat(stdout).contains("host-unreachable=" + String.format(java.util.Locale.ROOT, "%,d", 2 * DEAD_URLS));
    }
  }

  @Test
  void crawl_badHostFailureLimitOrTimeout_isUsageErrorNamingTheOption() throws Exception {
    Path seedFile = Files.writeString(dir.resolve("seeds.txt"), "http://127.0.0.1:9/\n");

    for (String[] bad : new String[][] {{"--host-failure-limit", "0"}, {"--timeout", "0"}}) {
      Process crawler = start("crawl", "--seeds", seedFile.toString(), bad[0], bad[1]);
      assertThat(crawler.waitFor(60, TimeUnit.SECONDS)).isTrue();
      String stderr = Files.readString(dir.resolve("stderr.txt"));
      assertThat(crawler.exitValue()).as(stderr).isEqualTo(2);
      assertThat(stderr).contains(bad[0] + " (0) must be >= 1").doesNotContain("Exception");
      assertThat(dir.resolve("crawl.jsonl")).doesNotExist();
    }
  }

  private static void assertDead(List<JsonNode> records, String cause) {
    assertThat(records).hasSize(DEAD_URLS).allSatisfy(r -> {
      assertThat(r.get("error").asText()).isEqualTo("host-unreachable");
      assertThat(r.get("cause").asText()).isEqualTo(cause);
      assertThat(r.get("status").asInt()).isZero();
    });
    assertThat(records.stream().map(r -> r.get("url").asText()).distinct()).hasSize(DEAD_URLS);
  }

  private static List<String> warnings(String stderr, String origin) {
    return Arrays.stream(stderr.split("\n"))
        .filter(line -> line.contains("WARN") && line.contains("Host " + origin + " "))
        .toList();
  }

  private static String origin(String url) {
    URI uri = URI.create(url);
    return uri.getScheme() + "://" + uri.getHost() + ":" + uri.getPort();
  }

  private List<JsonNode> records() throws Exception {
    List<JsonNode> records = new ArrayList<>();
    for (String line : Files.readAllLines(dir.resolve("out.jsonl"))) {
      records.add(JSON.readTree(line));
    }
    return records;
  }

  /** Starts crawler.jar as a user would, seeing 2 processors whatever the machine has. */
  private Process start(String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-XX:ActiveProcessorCount=2", "-Xmx512m", "-jar", JAR.toAbsolutePath().toString()));
    command.addAll(List.of(args));
    return new ProcessBuilder(command)
        .directory(dir.toFile())
        .redirectOutput(dir.resolve("stdout.txt").toFile())
        .redirectError(dir.resolve("stderr.txt").toFile())
        .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
        .start();
  }
}
