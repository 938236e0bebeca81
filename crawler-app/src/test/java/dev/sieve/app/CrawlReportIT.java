package dev.sieve.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sieve.testing.Routes;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import mockwebserver3.MockWebServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code crawler.jar crawl}'s REPORT.html: where it goes, when it is refreshed, and its failures. */
class CrawlReportIT {
  private final Routes routes = new Routes();
  private final MockWebServer server = new MockWebServer();
  private final CountDownLatch release = new CountDownLatch(1);

  @TempDir Path dir;

  @BeforeEach
  void start() throws IOException {
    server.setDispatcher(routes);
    server.start(InetAddress.getByName("127.0.0.1"), 0);
    routes.html("/", "<a href=\"/a.html\">a</a><a href=\"/slow.html\">slow</a>");
    routes.html("/a.html", "<p>a</p>");
    routes.on("/slow.html", HeldPage.until(release));
  }

  @AfterEach
  void stop() {
    release.countDown();
    server.close();
  }

  @Test
  void crawl_withState_writesTheReportAtACheckpointWhileRunningThenTheFinalOne() throws Exception {
    Path report = dir.resolve("out/REPORT.html");
    CrawlerJar.Started crawl = new CrawlerJar(dir).start("crawl", "--seeds", seeds().toString(),
        "--output", "out/crawl.jsonl", "--delay-ms", "0", "--per-host", "2", "--state", "state",
        "--checkpoint-interval", "1");
    try {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      while (!Files.exists(report) || !Files.readString(report).contains("data-figure=\"pages\" data-value=\"2\"")) {
        assertThat(crawl.process().isAlive()).as("crawl still running").isTrue();
        assertThat(System.nanoTime()).as("a checkpoint's report within 30 s").isLessThan(deadline);
        LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50));
      }
      assertThat(Files.readString(report)).contains("data-finished=\"false\"")
          .contains("Running: refreshed at each checkpoint");
    } finally {
      release.countDown();
    }
    CrawlerJar.Run run = crawl.finish();

    assertThat(run.exitCode()).as(run.stderr()).isZero();
    assertThat(run.stdout()).contains("  report:            out/REPORT.html");
    assertThat(Files.readString(report)).contains("data-finished=\"true\"")
        .contains("data-figure=\"pages\" data-value=\"3\"");
    try (var files = Files.list(dir.resolve("out"))) {
      assertThat(files.map(f -> f.getFileName().toString())).containsExactlyInAnyOrder("crawl.jsonl", "REPORT.html");
    }
  }

  @Test
  void crawl_reportOrNoReport_writesTheNamedFileOrNone() throws Exception {
    release.countDown();
    CrawlerJar jar = new CrawlerJar(dir);
    CrawlerJar.Run named = jar.run("crawl", "--seeds", seeds().toString(), "--output", "a.jsonl",
        "--delay-ms", "0", "--report", "reports/a.html");
    CrawlerJar.Run none = jar.run("crawl", "--seeds", seeds().toString(), "--output", "b/b.jsonl",
        "--delay-ms", "0", "--no-report");

    assertThat(named.exitCode()).as(named.stderr()).isZero();
    assertThat(Files.readString(dir.resolve("reports/a.html"))).contains("data-finished=\"true\"");
    assertThat(dir.resolve("REPORT.html")).doesNotExist();
    assertThat(none.exitCode()).as(none.stderr()).isZero();
    assertThat(none.stdout()).doesNotContain("report:");
    assertThat(dir.resolve("b/REPORT.html")).doesNotExist();
  }

  @Test
  void crawl_reportAndNoReportTogether_isAUsageErrorBeforeAnyFetch() throws Exception {
    CrawlerJar.Run run = new CrawlerJar(dir).run("crawl", "--seeds", seeds().toString(),
        "--report", "r.html", "--no-report");

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.stderr().lines().findFirst().orElse(""))
        .isEqualTo("--report FILE and --no-report contradict each other: give one");
    assertThat(routes.log()).isEmpty();
  }

  @Test
  void crawl_reportUnwritable_warnsInOneLineAndTheCrawlSucceeds() throws Exception {
    release.countDown();
    Files.writeString(dir.resolve("file"), "in the way");
    CrawlerJar.Run run = new CrawlerJar(dir).run("crawl", "--seeds", seeds().toString(),
        "--delay-ms", "0", "--report", "file/REPORT.html");

    assertThat(run.exitCode()).as(run.stderr()).isZero();
    assertThat(run.stderr()).contains("Cannot write the crawl report file/REPORT.html: ")
        .doesNotContain("\tat ");
    assertThat(run.stdout()).contains("Crawl summary").doesNotContain("report:");
    assertThat(Files.readAllLines(dir.resolve("crawl.jsonl"))).hasSize(3);
  }

  private Path seeds() throws IOException {
    return Files.writeString(dir.resolve("seeds.txt"), server.url("/") + "\n");
  }
}
