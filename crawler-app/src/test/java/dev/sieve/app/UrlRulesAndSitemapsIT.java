package dev.sieve.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sieve.testing.Routes;
import java.io.IOException;
import java.net.InetAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --sitemap}, {@code --include} and {@code --exclude} end to end: crawler.jar against a
 * loopback site, from the command line and from a config file, with their refusals.
 */
class UrlRulesAndSitemapsIT {
  private final Routes routes = new Routes();
  private final MockWebServer server = new MockWebServer();

  @TempDir Path dir;

  @BeforeEach
  void start() throws IOException {
    server.setDispatcher(routes);
    server.start(InetAddress.getByName("127.0.0.1"), 0);
    routes.html("/", "<a href=\"/docs/a.html\">docs</a>"
        + "<a href=\"/docs/a.html?sort=asc\">sorted docs</a>"
        + "<a href=\"/blog/b.html\">blog</a>"
        + "<a href=\"/api/c.html\">api</a>");
    routes.html("/docs/a.html", "");
    routes.html("/docs/only-in-sitemap.html", "");
    routes.html("/api/c.html", "");
    routes.on("/sitemap.xml", () -> new MockResponse.Builder().code(200)
        .setHeader("Content-Type", "application/xml")
        .body("<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">"
            + "<url><loc>" + url("/docs/only-in-sitemap.html") + "</loc></url>"
            + "<url><loc>" + url("/blog/listed.html") + "</loc></url></urlset>").build());
  }

  @AfterEach
  void stop() {
    server.close();
  }

  @Test
  void crawl_sitemapIncludeExclude_onlyTheRulesPagesFetchedAndEveryRefusalCounted() throws Exception {
    CrawlerJar.Run run = jar().run("crawl", "--seeds", seeds().toString(), "--delay-ms", "0",
        "--sitemap", url("/sitemap.xml"), "--include", "/docs/", "--exclude", "[?&]sort=");

    assertThat(run.exitCode()).as(run.stderr()).isZero();
    assertThat(paths()).containsExactlyInAnyOrder("/", "/docs/a.html", "/docs/only-in-sitemap.html");
    assertThat(routes.hits("/blog/listed.html") + routes.hits("/blog/b.html")
        + routes.hits("/api/c.html")).isZero();
    // Four links and two sitemap URLs: two new, four excluded.
    assertThat(run.stdout()).contains("links:             {found=6, new=2, excluded=4}")
        .contains("sitemaps:          {fetched=1, from-sitemap=2}");
  }

  @Test
  void malformedSitemap_oneLineNamingItAndTheCause_crawlGoesOn() throws Exception {
    routes.on("/broken.xml", () -> new MockResponse.Builder().code(200)
        .setHeader("Content-Type", "application/xml").body("<urlset><url><loc>x</loc></url><url>").build());

    CrawlerJar.Run run = jar().run("crawl", "--seeds", seeds().toString(), "--delay-ms", "0",
        "--sitemap", url("/broken.xml"));

    assertThat(run.exitCode()).as(run.stderr()).isZero();
    assertThat(run.stderr().lines().filter(line -> line.contains("broken.xml")).toList())
        .singleElement().asString()
        .contains("WARN").contains("Sitemap " + url("/broken.xml") + " not read: malformed-xml");
    assertThat(run.stderr()).doesNotContain("Exception").doesNotContain("\tat ");
    assertThat(run.stdout()).contains("sitemaps:          {failed=1}");
    assertThat(paths()).contains("/", "/docs/a.html");
  }

  @Test
  void configFile_givesSeveralRulesInOneValue() throws Exception {
    Path config = Files.writeString(dir.resolve("rules.properties"),
        "include=/docs/ /api/\nexclude=\\\\?sort=\ndelay-ms=0\n", StandardCharsets.UTF_8);

    CrawlerJar.Run run = jar().run("crawl", "--config", config.toString(),
        "--seeds", seeds().toString());

    assertThat(run.exitCode()).as(run.stderr()).isZero();
    assertThat(paths()).containsExactlyInAnyOrder("/", "/docs/a.html", "/api/c.html");
  }

  @Test
  void invalidRegex_oneLineNamingTheOption_exit2() throws Exception {
    CrawlerJar.Run run = jar().run("crawl", "--seeds", seeds().toString(), "--exclude", "a[");

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.stderr()).contains("Invalid setting: --exclude (a[) is not a regular expression:"
        + " Unclosed character class near index 1").doesNotContain("Exception");
    assertThat(routes.log()).isEmpty();
  }

  @Test
  void sitemapOffTheSeedsAuthority_refused_exit2() throws Exception {
    CrawlerJar.Run run = jar().run("crawl", "--seeds", seeds().toString(),
        "--sitemap", "http://localhost:" + server.getPort() + "/sitemap.xml");

    CrawlerJar.Run notUrl = jar().run("crawl", "--seeds", seeds().toString(), "--sitemap", "sitemap.xml");

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.stderr()).contains("Invalid setting: --sitemap (http://localhost:"
        + server.getPort() + "/sitemap.xml) must be on the authority (scheme, host, port) of a seed");
    assertThat(notUrl.exitCode()).isEqualTo(2);
    assertThat(notUrl.stderr())
        .contains("Invalid setting: --sitemap (sitemap.xml) is not an absolute http(s) URL");
    assertThat(routes.log()).isEmpty();
  }

  @Test
  void resumeWithOtherRules_refusedNamingBoth_exit2() throws Exception {
    CrawlerJar jar = jar();
    CrawlerJar.Run first = jar.run("crawl", "--seeds", seeds().toString(), "--delay-ms", "0",
        "--state", "state", "--include", "/docs/");
    CrawlerJar.Run resumed = jar.run("crawl", "--seeds", seeds().toString(), "--delay-ms", "0",
        "--state", "state", "--include", "/blog/");

    assertThat(first.exitCode()).as(first.stderr()).isZero();
    assertThat(resumed.exitCode()).isEqualTo(2);
    assertThat(resumed.stderr()).contains("url-rules include=[/blog/] exclude=[] (the saved crawl"
        + " has include=[/docs/] exclude=[])");
  }

  private CrawlerJar jar() {
    return new CrawlerJar(dir);
  }

  private Path seeds() throws IOException {
    return Files.writeString(dir.resolve("seeds.txt"), url("/") + "\n", StandardCharsets.UTF_8);
  }

  private List<String> paths() throws IOException {
    ObjectMapper json = new ObjectMapper();
    List<String> paths = new java.util.ArrayList<>();
    for (String line : Files.readAllLines(dir.resolve("crawl.jsonl"))) {
      paths.add(URI.create(json.readTree(line).get("url").asText()).getRawPath());
    }
    return paths;
  }

  private String url(String path) {
    return "http://127.0.0.1:" + server.getPort() + path;
  }
}
