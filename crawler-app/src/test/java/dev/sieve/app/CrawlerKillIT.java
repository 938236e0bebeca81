package dev.sieve.app;

import static org.assertj.core.api.Assertions.assertThat;

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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs the packaged crawler as a child process with a state directory, kills it with SIGKILL at
 * random moments, resumes each time, and checks that nothing was lost and only URLs in flight at a
 * kill were fetched twice.
 */
class CrawlerKillIT {
  private static final Path JAR = Path.of(System.getProperty("crawler.jar", "target/crawler.jar"));
  private static final int THREADS = 4;
  private static final ObjectMapper JSON = new ObjectMapper();

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
      for (String line : Files.readAllLines(output)) {
        recorded.add(URI.create(JSON.readTree(line).get("url").asText()).getRawPath());
      }
      assertThat(Set.copyOf(recorded)).isEqualTo(expected);
      Map<String, Integer> counts = new HashMap<>(site.requestCounts());
      counts.remove("/robots.txt");
      assertThat(counts.keySet()).isEqualTo(expected);
      int refetched = counts.values().stream().mapToInt(n -> n - 1).sum();
      // Only URLs in flight at a kill are fetched again: at most one per worker per kill.
      assertThat(refetched).isLessThanOrEqualTo(kills * THREADS);
      assertThat(recorded.size() - expected.size()).isLessThanOrEqualTo(kills * THREADS);
    }
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
