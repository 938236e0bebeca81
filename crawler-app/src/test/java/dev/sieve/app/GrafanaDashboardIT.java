package dev.sieve.app;

import static dev.sieve.serve.FrontierClient.discovered;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import crawlercommons.urlfrontier.URLFrontierGrpc;
import crawlercommons.urlfrontier.Urlfrontier.GetParams;
import crawlercommons.urlfrontier.Urlfrontier.QueueWithinCrawlParams;
import dev.sieve.loopback.LoopbackNginx;
import dev.sieve.serve.FrontierClient;
import dev.sieve.testing.Routes;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.StatusRuntimeException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * config/grafana's dashboard parses as an importable Grafana dashboard, and every metric its
 * PromQL queries is one that a real {@code crawl} or a real {@code serve} (each the packaged jar,
 * scraped over loopback) exposes: crawl's names on crawl's endpoint, serve's on serve's.
 */
class GrafanaDashboardIT {
  private static final Path DASHBOARD = Path.of("..", "config", "grafana", "sieve-dashboard.json");
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;

  @Test
  void dashboard_isImportableAndQueriesOnlyMetricsThatCrawlAndServeExpose() throws Exception {
    JsonNode dashboard = JSON.readTree(DASHBOARD.toFile());
    assertThat(dashboard.at("/__inputs/0/name").asText()).isEqualTo("DS_PROMETHEUS");
    assertThat(dashboard.at("/__inputs/0/pluginId").asText()).isEqualTo("prometheus");
    assertThat(dashboard.get("id").isNull()).as("an import gets a new id").isTrue();
    assertThat(dashboard.get("uid").asText()).isNotBlank();
    List<JsonNode> panels = new ArrayList<>();
    dashboard.get("panels").forEach(panels::add);
    Set<Integer> ids = new HashSet<>();
    List<String> exprs = new ArrayList<>();
    for (JsonNode panel : panels) {
      assertThat(ids.add(panel.get("id").asInt())).as("panel ids are unique").isTrue();
      assertThat(panel.at("/gridPos/x").asInt() + panel.at("/gridPos/w").asInt()).isLessThanOrEqualTo(24);
      if (panel.get("type").asText().equals("row")) {
        continue;
      }
      assertThat(panel.at("/datasource/uid").asText()).as(panel.get("title").asText())
          .isEqualTo("${DS_PROMETHEUS}");
      panel.get("targets").forEach(target -> exprs.add(target.get("expr").asText()));
    }
    dashboard.at("/templating/list").forEach(variable -> exprs.add(variable.at("/query/query").asText()));
    Set<String> queried = new TreeSet<>();
    exprs.forEach(expr -> queried.addAll(metricNames(expr)));
    assertThat(queried).as("metrics queried").hasSizeGreaterThan(20)
        .contains("sieve_crawl_pages_total", "sieve_filter_estimated_fpp", "sieve_serve_rpc_seconds_bucket");

    Set<String> crawl = crawlSeries();
    Set<String> serve = serveSeries();

    for (String name : queried) {
      assertThat(crawl.contains(name) || serve.contains(name))
          .as(name + " on crawl's or serve's /metrics").isTrue();
      if (name.startsWith("sieve_crawl_")) {
        assertThat(crawl).as("crawl's /metrics").contains(name);
      }
      if (name.startsWith("sieve_serve_")) {
        assertThat(serve).as("serve's /metrics").contains(name);
      }
    }
  }

  @Test
  void metricNames_skipFunctionsLabelsGroupingsStringsAndRanges() {
    assertThat(metricNames("histogram_quantile(0.95, sum by (le, method) (rate("
        + "sieve_serve_rpc_seconds_bucket{instance=~\"$instance\",code!=\"OK\"}[$__rate_interval])))"
        + " / on (job) group_left sieve_x_total offset 5m > bool 1e-6"))
        .containsExactly("sieve_serve_rpc_seconds_bucket", "sieve_x_total");
    assertThat(metricNames("label_values(sieve_filter_estimated_urls, instance)"))
        .containsExactly("sieve_filter_estimated_urls");
  }

  /** The metric names a PromQL expression (or a label_values query) reads. */
  static Set<String> metricNames(String expr) {
    String rest = expr.replaceAll("\"(\\\\.|[^\"\\\\])*\"", "\"\"")
        .replaceAll("\\{[^}]*}", " ")
        .replaceAll("\\[[^]]*]", " ")
        .replaceAll("\\b(by|without|on|ignoring|group_left|group_right)\\s*\\([^)]*\\)", " ")
        .replaceAll("label_values\\(([\\w:]+),[^)]*\\)", "$1");
    Set<String> names = new TreeSet<>();
    Matcher m = Pattern.compile("(?<![\\w.$])([a-zA-Z_:][\\w:]*)(\\s*\\()?").matcher(rest);
    Set<String> keywords = Set.of("by", "without", "on", "ignoring", "group_left", "group_right",
        "bool", "offset", "and", "or", "unless", "inf", "nan");
    while (m.find()) {
      if (m.group(2) == null && !keywords.contains(m.group(1).toLowerCase(java.util.Locale.ROOT))) {
        names.add(m.group(1));
      }
    }
    return names;
  }

  /**
   * A crawl with a page, a 404, a robots-denied seed, a sitemap and a page held back, scraped
   * mid-crawl.
   */
  private Set<String> crawlSeries() throws Exception {
    Routes routes = new Routes();
    CountDownLatch release = new CountDownLatch(1);
    try (MockWebServer site = new MockWebServer()) {
      site.setDispatcher(routes);
      site.start(InetAddress.getByName("127.0.0.1"), 0);
      String sitemap = site.url("/sitemap.xml").toString();
      routes.on("/robots.txt", () -> new MockResponse.Builder().code(200)
          .setHeader("Content-Type", "text/plain")
          .body("User-agent: *\nDisallow: /private/\nSitemap: " + sitemap + "\n").build());
      routes.on("/sitemap.xml", () -> new MockResponse.Builder().code(200)
          .setHeader("Content-Type", "application/xml")
          .body("<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\"><url><loc>"
              + site.url("/a.html") + "</loc></url></urlset>").build());
      routes.html("/", "<a href=\"/a.html\">a</a><a href=\"/gone.html\">gone</a>"
          + "<a href=\"/slow.html\">slow</a><a href=\"/a.html\">again</a>");
      routes.html("/a.html", "<p>a</p>");
      routes.on("/slow.html", HeldPage.until(release));
      int port = LoopbackNginx.freePort();
      Path seeds = Files.writeString(dir.resolve("seeds.txt"),
          site.url("/") + "\n" + site.url("/private/x") + "\n");
      CrawlerJar.Started crawl = new CrawlerJar(dir).start("crawl", "--seeds", seeds.toString(),
          "--output", "crawl.jsonl", "--delay-ms", "0", "--per-host", "4", "--expected-urls", "1000",
          "--metrics-port", "" + port);
      Scrape scrape;
      try {
        scrape = Scrape.await(port, crawl, s -> s.value("sieve_crawl_pages_total") == 3
            && s.value("sieve_crawl_in_flight_urls") == 1
            && s.value("sieve_crawl_skipped_total{reason=\"robots-denied\"}") == 1
            && s.value("sieve_crawl_sitemap_events_total{event=\"fetched\"}") == 1);
      } finally {
        release.countDown();
      }
      CrawlerJar.Run run = crawl.finish();
      assertThat(run.exitCode()).as(run.stderr()).isZero();
      return series(scrape);
    }
  }

  /** serve given puts (one malformed), a GetURLs, a completion and a refused call, then scraped. */
  private Set<String> serveSeries() throws Exception {
    int metricsPort = LoopbackNginx.freePort();
    CrawlerJar.Started serve = new CrawlerJar(dir).start("serve", "--port", "0", "--metrics-port",
        "" + metricsPort);
    ManagedChannel channel = null;
    try {
      channel = ManagedChannelBuilder.forAddress("127.0.0.1", ServeIT.awaitPort(serve))
          .usePlaintext().build();
      FrontierClient.put(channel, List.of(discovered("http://a.test/1"), discovered("http://a.test/1"),
          discovered("not a url"), discovered("http://b.test/2")));
      List<String> got = new ArrayList<>();
      URLFrontierGrpc.newBlockingStub(channel).withDeadlineAfter(30, TimeUnit.SECONDS)
          .getURLs(GetParams.newBuilder().setMaxUrlsPerQueue(5).setMaxQueues(2)
              .setDelayRequestable(600).build())
          .forEachRemaining(info -> got.add(info.getUrl()));
      assertThat(got).hasSize(2);
      FrontierClient.put(channel, List.of(FrontierClient.known(got.get(0), 0)));
      ManagedChannel open = channel;
      assertThatThrownBy(() -> URLFrontierGrpc.newBlockingStub(open)
          .deleteQueue(QueueWithinCrawlParams.getDefaultInstance()))
          .isInstanceOf(StatusRuntimeException.class);
      return series(Scrape.await(metricsPort, serve,
          s -> s.value("sieve_serve_errors_total{code=\"invalid_argument\"}") == 1));
    } finally {
      if (channel != null) {
        channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
      }
      serve.process().destroy();
      serve.process().waitFor(30, TimeUnit.SECONDS);
    }
  }

  /** Each sample's name, and the family of a histogram's _bucket, _sum and _count. */
  private static Set<String> series(Scrape scrape) {
    Set<String> names = new TreeSet<>();
    for (String sample : scrape.samples().keySet()) {
      String name = sample.replaceFirst("[{ ].*", "");
      names.add(name);
      names.add(name.replaceFirst("_(bucket|sum|count)$", ""));
    }
    return names;
  }

}
