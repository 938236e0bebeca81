package dev.sieve.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sieve.loopback.LoopbackNginx;
import dev.sieve.testing.Routes;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import mockwebserver3.MockWebServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code crawler.jar crawl --metrics-port} against a local site, scraped over loopback HTTP while
 * the crawl runs: one page is held back until the scrape has seen the others done.
 */
class CrawlMetricsIT {
  private final Routes routes = new Routes();
  private final MockWebServer server = new MockWebServer();
  private final CountDownLatch release = new CountDownLatch(1);

  @TempDir Path dir;

  @BeforeEach
  void start() throws IOException {
    server.setDispatcher(routes);
    server.start(InetAddress.getByName("127.0.0.1"), 0);
    routes.html("/", "<a href=\"/a.html\">a</a><a href=\"/b.html\">b</a>"
        + "<a href=\"/gone.html\">gone</a><a href=\"/slow.html\">slow</a>"
        + "<a href=\"http://[bad\">junk</a><a href=\"/a.html\">a again</a>");
    routes.html("/a.html", "<a href=\"/\">home</a>");
    routes.html("/b.html", "");
    routes.on("/slow.html", HeldPage.until(release));
  }

  @AfterEach
  void stop() {
    release.countDown();
    server.close();
  }

  @Test
  void crawl_withMetricsPort_scrapeShowsPagesOutcomesLinksAndFetchTimesAsTheyHappen()
      throws Exception {
    int port = LoopbackNginx.freePort();
    Path seeds = Files.writeString(dir.resolve("seeds.txt"), server.url("/").toString() + "\n");
    CrawlerJar.Started crawl = new CrawlerJar(dir).start("crawl", "--seeds", seeds.toString(),
        "--output", "crawl.jsonl", "--delay-ms", "0", "--per-host", "4", "--threads", "4",
        "--expected-urls", "1000", "--metrics-port", "" + port);
    try {
      // A page is counted in the crawl's progress before its record reaches the fetch-time
      // histogram (a listener after the output), and a scrape is no snapshot across families:
      // wait for both to show the four pages.
      Scrape during = Scrape.await(port, crawl, s -> s.value("sieve_crawl_pages_total") == 4
          && s.value("sieve_crawl_in_flight_urls") == 1
          && s.value("sieve_crawl_fetch_seconds_count{status_class=\"2xx\"}")
              + s.value("sieve_crawl_fetch_seconds_count{status_class=\"4xx\"}") == 4);

      assertThat(during.value("sieve_crawl_errors_total{kind=\"http-4xx\"}")).as(during.text())
          .isEqualTo(1);
      assertThat(during.value("sieve_crawl_fetch_seconds_count{status_class=\"2xx\"}"))
          .isEqualTo(3);
      assertThat(during.value("sieve_crawl_fetch_seconds_count{status_class=\"4xx\"}"))
          .isEqualTo(1);
      assertThat(during.value("sieve_crawl_fetch_seconds_bucket{status_class=\"2xx\",le=\"+Inf\"}"))
          .isEqualTo(3);
      assertThat(during.value("sieve_crawl_links_total{fate=\"new\"}")).isEqualTo(4);
      assertThat(during.value("sieve_crawl_links_total{fate=\"invalid\"}")).isEqualTo(1);
      assertThat(during.value("sieve_crawl_links_total{fate=\"seen\"}")).isEqualTo(2);
      assertThat(during.value("sieve_crawl_pending_urls")).isZero();
      assertThat(during.value("sieve_crawl_connections_total{kind=\"opened\"}")).isPositive();
      assertThat(during.value("sieve_crawl_connections_total{kind=\"stale\"}")).isZero();
      assertThat(during.value("sieve_filter_estimated_urls")).isBetween(4.0, 6.0);
      assertThat(during.value("sieve_filter_estimated_fpp")).isBetween(0.0, 1e-6);
      assertThat(during.text()).contains("# TYPE sieve_crawl_fetch_seconds histogram");
    } finally {
      release.countDown();
    }
    CrawlerJar.Run run = crawl.finish();
    assertThat(run.exitCode()).as(run.stderr()).isZero();
    assertThat(Files.readAllLines(dir.resolve("crawl.jsonl"))).hasSize(5);
  }

  @Test
  void crawl_metricsPortInUse_exitsTwoWithOneLineBeforeWritingOutput() throws Exception {
    Path seeds = Files.writeString(dir.resolve("seeds.txt"), server.url("/").toString() + "\n");
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
      CrawlerJar.Run run = new CrawlerJar(dir).run("crawl", "--seeds", seeds.toString(),
          "--output", "crawl.jsonl", "--metrics-port", "" + taken.getLocalPort());

      assertThat(run.exitCode()).isEqualTo(2);
      assertThat(run.stderr().strip()).isEqualTo("metrics: cannot listen on 127.0.0.1:"
          + taken.getLocalPort() + ": Address already in use");
    }
    assertThat(dir.resolve("crawl.jsonl")).doesNotExist();
    assertThat(routes.log()).isEmpty();
  }

}
