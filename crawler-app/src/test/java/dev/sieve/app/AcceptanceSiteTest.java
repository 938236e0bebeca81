package dev.sieve.app;

import static org.assertj.core.api.Assertions.assertThat;

import crawlercommons.sitemaps.AbstractSiteMap;
import crawlercommons.sitemaps.SiteMap;
import crawlercommons.sitemaps.SiteMapIndex;
import crawlercommons.sitemaps.SiteMapParser;
import crawlercommons.sitemaps.SiteMapURL;
import dev.sieve.testing.HttpReply;
import dev.sieve.testing.WireServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class AcceptanceSiteTest {
  private static final int MAX_BODY_BYTES = 4096;

  private AcceptanceSite site;
  private final OkHttpClient http = new OkHttpClient();

  @BeforeEach
  void start() throws IOException {
    site = AcceptanceSite.start(MAX_BODY_BYTES);
  }

  @AfterEach
  void stop() {
    site.close();
  }

  @Test
  void get_eachKindOfReply_sendsExactlyTheRecordedBytes() throws Exception {
    for (String target : List.of(AcceptanceSite.HOME, AcceptanceSite.CHUNKED, AcceptanceSite.GZIP,
        AcceptanceSite.PNG, AcceptanceSite.REDIRECT_A, AcceptanceSite.MISSING, AcceptanceSite.BIG)) {
      String head = "GET " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n";

      byte[] received = rawGet(head);

      List<WireServer.Exchange> exchanges = site.exchanges(target);
      assertThat(exchanges).as(target).hasSize(1);
      assertThat(received).as(target).isEqualTo(exchanges.get(0).wire()).isEqualTo(site.reply(target).wire());
      assertThat(exchanges.get(0).request().head()).isEqualTo(head.getBytes(StandardCharsets.ISO_8859_1));
    }
    String chunked = new String(site.reply(AcceptanceSite.CHUNKED).wire(), StandardCharsets.ISO_8859_1);
    assertThat(chunked).contains("Transfer-Encoding: chunked\r\n\r\n64\r\n").endsWith("\r\n0\r\n\r\n")
        .doesNotContain("Content-Length");
    assertThat(site.reply(AcceptanceSite.MISSING).status()).isEqualTo(404);
  }

  @Test
  void get_twoRequestsOnOneConnection_bothAnsweredInOrder() throws Exception {
    String first = "GET /about.html HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
    String second = "GET /contact.html HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n";

    byte[] received = rawGet(first + second);

    ByteArrayOutputStream expected = new ByteArrayOutputStream();
    expected.writeBytes(site.reply("/about.html").wire());
    expected.writeBytes(site.reply("/contact.html").wire());
    assertThat(received).isEqualTo(expected.toByteArray());
    assertThat(site.exchanges()).extracting(e -> e.request().target())
        .containsExactly("/about.html", "/contact.html");
  }

  @Test
  void get_throughAnHttpClient_decodesToWhatTheSiteClaims() throws Exception {
    try (Response chain = get(AcceptanceSite.REDIRECT_A)) {
      assertThat(chain.code()).isEqualTo(200);
      assertThat(chain.request().url().encodedPath()).isEqualTo(AcceptanceSite.REDIRECT_END);
      assertThat(chain.priorResponse().priorResponse().code()).isEqualTo(301);
    }
    assertThat(new String(body(AcceptanceSite.GZIP), StandardCharsets.UTF_8)).contains("href=\"/from-gzip.html\"");
    assertThat(body(AcceptanceSite.CHUNKED)).isEqualTo(site.reply(AcceptanceSite.CHUNKED).body());
    assertThat(body(AcceptanceSite.SAME_1)).isEqualTo(body(AcceptanceSite.SAME_2));
    assertThat(body(AcceptanceSite.BIG).length).isGreaterThan(2 * MAX_BODY_BYTES);
    assertThat(body(AcceptanceSite.PNG)).startsWith(0x89, 'P', 'N', 'G');
    assertThat(body(AcceptanceSite.JPEG)).startsWith(0xFF, 0xD8, 0xFF);
    try (Response missing = get(AcceptanceSite.MISSING)) {
      assertThat(missing.code()).isEqualTo(404);
    }
    assertThat(new String(body(AcceptanceSite.ROBOTS), StandardCharsets.UTF_8))
        .contains("Disallow: /private/\n").contains("Sitemap: " + site.url(AcceptanceSite.SITEMAP_INDEX) + "\n");
  }

  @Test
  void sitemaps_parsedByCrawlerCommons_listTheClaimedUrlsAndLastmods() throws Exception {
    SiteMapParser parser = new SiteMapParser();
    AbstractSiteMap index = parse(parser, AcceptanceSite.SITEMAP_INDEX);
    assertThat(index.isIndex()).isTrue();
    assertThat(((SiteMapIndex) index).getSitemaps()).extracting(s -> s.getUrl().toString())
        .containsExactlyInAnyOrder(site.url(AcceptanceSite.SITEMAP_GZIP), site.url(AcceptanceSite.SITEMAP_PLAIN));

    Map<String, java.time.Instant> lastmods = new HashMap<>();
    Set<String> listed = new HashSet<>();
    for (String sitemap : List.of(AcceptanceSite.SITEMAP_GZIP, AcceptanceSite.SITEMAP_PLAIN)) {
      for (SiteMapURL url : ((SiteMap) parse(parser, sitemap)).getSiteMapUrls()) {
        String target = url.getUrl().getFile();
        listed.add(target);
        if (url.getLastModified() != null) {
          lastmods.put(target, url.getLastModified().toInstant());
        }
      }
    }
    assertThat(listed).isEqualTo(site.listed()).containsAll(site.sitemapOnly());
    assertThat(lastmods).isEqualTo(site.lastmods()).containsKey(AcceptanceSite.ONLY_IN_SITEMAP);
  }

  @Test
  void linked_fromHome_reachesEveryKindButNotTheSitemapOnlyOrDisallowedPage() {
    Set<String> linked = site.linked();

    assertThat(linked).contains(AcceptanceSite.HOME, AcceptanceSite.REDIRECT_A, AcceptanceSite.REDIRECT_B,
        AcceptanceSite.REDIRECT_END, AcceptanceSite.MISSING, AcceptanceSite.BIG, AcceptanceSite.SAME_1,
        AcceptanceSite.SAME_2, AcceptanceSite.PNG, AcceptanceSite.JPEG, "/from-gzip.html", "/from-chunked.html",
        "/docs/guide.html", "/blog/post.html")
        .doesNotContainAnyElementsOf(site.sitemapOnly()).doesNotContainAnyElementsOf(site.disallowed())
        .doesNotContainAnyElementsOf(site.sitemaps());
    assertThat(site.targets()).containsAll(linked.stream().filter(t -> !t.equals(AcceptanceSite.MISSING)).toList())
        .containsAll(site.sitemapOnly()).containsAll(site.sitemaps());
    Pattern exclude = Pattern.compile(AcceptanceSite.EXCLUDE_SORT);
    Pattern include = Pattern.compile(AcceptanceSite.INCLUDE_DOCS);
    assertThat(linked.stream().filter(t -> exclude.matcher(site.url(t)).find()))
        .containsExactlyInAnyOrder("/docs/list.html?sort=name", "/docs/list.html?page=2&sort=date");
    assertThat(linked.stream().filter(t -> include.matcher(site.url(t)).find()))
        .hasSize(6).allMatch(t -> t.startsWith("/docs/"));
    assertThat(site.listed()).anyMatch(t -> exclude.matcher(t).find());
  }

  private AbstractSiteMap parse(SiteMapParser parser, String target) throws Exception {
    HttpReply reply = site.reply(target);
    return parser.parseSiteMap(reply.field("Content-Type").orElseThrow(), reply.body(),
        URI.create(site.url(target)).toURL());
  }

  private Response get(String target) throws IOException {
    return http.newCall(new Request.Builder().url(site.url(target)).build()).execute();
  }

  private byte[] body(String target) throws IOException {
    try (Response response = get(target)) {
      assertThat(response.code()).as(target).isEqualTo(200);
      return response.body().bytes();
    }
  }

  /** Writes {@code requests} on one connection and reads until the server closes it. */
  private byte[] rawGet(String requests) throws IOException {
    try (Socket socket = new Socket(InetAddress.getByName("127.0.0.1"), URI.create(site.origin()).getPort())) {
      socket.setSoTimeout(10_000);
      OutputStream out = socket.getOutputStream();
      out.write(requests.getBytes(StandardCharsets.ISO_8859_1));
      out.flush();
      try (InputStream in = socket.getInputStream()) {
        return in.readAllBytes();
      }
    }
  }
}
