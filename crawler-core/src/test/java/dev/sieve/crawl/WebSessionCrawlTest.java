package dev.sieve.crawl;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sieve.session.SessionSettings;
import dev.sieve.url.Scope;
import dev.sieve.url.Url;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A crawl as a browser's session against loopback servers: meta refresh, frames and link rel
 * followed; a consent flow (a redirect to a page that sets a cookie and redirects back) crawled
 * whole with the consent page fetched once, and bounded without cookies; credentials sent to
 * their origin only, never across a redirect to another.
 */
class WebSessionCrawlTest {
  private final MockWebServer site = new MockWebServer();
  private final MockWebServer other = new MockWebServer();
  private final Map<String, AtomicInteger> hits = new ConcurrentHashMap<>();
  private final List<RecordedRequest> otherRequests = new CopyOnWriteArrayList<>();
  private final List<PageRecord> records = new CopyOnWriteArrayList<>();
  @TempDir Path dir;

  @AfterEach
  void stop() {
    site.close();
    other.close();
  }

  @Test
  void consentFlow_cookieSetOnRedirectBack_pageFetchedAgainOnce_siteCrawledWhole() throws Exception {
    start(site, consentSite("consent=yes"));

    CrawlProgress summary = crawl(RecordedCrawl.defaults(url(site, "/")).build());

    assertThat(hits(site, "/consent")).isOne();
    assertThat(hits(site, "/a.html")).isOne();
    assertThat(hits(site, "/b.html")).isOne();
    assertThat(hits(site, "/")).isEqualTo(2);
    assertThat(summary.session()).containsEntry("cookie-refetch", 1L);
    assertThat(records).filteredOn(r -> r.status() == 200).extracting(PageRecord::url)
        .containsExactlyInAnyOrder(url(site, "/"), url(site, "/a.html"), url(site, "/b.html"));
    assertThat(summary.errors()).isEmpty();
  }

  @Test
  void consentFlow_noCookies_loopEndsAtTheConsentPage_countedRedirectLoop() throws Exception {
    start(site, consentSite("consent=yes"));

    CrawlProgress summary = crawl(RecordedCrawl.defaults(url(site, "/"))
        .fetch(f -> f.session(SessionSettings.builder().cookies(false).build())).build());

    assertThat(hits(site, "/consent")).isOne();
    assertThat(hits(site, "/")).isOne();
    assertThat(hits(site, "/a.html")).isZero();
    assertThat(summary.errors()).containsExactly(Map.entry("redirect-loop", 1L));
    assertThat(summary.session()).doesNotContainKey("cookie-refetch");
  }

  @Test
  void consentFlow_cookieNeverAccepted_pageFetchedAgainOnlyOnce() throws Exception {
    start(site, consentSite("consent=no")); // the gate wants a cookie the consent page never sets

    CrawlProgress summary = crawl(RecordedCrawl.defaults(url(site, "/")).build());

    assertThat(hits(site, "/")).isEqualTo(2);
    assertThat(hits(site, "/consent")).isOne();
    assertThat(summary.session()).containsEntry("cookie-refetch", 1L);
    assertThat(summary.pending()).isZero();
  }

  @Test
  void resumedCrawl_sendsTheCookiesSetBeforeTheStop() throws Exception {
    Map<String, String> cookieSent = new ConcurrentHashMap<>();
    start(site, request -> {
      String path = request.getUrl().encodedPath();
      cookieSent.put(path, String.valueOf(request.getHeaders().get("Cookie")));
      return path.equals("/")
          ? new MockResponse.Builder().code(200).setHeader("Content-Type", "text/html")
              .setHeader("Set-Cookie", "visitor=v1; Max-Age=86400").body("<a href=a.html>a</a>").build()
          : html("");
    });
    Path state = dir.resolve("state");

    crawl(RecordedCrawl.defaults(url(site, "/")).stateDir(state).maxPages(1).build());
    assertThat(hits(site, "/a.html")).as("not before the stop").isZero();
    crawl(RecordedCrawl.defaults(url(site, "/")).stateDir(state).build());

    assertThat(hits(site, "/a.html")).isOne();
    assertThat(hits(site, "/")).as("resumed, not started over").isOne();
    assertThat(cookieSent).containsEntry("/a.html", "visitor=v1");
    assertThat(Files.getPosixFilePermissions(state.resolve("cookies.txt")))
        .isEqualTo(PosixFilePermissions.fromString("rw-------"));
  }

  @Test
  void metaRefreshFramesAndLinkRel_followed_eachKindCounted() throws Exception {
    start(site, request -> switch (request.getUrl().encodedPath()) {
      case "/" -> html("<meta http-equiv=refresh content='5; url=api/index.html'>");
      case "/api/index.html" -> html("<link rel=stylesheet href=style.css><link rel=icon href=i.ico>"
          + "<link rel=next href=next.html><frameset><frame src=left.html><frame src=right.html>"
          + "</frameset>");
      case "/api/right.html" -> html("<iframe src=inner.html></iframe>");
      default -> html("");
    });

    CrawlProgress summary = crawl(RecordedCrawl.defaults(url(site, "/")).build());

    assertThat(records).extracting(PageRecord::url).containsExactlyInAnyOrder(url(site, "/"),
        url(site, "/api/index.html"), url(site, "/api/next.html"), url(site, "/api/left.html"),
        url(site, "/api/right.html"), url(site, "/api/inner.html"));
    PageRecord root = records.stream().filter(r -> r.url().equals(url(site, "/"))).findFirst().orElseThrow();
    assertThat(root.redirect()).isEqualTo(url(site, "/api/index.html"));
    assertThat(root.links().asMap()).containsExactly(Map.entry("found", 1), Map.entry("new", 1));
    assertThat(summary.session()).containsExactly(Map.entry("meta-refresh", 1L));
    assertThat(hits(site, "/api/style.css")).isZero();
    assertThat(hits(site, "/api/i.ico")).isZero();
  }

  @Test
  void metaRefreshFramesAndLinkRel_turnedOff_onlyAnchorsFollowed() throws Exception {
    start(site, request -> switch (request.getUrl().encodedPath()) {
      case "/" -> html("<meta http-equiv=refresh content='0; url=r.html'><frame src=f.html>"
          + "<link rel=alternate href=alt.html><a href=a.html>a</a>");
      default -> html("");
    });

    CrawlProgress summary = crawl(RecordedCrawl.defaults(url(site, "/"))
        .scope(s -> s.followRefresh(false).followFrames(false).followLinkRel(false)).build());

    assertThat(records).extracting(PageRecord::url)
        .containsExactlyInAnyOrder(url(site, "/"), url(site, "/a.html"));
    assertThat(summary.session()).isEmpty();
  }

  @Test
  void authFile_basicAreaReached_redirectToAnotherOriginCarriesNoAuthorization() throws Exception {
    String expected = "Basic " + Base64.getEncoder()
        .encodeToString("reader:s3cret".getBytes(StandardCharsets.UTF_8));
    start(other, request -> {
      otherRequests.add(request);
      return html("");
    });
    start(site, request -> {
      if (!expected.equals(request.getHeaders().get("Authorization"))) {
        return new MockResponse.Builder().code(401).setHeader("WWW-Authenticate", "Basic").build();
      }
      return switch (request.getUrl().encodedPath()) {
        case "/private/" -> html("<a href=next.html>next</a><a href=out>out</a>");
        case "/private/out" -> new MockResponse.Builder().code(302)
            .setHeader("Location", url(other, "/landing.html")).build();
        default -> html("");
      };
    });
    Path authFile = dir.resolve("auth");
    Files.createFile(authFile, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    Files.writeString(authFile, "# credentials\n" + origin(site) + " basic reader:s3cret\n");

    crawl(RecordedCrawl.defaults(url(site, "/private/"))
        .scope(s -> s.scope(Scope.ANY))
        .fetch(f -> f.session(SessionSettings.builder().authFile(authFile).build())).build());

    assertThat(records).filteredOn(r -> r.status() == 200).extracting(PageRecord::url)
        .contains(url(site, "/private/"), url(site, "/private/next.html"), url(other, "/landing.html"));
    assertThat(otherRequests).isNotEmpty()
        .allSatisfy(r -> assertThat(r.getHeaders().get("Authorization")).isNull());
  }

  @Test
  void headers_sentWithEveryRequest() throws Exception {
    start(site, request -> {
      otherRequests.add(request);
      return request.getUrl().encodedPath().equals("/") ? html("<a href=a.html>a</a>") : html("");
    });

    crawl(RecordedCrawl.defaults(url(site, "/"))
        .fetch(f -> f.session(SessionSettings.builder().header("Accept-Language: fr").build())).build());

    assertThat(otherRequests).hasSize(3) // robots.txt, / and /a.html
        .allSatisfy(r -> assertThat(r.getHeaders().get("Accept-Language")).isEqualTo("fr"));
  }

  /**
   * A site whose pages answer, without cookie {@code wanted}, a redirect to {@code /consent},
   * which sets {@code consent=yes} and redirects back to {@code return}.
   */
  private Handler consentSite(String wanted) {
    return request -> {
      String path = request.getUrl().encodedPath();
      String cookie = request.getHeaders().get("Cookie");
      if (path.equals("/robots.txt")) {
        return new MockResponse.Builder().code(404).build();
      }
      if (path.equals("/consent")) {
        return new MockResponse.Builder().code(302)
            .setHeader("Set-Cookie", "consent=yes; Path=/; HttpOnly; SameSite=Lax")
            .setHeader("Location", request.getUrl().queryParameter("return")).build();
      }
      if (cookie == null || !cookie.contains(wanted)) {
        return new MockResponse.Builder().code(302).setHeader("Location", "/consent?return=" + path).build();
      }
      return path.equals("/") ? html("<a href=a.html>a</a><a href=b.html>b</a>") : html("");
    };
  }

  /** What a server answers to a request. */
  private interface Handler {
    MockResponse dispatch(RecordedRequest request);
  }

  private void start(MockWebServer server, Handler dispatcher) throws IOException {
    server.setDispatcher(new Dispatcher() {
      @Override
      public MockResponse dispatch(RecordedRequest request) {
        if (server == site) {
          hits.computeIfAbsent(request.getUrl().encodedPath(), p -> new AtomicInteger()).incrementAndGet();
        }
        return dispatcher.dispatch(request);
      }
    });
    server.start(InetAddress.getByName("127.0.0.1"), 0);
  }

  private int hits(MockWebServer server, String path) {
    AtomicInteger count = hits.get(path);
    return count == null ? 0 : count.get();
  }

  private static MockResponse html(String body) {
    return new MockResponse.Builder().code(200).setHeader("Content-Type", "text/html").body(body).build();
  }

  private static String url(MockWebServer server, String path) {
    return origin(server) + path;
  }

  private static String origin(MockWebServer server) {
    return "http://127.0.0.1:" + server.getPort();
  }

  private CrawlProgress crawl(CrawlConfig config) throws InterruptedException {
    return Crawler.open(config, new CrawlListener() {
      @Override
      public void onPage(PageRecord record) {
        records.add(record);
      }
    }).run();
  }
}
