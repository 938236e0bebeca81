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
      List<Process> crawls = startThree(site, "kill", "--lease-seconds", "3");
      // The first to record 100 pages is killed: one started later than the others may find
      // the work handed out already and end, as it should, before recording 100.
      int killed = awaitFirstWith(100, crawls);
      crawls.get(killed).destroyForcibly().waitFor(30, TimeUnit.SECONDS);
      assertThat(crawls.get(killed).exitValue()).as("killed by SIGKILL").isEqualTo(137);
      List<Process> others = new java.util.ArrayList<>(crawls);
      others.remove(killed);
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

  /** Which of {@code crawls} first has {@code target} lines in its output (polled, bounded). */
  private int awaitFirstWith(long target, List<Process> crawls) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    while (System.nanoTime() < deadline) {
      for (int i = 0; i < crawls.size(); i++) {
        if (JsonlFiles.lines(output("kill", i)) >= target) {
          return i;
        }
      }
      assertThat(crawls).as("a crawl still running").anyMatch(Process::isAlive);
      crawls.get(0).waitFor(20, TimeUnit.MILLISECONDS);
    }
    throw new AssertionError("no crawl recorded " + target + " pages in 120 s");
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

  private List<Process> startThree(TestSite site, String name, String... extra) throws Exception {
    Path seeds = Files.writeString(dir.resolve("seeds-" + name + ".txt"), site.url("/p/0.html") + "\n");
    List<Process> crawls = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      List<String> command = new ArrayList<>(List.of(
          Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m", "-jar",
          Path.of(System.getProperty("crawler.jar", "target/crawler.jar")).toAbsolutePath().toString(),
          "crawl", "--seeds", seeds.toString(), "--output", output(name, i).toString(),
          "--frontier", frontier, "--crawl-id", name, "--threads", Integer.toString(THREADS),
          "--delay-ms", "0", "--per-host", "6"));
      command.addAll(List.of(extra));
      crawls.add(new ProcessBuilder(command).directory(dir.toFile())
          .redirectOutput(dir.resolve(name + "-" + i + ".out").toFile())
          .redirectError(dir.resolve(name + "-" + i + ".err").toFile()).start());
    }
    return crawls;
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
