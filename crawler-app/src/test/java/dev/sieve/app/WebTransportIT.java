package dev.sieve.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sieve.loopback.LoopbackNginx;
import dev.sieve.testing.LocalProxy;
import dev.sieve.testing.TestCa;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 28's transport acceptance, with the packaged crawler.jar: a corpus served by nginx over
 * HTTPS with HTTP/2 from a private CA crawled as over plain HTTP, its WARC saying h2 and TLS 1.3
 * (read by warcio); expired and misnamed certificates as fates with their cause; the same crawl
 * through tinyproxy (--proxy, HTTPS_PROXY, HTTP_PROXY) and through microsocks with credentials,
 * every request reaching nginx from the proxy's address; a dead proxy ending the run.
 */
class WebTransportIT {
  private static final ObjectMapper JSON = new ObjectMapper();
  /** Pages linked from the root, and pages linked from each of them. */
  private static final int FAN_OUT = 6;

  @TempDir static Path shared;
  private static TestCa ca;
  private static TlsNginx nginx;

  @TempDir Path dir;

  @BeforeAll
  static void serve() throws Exception {
    Path plain = Files.createDirectories(shared.resolve("plain"));
    Path tls = Files.createDirectories(shared.resolve("tls"));
    ca = TestCa.create(Files.createDirectories(shared.resolve("ca")));
    nginx = TlsNginx.start(plain, tls, ca);
    corpus(plain, "http://127.0.0.1:" + nginx.http);
    corpus(tls, "https://localhost:" + nginx.https);
  }

  @AfterAll
  static void stop() throws Exception {
    if (nginx != null) {
      nginx.close();
    }
  }

  /**
   * A two-level tree of pages under {@code origin}, a robots.txt naming a sitemap, and a page only
   * that sitemap lists: robots.txt and sitemaps are fetched the way pages are.
   */
  private static void corpus(Path root, String origin) throws Exception {
    StringBuilder index = new StringBuilder("<html><body>");
    for (int i = 0; i < FAN_OUT; i++) {
      index.append("<a href=\"a/").append(i).append(".html\">").append(i).append("</a>");
      StringBuilder page = new StringBuilder("<html><body>");
      for (int j = 0; j < FAN_OUT; j++) {
        page.append("<a href=\"../b/").append(i).append('-').append(j).append(".html\">x</a>");
        Files.createDirectories(root.resolve("b"));
        Files.writeString(root.resolve("b/" + i + "-" + j + ".html"),
            "<html><body><a href=\"/index.html\">home</a></body></html>");
      }
      Files.createDirectories(root.resolve("a"));
      Files.writeString(root.resolve("a/" + i + ".html"), page.append("</body></html>"));
    }
    Files.writeString(root.resolve("index.html"), index.append("</body></html>"));
    Files.writeString(root.resolve("hidden.html"), "<html><body>only in the sitemap</body></html>");
    Files.writeString(root.resolve("robots.txt"),
        "User-agent: *\nAllow: /\nSitemap: " + origin + "/sitemap.xml\n");
    Files.writeString(root.resolve("sitemap.xml"),
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            + "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\"><url><loc>" + origin
            + "/hidden.html</loc></url></urlset>\n");
  }

  private String httpsSeed() {
    return "https://localhost:" + nginx.https + "/index.html";
  }

  private String httpSeed() {
    return "http://127.0.0.1:" + nginx.http + "/index.html";
  }

  /** A crawl of {@code seed} into {@code name}.jsonl (and {@code name}-warc/), with {@code extra} options. */
  private CrawlerJar.Run crawl(Map<String, String> env, String name, String seed, String... extra)
      throws Exception {
    Path seeds = Files.writeString(dir.resolve(name + ".seeds"), seed + "\n");
    List<String> args = new ArrayList<>(List.of("crawl", "--seeds", seeds.toString(),
        "--output", name + ".jsonl", "--delay-ms", "0", "--warc", name + "-warc",
        "--expected-urls", "10000",
        "--ca-cert", ca.caCert().toString()));
    args.addAll(List.of(extra));
    return new CrawlerJar(dir).run(env, args.toArray(new String[0]));
  }

  private List<JsonNode> records(String name) throws Exception {
    List<JsonNode> records = new ArrayList<>();
    for (String line : Files.readAllLines(dir.resolve(name + ".jsonl"))) {
      records.add(JSON.readTree(line));
    }
    return records;
  }

  /** The paths of the pages fetched with 200. */
  private Set<String> pages(String name) throws Exception {
    return records(name).stream().filter(r -> r.get("status").asInt() == 200)
        .map(r -> URI.create(r.get("url").asText()).getRawPath())
        .collect(Collectors.toCollection(TreeSet::new));
  }

  private Set<String> expectedPages() {
    Set<String> pages = new TreeSet<>(List.of("/index.html", "/hidden.html"));
    for (int i = 0; i < FAN_OUT; i++) {
      pages.add("/a/" + i + ".html");
      for (int j = 0; j < FAN_OUT; j++) {
        pages.add("/b/" + i + "-" + j + ".html");
      }
    }
    return pages;
  }

  @Test
  void crawl_httpsH2WithCaCert_samePagesAsPlainHttp_everyWarcRecordSaysH2AndTls13() throws Exception {
    CrawlerJar.Run plain = crawl(Map.of(), "plain", httpSeed());
    nginx.requestsSinceLastCall();
    CrawlerJar.Run https = crawl(Map.of(), "https", httpsSeed());
    List<TlsNginx.Request> served = nginx.requestsSinceLastCall();

    assertThat(plain.exitCode()).as(plain.stderr()).isZero();
    assertThat(https.exitCode()).as(https.stderr()).isZero();
    assertThat(pages("plain")).isEqualTo(expectedPages());
    assertThat(pages("https")).isEqualTo(pages("plain"));
    assertThat(served).isNotEmpty().allSatisfy(r -> {
      assertThat(r.port()).isEqualTo(nginx.https);
      assertThat(r.protocol()).isEqualTo("HTTP/2.0");
    });
    assertThat(records("https")).allSatisfy(r -> assertThat(r.get("protocol").asText()).isEqualTo("h2"));
    assertThat(records("plain")).allSatisfy(r -> assertThat(r.get("protocol").asText()).isEqualTo("http/1.1"));

    List<WarcioReader.Entry> entries = warcEntries("https");
    List<WarcioReader.Entry> exchanges = entries.stream()
        .filter(e -> !e.type().equals("warcinfo")).toList();
    assertThat(exchanges).as("robots.txt, sitemap and every page: request and response (or revisit)")
        .hasSizeGreaterThanOrEqualTo(2 * (expectedPages().size() + 2));
    assertThat(exchanges).allSatisfy(e -> {
      assertThat(e.protocols()).as(e.type() + " " + e.targetUri()).containsExactly("h2", "tls/1.3");
      assertThat(e.cipherSuite()).startsWith("TLS_");
      assertThat(e.computedBlockDigest()).isEqualTo(e.blockDigest());
    });
    assertThat(warcEntries("plain").stream().filter(e -> e.type().equals("response")))
        .allSatisfy(e -> {
          assertThat(e.protocols()).containsExactly("http/1.1");
          assertThat(e.cipherSuite()).isNull();
        });
  }

  private List<WarcioReader.Entry> warcEntries(String name) throws Exception {
    WarcioReader warcio = WarcioReader.require();
    List<Path> files;
    try (Stream<Path> list = Files.list(dir.resolve(name + "-warc"))) {
      files = list.filter(p -> p.toString().endsWith(".warc.gz")).sorted().toList();
    }
    assertThat(files).isNotEmpty();
    return warcio.read(files).stream().flatMap(f -> f.entries().stream()).toList();
  }

  @Test
  void crawl_expiredAndMisnamedCertificates_tlsErrorWithCause_inSeconds() throws Exception {
    long start = System.nanoTime();
    CrawlerJar.Run expired = crawl(Map.of(), "expired", "https://localhost:" + nginx.expired + "/index.html");
    Duration expiredWall = Duration.ofNanos(System.nanoTime() - start);
    start = System.nanoTime();
    CrawlerJar.Run misnamed = crawl(Map.of(), "misnamed", "https://localhost:" + nginx.otherName + "/index.html");
    Duration misnamedWall = Duration.ofNanos(System.nanoTime() - start);

    assertThat(expired.exitCode()).as(expired.stderr()).isZero();
    assertThat(misnamed.exitCode()).as(misnamed.stderr()).isZero();
    // robots.txt is fetched first: its TLS failure is the host's, recorded with its cause.
    assertThat(records("expired")).singleElement()
        .satisfies(r -> assertFate(r, "tls-error: certificate expired"));
    assertThat(records("misnamed")).singleElement()
        .satisfies(r -> assertFate(r, "tls-error: hostname mismatch"));
    // robots.txt tried 3 times (2 s, 4 s apart with the default --retries 2), JVM start included.
    assertThat(expiredWall).isLessThan(Duration.ofSeconds(30));
    assertThat(misnamedWall).isLessThan(Duration.ofSeconds(30));
    System.out.printf("WebTransportIT: expired-certificate crawl %.1f s, misnamed %.1f s%n",
        expiredWall.toMillis() / 1000.0, misnamedWall.toMillis() / 1000.0);
  }

  private static void assertFate(JsonNode record, String cause) {
    assertThat(record.get("status").asInt()).isZero();
    assertThat(record.get("error").asText()).as(record.toString()).isEqualTo("robots-unreachable");
    assertThat(record.get("cause").asText()).as(record.toString()).isEqualTo(cause);
  }

  @Test
  void crawl_throughTinyproxy_optionOrVariables_samePages_everyRequestFromTheProxy() throws Exception {
    try (LocalProxy proxy = LocalProxy.tinyproxy(Files.createDirectories(dir.resolve("tinyproxy")),
        "127.0.0.2", null, null)) {
      String url = "http://127.0.0.1:" + proxy.port();
      nginx.requestsSinceLastCall();
      CrawlerJar.Run option = crawl(Map.of(), "option", httpsSeed(), "--proxy", url);
      List<TlsNginx.Request> viaOption = nginx.requestsSinceLastCall();
      CrawlerJar.Run variable = crawl(Map.of("HTTPS_PROXY", url), "variable", httpsSeed());
      List<TlsNginx.Request> viaVariable = nginx.requestsSinceLastCall();
      CrawlerJar.Run plain = crawl(Map.of("http_proxy", url), "plainproxy", httpSeed());
      List<TlsNginx.Request> viaPlain = nginx.requestsSinceLastCall();

      for (CrawlerJar.Run run : List.of(option, variable, plain)) {
        assertThat(run.exitCode()).as(run.stderr()).isZero();
        assertThat(run.stderr()).contains("Proxy: ");
      }
      assertThat(pages("option")).isEqualTo(expectedPages());
      assertThat(pages("variable")).isEqualTo(expectedPages());
      assertThat(pages("plainproxy")).isEqualTo(expectedPages());
      for (List<TlsNginx.Request> served : List.of(viaOption, viaVariable, viaPlain)) {
        assertThat(served).hasSizeGreaterThanOrEqualTo(expectedPages().size() + 2)
            .allSatisfy(r -> assertThat(r.client()).as(r.toString()).isEqualTo("127.0.0.2"));
      }
      assertThat(viaOption).extracting(TlsNginx.Request::uri).contains("/robots.txt", "/sitemap.xml");
      // Plain http: every request is in tinyproxy's log by its URL; https goes in CONNECT tunnels.
      List<String> log = proxy.logLines();
      for (TlsNginx.Request request : viaPlain) {
        String line = "GET http://127.0.0.1:" + nginx.http + request.uri() + " HTTP/1.1";
        assertThat(log).as(line).anyMatch(l -> l.contains(line));
      }
      assertThat(log).anyMatch(l -> l.contains("CONNECT localhost:" + nginx.https));
      assertThat(records("option")).allSatisfy(r -> assertThat(r.get("ip").isNull()).isTrue());
    }
  }

  @Test
  void crawl_throughMicrosocksWithCredentials_samePages_everyRequestFromTheProxy() throws Exception {
    try (LocalProxy proxy = LocalProxy.microsocks(Files.createDirectories(dir.resolve("socks")),
        "127.0.0.3", "crawler", "s0cks-secret")) {
      nginx.requestsSinceLastCall();
      CrawlerJar.Run run = crawl(Map.of(), "socks", httpsSeed(),
          "--proxy", "socks5://crawler:s0cks-secret@127.0.0.1:" + proxy.port());
      List<TlsNginx.Request> served = nginx.requestsSinceLastCall();

      assertThat(run.exitCode()).as(run.stderr()).isZero();
      assertThat(pages("socks")).isEqualTo(expectedPages());
      assertThat(served).hasSizeGreaterThanOrEqualTo(expectedPages().size() + 2)
          .allSatisfy(r -> assertThat(r.client()).as(r.toString()).isEqualTo("127.0.0.3"));
      assertThat(run.stderr() + run.stdout()).doesNotContain("s0cks-secret");
      assertThat(Files.readString(dir.resolve("socks.jsonl"))).doesNotContain("s0cks-secret");
      assertThat(warcEntries("socks")).allSatisfy(e -> assertThat(e.ipAddress()).isNull());
    }
  }

  @Test
  void crawl_deadProxy_endsInSecondsWithOneLineAndExit69() throws Exception {
    int dead = LoopbackNginx.freePort();
    List<String> proxies = List.of("http://127.0.0.1:" + dead, "socks5://u:hunter2@127.0.0.1:" + dead);
    for (int i = 0; i < proxies.size(); i++) {
      String proxy = proxies.get(i);
      long start = System.nanoTime();
      CrawlerJar.Run run = crawl(Map.of(), "dead" + i, httpsSeed(), "--proxy", proxy);
      Duration wall = Duration.ofNanos(System.nanoTime() - start);

      assertThat(run.exitCode()).as(run.stderr()).isEqualTo(69);
      assertThat(wall).isLessThan(Duration.ofSeconds(30));
      String shown = proxy.replace("u:hunter2@", "");
      assertThat(run.stderr().lines().filter(l -> l.contains("Proxy " + shown + " is unreachable")))
          .singleElement().asString().contains("connection refused").contains("stopping the crawl");
      assertThat(run.stderr()).doesNotContain("hunter2").doesNotContain("Exception");
      assertThat(run.stdout()).doesNotContain("host-unreachable");
      System.out.printf("WebTransportIT: dead proxy %s ended the run in %.1f s%n", shown,
          wall.toMillis() / 1000.0);
    }
  }
}
