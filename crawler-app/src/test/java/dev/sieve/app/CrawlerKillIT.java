package dev.sieve.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sieve.testing.TestSite;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs the packaged crawler as a child process with a state directory, kills it with SIGKILL at
 * random moments, resumes each time, and checks that nothing was lost, only URLs in flight at a
 * kill were fetched twice, no URL was recorded twice, and the final summary's counters are exact.
 */
class CrawlerKillIT {
  private static final Path JAR = Path.of(System.getProperty("crawler.jar", "target/crawler.jar"));
  private static final int THREADS = 4;
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern SUMMARY_PAGES = Pattern.compile("^  pages: +([\\d,]+) ");

  @TempDir Path dir;

  @Test
  void crawl_killedAtRandomMomentsAndResumed_losesNothingAndRefetchesOnlyInFlight() throws Exception {
    try (TestSite site = TestSite.start(2000)) {
      Path seeds = Files.writeString(dir.resolve("seeds.txt"), site.url("/p/0.html") + "\n");
      Path output = dir.resolve("crawl.jsonl");
      Random random = new Random(2026);
      int kills = 4;
      for (int k = 0; k < kills; k++) {
        long before = JsonlFiles.lines(output);
        Process crawler = start(seeds, output);
        // Kill once the crawl has made some progress: 50 to 350 more records.
        long target = before + 50 + random.nextInt(300);
        JsonlFiles.awaitLines(output, target, crawler);
        crawler.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        assertThat(crawler.exitValue()).as("killed by SIGKILL").isEqualTo(137);
      }
      Process last = start(seeds, output);
      assertThat(last.waitFor(180, TimeUnit.SECONDS)).as("the resumed crawl finishes").isTrue();
      assertThat(last.exitValue()).isZero();

      Set<String> expected = site.reachablePaths(Integer.MAX_VALUE);
      List<String> recorded = new ArrayList<>();
      int pages = 0;
      for (String line : Files.readAllLines(output)) {
        JsonNode record = JSON.readTree(line);
        recorded.add(URI.create(record.get("url").asText()).getRawPath());
        pages += record.get("status").asInt() == 200 ? 1 : 0;
      }
      assertThat(Set.copyOf(recorded)).isEqualTo(expected);
      Map<String, Integer> counts = new HashMap<>(site.requestCounts());
      counts.remove("/robots.txt");
      assertThat(counts.keySet()).isEqualTo(expected);
      int refetched = counts.values().stream().mapToInt(n -> n - 1).sum();
      // Only URLs in flight at a kill are fetched again: at most one per worker per kill.
      assertThat(refetched).isLessThanOrEqualTo(kills * THREADS);
      // One record per URL, though the kills fell between records and their journal entries.
      assertThat(recorded).hasSize(expected.size()).doesNotHaveDuplicates();
      assertThat(pages).as("the site's 2,000 pages (besides its 404s and redirects)").isEqualTo(2000);
      // The counters are exact after the kills: the summary counts what the output holds.
      assertThat(lastSummaryPages()).isEqualTo(recorded.size());
    }
  }

  /** The page count of the last summary printed (each run appends to stdout.txt). */
  private long lastSummaryPages() throws IOException {
    Matcher last = null;
    for (String line : Files.readAllLines(dir.resolve("stdout.txt"))) {
      Matcher m = SUMMARY_PAGES.matcher(line);
      if (m.find()) {
        last = m;
      }
    }
    assertThat(last).as("a summary was printed").isNotNull();
    return Long.parseLong(last.group(1).replace(",", ""));
  }

  private Process start(Path seeds, Path output) throws IOException {
    List<String> command = List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx512m",
        "-jar", JAR.toAbsolutePath().toString(), "crawl",
        "--seeds", seeds.toString(), "--output", output.toString(), "--state", dir.resolve("state").toString(),
        "--threads", Integer.toString(THREADS), "--per-host", Integer.toString(THREADS), "--delay-ms", "0",
        "--checkpoint-interval", "1", "--expected-urls", "100000");
    return new ProcessBuilder(command)
        .directory(dir.toFile())
        .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("stdout.txt").toFile()))
        .redirectError(ProcessBuilder.Redirect.appendTo(dir.resolve("stderr.txt").toFile()))
        .start();
  }
}
