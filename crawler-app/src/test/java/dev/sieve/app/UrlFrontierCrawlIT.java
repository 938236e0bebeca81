package dev.sieve.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sieve.testing.TestSite;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 16's acceptance for the crawler as a client: {@code crawler.jar serve} as a process, and
 * three {@code crawl --frontier urlfrontier://…} processes on it over a 2,000-page local site. The
 * server's request log is the judge: every reachable page fetched exactly once between them, and,
 * with one of them killed (SIGKILL) mid-way, every page still fetched, its leases handed out again
 * once they expired.
 */
class UrlFrontierCrawlIT {
  private static final Pattern LISTENING = Pattern.compile("on 127\\.0\\.0\\.1:(\\d+)");
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int THREADS = 4;

  @TempDir Path dir;
  private CrawlerJar.Started serve;
  private String frontier;

  @BeforeEach
  void startServe() throws Exception {
    serve = new CrawlerJar(dir).start("serve", "--port", "0");
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    Matcher listening = LISTENING.matcher("");
    while (!listening.reset(Files.readString(serve.stdout())).find()) {
      assertThat(serve.process().isAlive()).as("serve runs").isTrue();
      assertThat(System.nanoTime()).as("serve prints its address within 60 s").isLessThan(deadline);
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50));
    }
    frontier = "urlfrontier://127.0.0.1:" + listening.group(1);
  }

  @AfterEach
  void stopServe() throws Exception {
    serve.process().destroy();
    serve.process().waitFor(30, TimeUnit.SECONDS);
  }

  @Test
  void threeCrawlProcessesOnOneServe_fetchEveryPageExactlyOnce() throws Exception {
    try (TestSite site = TestSite.start(2000)) {
      List<Process> crawls = startThree(site, "once");
      for (Process crawl : crawls) {
        assertThat(crawl.waitFor(300, TimeUnit.SECONDS)).as("each crawl process finishes").isTrue();
        assertThat(crawl.exitValue()).isZero();
      }
      Set<String> expected = site.reachablePaths(Integer.MAX_VALUE);
      assertThat(expected).hasSizeGreaterThan(1900);
      Map<String, Integer> fetched = pageRequests(site);
      assertThat(fetched.keySet()).isEqualTo(expected);
      assertThat(fetched.values()).as("no page fetched twice").containsOnly(1);
      List<String> recorded = recorded("once");
      assertThat(recorded).hasSize(expected.size());
      assertThat(Set.copyOf(recorded)).isEqualTo(expected);
      for (int i = 0; i < 3; i++) {
        assertThat(JsonlFiles.lines(output("once", i))).as("process %d shared the work", i)
            .isPositive();
      }
    }
  }

  @Test
  void oneOfThreeKilled_itsLeasesExpireAndAreHandedOutAgain_nothingLost() throws Exception {
    try (TestSite site = TestSite.start(2000)) {
      // The one to kill starts first and alone, so it records 100 pages whatever the machine's
      // load; its leases are short, to be handed out again soon after it dies. The other two
      // lease for longer than any stall of a live process under load. With 3 s leases for all,
      // a live process stalled past 3 s (nice 19 on a loaded machine) lost its leases to another
      // fetch, and those pages fetched again were counted against the killed one's bound below.
      Process victim = startCrawl(site, "kill", 0, "--lease-seconds", "10");
      JsonlFiles.awaitLines(output("kill", 0), 100, victim);
      List<Process> others = List.of(
          startCrawl(site, "kill", 1, "--lease-seconds", "120"),
          startCrawl(site, "kill", 2, "--lease-seconds", "120"));
      for (int i = 1; i <= 2; i++) {
        // Three at work on the crawl when one dies (no other can end first: it holds leases).
        JsonlFiles.awaitLines(output("kill", i), 1, others.get(i - 1));
      }
      assertThat(victim.isAlive()).as("the first crawl still runs when the others work").isTrue();
      victim.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
      assertThat(victim.exitValue()).as("killed by SIGKILL").isEqualTo(137);
      for (Process crawl : others) {
        assertThat(crawl.waitFor(300, TimeUnit.SECONDS)).as("the others finish").isTrue();
        assertThat(crawl.exitValue()).isZero();
      }
      Set<String> expected = site.reachablePaths(Integer.MAX_VALUE);
      Map<String, Integer> fetched = pageRequests(site);
      assertThat(fetched.keySet()).as("every page fetched").isEqualTo(expected);
      assertThat(Set.copyOf(recorded("kill"))).as("every page recorded").isEqualTo(expected);
      int refetched = fetched.values().stream().mapToInt(n -> n - 1).sum();
      // Only what the killed process held is fetched again: its workers' leases and the batch it
      // had leased and not handed to a worker yet (at most 8 queues x --per-host 6).
      assertThat(refetched).isLessThanOrEqualTo(THREADS + 8 * 6);
    }
  }

  @Test
  void serviceUnreachable_isOneLineAndExit2_beforeAnyOutput() throws Exception {
    Path seeds = Files.writeString(dir.resolve("seeds.txt"), "http://127.0.0.1:1/\n");

    CrawlerJar.Run run = new CrawlerJar(dir).run("crawl", "--seeds", seeds.toString(),
        "--frontier", "urlfrontier://127.0.0.1:1", "--output", output("down", 0).toString());

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.stderr().strip()).as(run.stderr())
        .startsWith("URL Frontier at urlfrontier://127.0.0.1:1: GetStats failed (UNAVAILABLE")
        .doesNotContain("\n").doesNotContain("Exception");
    assertThat(output("down", 0)).doesNotExist();
  }

  private List<Process> startThree(TestSite site, String name) throws Exception {
    List<Process> crawls = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      crawls.add(startCrawl(site, name, i));
    }
    return crawls;
  }

  /** Crawl process {@code index} of crawl {@code name} on the site, from its page 0. */
  private Process startCrawl(TestSite site, String name, int index, String... extra)
      throws Exception {
    Path seeds = dir.resolve("seeds-" + name + ".txt");
    if (!Files.exists(seeds)) {
      Files.writeString(seeds, site.url("/p/0.html") + "\n");
    }
    List<String> command = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m", "-jar",
        Path.of(System.getProperty("crawler.jar", "target/crawler.jar")).toAbsolutePath().toString(),
        "crawl", "--seeds", seeds.toString(), "--output", output(name, index).toString(),
        "--frontier", frontier, "--crawl-id", name, "--threads", Integer.toString(THREADS),
        "--delay-ms", "0", "--per-host", "6"));
    command.addAll(List.of(extra));
    return new ProcessBuilder(command).directory(dir.toFile())
        .redirectOutput(dir.resolve(name + "-" + index + ".out").toFile())
        .redirectError(dir.resolve(name + "-" + index + ".err").toFile()).start();
  }

  private Path output(String name, int index) {
    return dir.resolve("crawl-" + name + "-" + index + ".jsonl");
  }

  /** The site's request log by path, robots.txt left out (each process reads it). */
  private static Map<String, Integer> pageRequests(TestSite site) {
    Map<String, Integer> counts = new HashMap<>(site.requestCounts());
    counts.remove("/robots.txt");
    return counts;
  }

  /** The paths every process recorded, with repeats. */
  private List<String> recorded(String name) throws Exception {
    List<String> paths = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      if (Files.exists(output(name, i))) {
        for (String line : Files.readAllLines(output(name, i))) {
          paths.add(URI.create(JSON.readTree(line).get("url").asText()).getRawPath());
        }
      }
    }
    return paths;
  }
}
