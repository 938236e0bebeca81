package dev.sieve.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DemoSiteTest {
  private final DemoSite site = new DemoSite(300);

  @Test
  void admitted_calendarTrap_endsAtTheFirstQueryPastTheCap() {
    Set<String> admitted = site.admitted(5);

    assertThat(admitted).contains(DemoSite.key(2, "/calendar?month=0"), DemoSite.key(2, "/calendar?month=4"))
        .doesNotContain(DemoSite.key(2, "/calendar?month=5"));
    assertThat(site.admitted(100)).contains(DemoSite.key(0, "/calendar?month=99"))
        .doesNotContain(DemoSite.key(0, "/calendar?month=100"));
    assertThat(admitted).filteredOn(a -> a.contains("?")).hasSize(DemoSite.HOSTS * 5);
  }

  @Test
  void answer_everyPage_linksDistinctUrlsAndSomeOnOtherHosts() {
    long crossHost = 0;
    for (String address : site.admitted(100)) {
      int host = address.charAt(0) - '0';
      DemoSite.Answer answer = site.answer(host, address.substring(1));
      assertThat(answer.links()).doesNotHaveDuplicates();
      assertThat(answer.links().stream().map(l -> DemoSite.key(l.host(), l.path()))).doesNotHaveDuplicates();
      crossHost += answer.links().stream().filter(l -> l.host() >= 0 && l.host() != host).count();
    }
    assertThat(crossHost).isGreaterThan(100);
  }

  @Test
  void admitted_disallowedAndOffSitePages_linkedButNotAdmitted() {
    Set<String> admitted = site.admitted(100);
    List<DemoSite.Link> links = admitted.stream()
        .flatMap(a -> site.answer(a.charAt(0) - '0', a.substring(1)).links().stream()).toList();

    assertThat(links).anyMatch(l -> DemoSite.disallowed(l.path())).anyMatch(l -> l.host() < 0);
    assertThat(admitted).noneMatch(a -> DemoSite.disallowed(a.substring(1))).noneMatch(a -> a.startsWith("-"));
  }

  @Test
  void server_servesRobotsRedirectChainAndMissingPages_andCountsRequests() throws Exception {
    HttpClient client = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build();
    try (DemoServer server = DemoServer.start(site)) {
      String origin = server.origin(1);

      HttpResponse<String> robots = get(client, origin + "/robots.txt");
      HttpResponse<String> old = get(client, origin + "/old/13");
      HttpResponse<String> moved = get(client, origin + old.headers().firstValue("Location").orElseThrow());
      HttpResponse<String> missing = get(client, origin + "/articles/100000.html");
      HttpResponse<String> article = get(client, origin + "/articles/5.html");
      get(client, origin + "/private/7.html");
      get(client, origin + "/articles/5.html");

      assertThat(robots.body()).contains("Disallow: /private/");
      assertThat(old.statusCode()).isEqualTo(301);
      assertThat(moved.statusCode()).isEqualTo(302);
      assertThat(moved.headers().firstValue("Location")).hasValue(origin + "/articles/13.html");
      assertThat(missing.statusCode()).isEqualTo(404);
      assertThat(article.statusCode()).isEqualTo(200);
      assertThat(article.body()).contains("href=\"6.html\"").contains("href=\"" + origin + "/\"");
      assertThat(server.requests()).isEqualTo(7);
      assertThat(server.disallowedRequests()).isEqualTo(1);
      assertThat(server.repeatedRequests()).isEqualTo(1);
    }
  }

  @Test
  void newDirectory_nameTaken_takesTheNextAndNeverReusesOne(@TempDir Path base) throws Exception {
    LocalDateTime now = LocalDateTime.of(2026, 11, 24, 1, 2, 3);

    Path first = DemoCommand.newDirectory(base, now);
    Files.writeString(first.resolve("crawl.jsonl"), "kept\n");
    Path second = DemoCommand.newDirectory(base, now);

    assertThat(first.getFileName()).hasToString("sieve-demo-20261124-010203");
    assertThat(second.getFileName()).hasToString("sieve-demo-20261124-010203-2");
    assertThat(first.resolve("crawl.jsonl")).hasContent("kept");
  }

  private static HttpResponse<String> get(HttpClient client, String url) throws Exception {
    return client.send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString());
  }
}
