package dev.sieve.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import crawlercommons.urlfrontier.URLFrontierGrpc;
import crawlercommons.urlfrontier.Urlfrontier.AckMessage;
import crawlercommons.urlfrontier.Urlfrontier.GetParams;
import crawlercommons.urlfrontier.Urlfrontier.KnownURLItem;
import crawlercommons.urlfrontier.Urlfrontier.QueueDelayParams;
import crawlercommons.urlfrontier.Urlfrontier.QueueWithinCrawlParams;
import crawlercommons.urlfrontier.Urlfrontier.Stats;
import crawlercommons.urlfrontier.Urlfrontier.URLInfo;
import crawlercommons.urlfrontier.Urlfrontier.URLItem;
import crawlercommons.urlfrontier.Urlfrontier.URLStatusRequest;
import dev.sieve.serve.FrontierClient;
import dev.sieve.testing.RedisServers;
import dev.sieve.testing.TestSite;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.StatusRuntimeException;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 39: one crawl, two faces on one real redis-server. A {@code serve --frontier redis://}
 * node and a {@code crawl --frontier redis://} process are given the same crawl ID; a gRPC client
 * puts URLs through serve (before and during the crawl), leases one and fetches it itself, and the
 * crawl fetches the rest and everything their links lead to. The site's request log is the judge:
 * every URL that either face knows is fetched exactly once, by one of them; and what the crawl
 * found is known to serve (completed), as seen through GetURLStatus, GetStats and PutURLs acks.
 *
 * <p>The two faces share a URL's queue when the client puts it under the crawl's politeness key
 * ({@code --queue-key}, by default the origin, {@code http://127.0.0.1:PORT}); an item without a
 * key would go to serve's default queue, the bare host, which the crawl does not key by.
 */
class SharedCrawlIT {
  private static final String CRAWL = "shared";
  /** Site pages linked from page 0; pages from here to twice it exist, linked from nowhere. */
  private static final int PAGES = 300;
  private static final int THREADS = 4;
  private static final String EXPECTED_URLS = "100000";
  /** The gRPC client's own lease: long enough never to expire in the test, so the crawl waits on it. */
  private static final int CLIENT_LEASE_SECONDS = 600;
  private static final Pattern HREF = Pattern.compile("href=\"([^\"]+)\"");
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;

  @Test
  void crawlAndServeOnOneRedisCrawl_fetchWhatEitherFaceKnowsExactlyOnce() throws Exception {
    try (RedisServers redis = RedisServers.standalone(); TestSite site = TestSite.start(PAGES)) {
      URI root = URI.create(site.url("/"));
      String key = root.getScheme() + "://" + root.getHost() + ":" + root.getPort();
      CrawlerJar.Started serve = new CrawlerJar(Files.createDirectories(dir.resolve("serve")))
          .start("serve", "--port", "0", "--frontier", redis.uri(), "--expected-urls", EXPECTED_URLS);
      ManagedChannel channel = null;
      CrawlerJar.Started crawl = null;
      SoftAssertions soft = new SoftAssertions();
      try {
        channel = ManagedChannelBuilder.forAddress("127.0.0.1", ServeIT.awaitPort(serve, 120))
            .usePlaintext().build();
        // The crawl runs with --delay-ms 0; serve's spacing of the crawl's queues too.
        blocking(channel).setDelay(QueueDelayParams.newBuilder().setCrawlID(CRAWL)
            .setDelayRequestable(0).build());

        // Before the crawl: pages nothing links to (only the client knows them), one of them twice,
        // under the crawl's key, and pages the crawl will also find (its seed among them).
        List<String> beforePaths = new ArrayList<>();
        List<URLItem> before = new ArrayList<>();
        for (int i = PAGES; i < PAGES + 80; i++) {
          String path = "/p/" + i + ".html";
          beforePaths.add(path);
          before.add(FrontierClient.discovered(site.url(path), key, CRAWL));
        }
        List<String> overlap = List.of("/p/0.html", "/p/1.html", "/p/150.html", "/r/1",
            "/missing/50.html");
        for (String path : overlap) {
          beforePaths.add(path);
          before.add(FrontierClient.discovered(site.url(path), key, CRAWL));
        }
        before.add(FrontierClient.discovered(site.url("/p/" + PAGES + ".html"), key, CRAWL));
        List<AckMessage> beforeAcks = FrontierClient.put(channel, before);
        assertThat(beforeAcks).hasSize(before.size());
        assertThat(beforeAcks.subList(0, beforePaths.size())).extracting(AckMessage::getStatus)
            .as("each URL admitted").containsOnly(AckMessage.Status.OK);
        assertThat(beforeAcks.get(beforePaths.size()).getStatus()).as("the repeat skipped")
            .isEqualTo(AckMessage.Status.SKIPPED);

        // The client takes one URL for itself, as a crawler on the gRPC face would, and fetches it.
        List<String> leased = new ArrayList<>();
        blocking(channel).getURLs(GetParams.newBuilder().setCrawlID(CRAWL).setMaxQueues(1)
                .setMaxUrlsPerQueue(1).setDelayRequestable(CLIENT_LEASE_SECONDS).build())
            .forEachRemaining(info -> leased.add(info.getUrl()));
        assertThat(leased).as("the client leases one URL").hasSize(1);
        String clientUrl = leased.get(0);
        String clientPath = URI.create(clientUrl).getRawPath();
        assertThat(beforePaths).as("what the client was handed").contains(clientPath);
        HttpResponse<String> page = HttpClient.newBuilder().proxy(HttpClient.Builder.NO_PROXY)
            .followRedirects(HttpClient.Redirect.NEVER).connectTimeout(Duration.ofSeconds(10)).build()
            .send(HttpRequest.newBuilder(URI.create(clientUrl)).timeout(Duration.ofSeconds(30)).build(),
                HttpResponse.BodyHandlers.ofString());

        Path seeds = Files.writeString(dir.resolve("seeds.txt"), site.url("/p/0.html") + "\n");
        Path output = dir.resolve("crawl-" + CRAWL + ".jsonl");
        crawl = new CrawlerJar(Files.createDirectories(dir.resolve("crawl"))).start("crawl",
            "--seeds", seeds.toString(), "--output", output.toString(),
            "--frontier", redis.uri(), "--crawl-id", CRAWL, "--threads", Integer.toString(THREADS),
            "--delay-ms", "0", "--per-host", "6", "--expected-urls", EXPECTED_URLS);
        Process process = crawl.process();

        // During the crawl: more pages only the client knows, and pages the crawl has fetched.
        awaitOrExit(() -> recorded(output).size() >= 40, process, 120);
        List<String> fetchedByCrawl = recorded(output).stream().distinct().limit(20).toList();
        List<String> duringNew = IntStream.range(PAGES + 100, PAGES + 120)
            .mapToObj(i -> "/p/" + i + ".html").toList();
        List<URLItem> during = new ArrayList<>();
        duringNew.forEach(path -> during.add(FrontierClient.discovered(site.url(path), key, CRAWL)));
        fetchedByCrawl.forEach(path -> during.add(FrontierClient.discovered(site.url(path), key, CRAWL)));
        Map<String, AckMessage.Status> duringAcks = new HashMap<>();
        FrontierClient.put(channel, during)
            .forEach(ack -> duringAcks.put(URI.create(ack.getID()).getRawPath(), ack.getStatus()));
        soft.assertThat(process.isAlive()).as("the crawl still runs after its 40th page"
            + " (it cannot end while the client holds a lease in the crawl)").isTrue();
        soft.assertThat(fetchedByCrawl).as("pages the crawl fetched before the second put").hasSize(20);
        none(soft, duringNew.stream().filter(path -> duringAcks.get(path) != AckMessage.Status.OK)
            .toList(), "new pages put during the crawl that serve did not admit");
        none(soft, fetchedByCrawl.stream()
                .filter(path -> duringAcks.get(path) != AckMessage.Status.SKIPPED).toList(),
            "pages the crawl had fetched that serve took as new (PutURLs acked them OK, not SKIPPED)");

        // The crawl fetches what was put while it ran, and cannot end while the client's lease
        // lasts; then the client reports its page's links and completes its page.
        awaitOrExit(() -> recorded(output).containsAll(duringNew), process, 120);
        none(soft, difference(Set.copyOf(duringNew), Set.copyOf(recorded(output))),
            "pages put through serve while the crawl ran that it did not fetch before the client's"
            + " lease ended");
        soft.assertThat(process.isAlive())
            .as("the crawl waits while the gRPC client holds a lease in the crawl").isTrue();
        List<URLItem> report = new ArrayList<>();
        for (String link : sameOriginLinks(clientUrl, page.body())) {
          report.add(FrontierClient.discovered(link, key, CRAWL));
        }
        report.add(completed(clientUrl, key));
        soft.assertThat(FrontierClient.put(channel, report)).extracting(AckMessage::getStatus)
            .as("the client's links and completion taken").doesNotContain(AckMessage.Status.FAIL);

        if (!process.waitFor(240, TimeUnit.SECONDS)) {
          soft.fail("the crawl did not finish within 240 s of the client's completion; its stderr"
              + " ends: " + tail(crawl.stderr()));
          soft.assertAll();
        }
        soft.assertThat(process.exitValue()).as("the crawl's exit; its stderr ends: %s",
            tail(crawl.stderr())).isZero();
        soft.assertThat(Files.readString(crawl.stdout())).contains("Crawl summary");

        // Every URL either face knew is fetched once, by one of them.
        Set<String> expected = new TreeSet<>(site.reachablePaths(Integer.MAX_VALUE));
        expected.addAll(beforePaths);
        expected.addAll(duringNew);
        Set.copyOf(expected).forEach(path -> expected.addAll(linksOfUnlinkedPage(path)));
        Map<String, Integer> counts = new TreeMap<>(site.requestCounts());
        counts.remove("/robots.txt");
        none(soft, difference(expected, counts.keySet()),
            "expected URLs never fetched (by the crawl or the client)");
        none(soft, difference(counts.keySet(), expected), "URLs fetched, not expected");
        Map<String, Integer> repeated = new TreeMap<>(counts);
        repeated.values().removeIf(n -> n == 1);
        none(soft, repeated.entrySet().stream().map(e -> e.getKey() + " x" + e.getValue()).toList(),
            "URLs fetched more than once");
        soft.assertThat(counts.get(clientPath)).as("the client's page, fetched by the client only")
            .isEqualTo(1);

        // The crawl's output: one record per URL it fetched, i.e. all but the client's.
        List<String> recorded = recorded(output);
        Set<String> crawlExpected = new TreeSet<>(expected);
        crawlExpected.remove(clientPath);
        none(soft, recorded.stream().filter(path -> recorded.indexOf(path) != recorded.lastIndexOf(path))
            .distinct().toList(), "URLs the crawl recorded more than once");
        none(soft, difference(crawlExpected, Set.copyOf(recorded)),
            "URLs the crawl should have recorded and did not");
        none(soft, difference(Set.copyOf(recorded), crawlExpected),
            "URLs recorded that the crawl should not have fetched");

        // The other way round: what the crawl found, serve knows, completed.
        // Pages only the crawl put: found through its links, never put through serve by the client.
        Set<String> putByClient = new TreeSet<>(beforePaths);
        putByClient.addAll(fetchedByCrawl);
        putByClient.add(clientPath);
        sameOriginLinks(clientUrl, page.body()).forEach(url -> putByClient.add(URI.create(url).getRawPath()));
        List<String> crawlOnly = recorded.stream().filter(path -> !putByClient.contains(path)).toList();
        soft.assertThat(crawlOnly).as("pages only the crawl found").hasSizeGreaterThan(100);
        List<String> probed = new ArrayList<>(crawlOnly.subList(Math.max(0, crawlOnly.size() - 3),
            crawlOnly.size()));
        if (!putByClient.contains("/r/3")) {
          probed.add("/r/3");
        }
        for (String path : probed) {
          try {
            URLItem status = blocking(channel).getURLStatus(URLStatusRequest.newBuilder()
                .setUrl(site.url(path)).setKey(key).setCrawlID(CRAWL).build());
            soft.assertThat(status.hasKnown()).as("serve's status of %s: %s", path, status).isTrue();
            soft.assertThat(status.getKnown().getRefetchableFromDate())
                .as("%s completed (refetch date 0)", path).isZero();
          } catch (StatusRuntimeException e) {
            soft.fail("GetURLStatus of " + path + ", found by the crawl, failed: " + e.getStatus());
          }
        }
        Stats stats = blocking(channel).getStats(QueueWithinCrawlParams.newBuilder()
            .setCrawlID(CRAWL).build());
        soft.assertThat(stats.getSize()).as("nothing pending in the crawl: %s", stats.getCountsMap())
            .isZero();
        soft.assertThat(stats.getInProcess()).as("nothing leased in the crawl").isZero();
        soft.assertThat(stats.getCountsMap().getOrDefault("completed", 0L))
            .as("every URL fetched counted completed by serve: %s", stats.getCountsMap())
            .isEqualTo(expected.size());
        List<URLItem> again = expected.stream()
            .map(path -> FrontierClient.discovered(site.url(path), key, CRAWL)).toList();
        List<AckMessage> againAcks = FrontierClient.put(channel, again);
        none(soft, againAcks.stream().filter(ack -> ack.getStatus() != AckMessage.Status.SKIPPED)
                .map(AckMessage::getID).map(url -> URI.create(url).getRawPath()).sorted().toList(),
            "URLs fetched in the crawl that serve did not know when put again after it");
        List<String> handedOut = new ArrayList<>();
        blocking(channel).getURLs(GetParams.newBuilder().setCrawlID(CRAWL).setMaxQueues(10)
                .setMaxUrlsPerQueue(100).setDelayRequestable(1).build())
            .forEachRemaining(info -> handedOut.add(info.getUrl()));
        none(soft, handedOut, "URLs serve still hands out after the crawl");
      } finally {
        if (crawl != null && crawl.process().isAlive()) {
          crawl.process().destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        }
        if (channel != null) {
          channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        }
        serve.process().destroy();
        serve.process().waitFor(30, TimeUnit.SECONDS);
      }
      soft.assertAll();
    }
  }

  private static URLFrontierGrpc.URLFrontierBlockingStub blocking(ManagedChannel channel) {
    return URLFrontierGrpc.newBlockingStub(channel).withDeadlineAfter(60, TimeUnit.SECONDS);
  }

  /**
   * The links of {@code path} if it is one of the site's pages that nothing links to (index
   * {@code PAGES} or more; empty otherwise) that page 0 does not reach: TestSite links every page
   * to pages below {@code PAGES} (next, further, half), every 10th to the redirect chain (reached),
   * and every 25th to a missing page of its own index.
   */
  private static Set<String> linksOfUnlinkedPage(String path) {
    Matcher page = Pattern.compile("/p/(\\d+)\\.html").matcher(path);
    if (!page.matches() || Integer.parseInt(page.group(1)) < PAGES) {
      return Set.of();
    }
    int i = Integer.parseInt(page.group(1));
    return i % 25 == 0 ? Set.of("/missing/" + i + ".html") : Set.of();
  }

  /** The last 2,000 characters of {@code file}. */
  private static String tail(Path file) throws IOException {
    String text = Files.readString(file);
    return text.substring(Math.max(0, text.length() - 2_000));
  }

  /** Asserts {@code found} empty, saying on one line how many there are and the first 30. */
  private static void none(SoftAssertions soft, Collection<String> found, String what) {
    String shown = found.stream().limit(30).collect(Collectors.joining(" "))
        + (found.size() > 30 ? " ..." : "");
    soft.assertThat(found.size()).as("%s: %d: %s", what, found.size(), shown).isZero();
  }

  /** A known item of {@code url} in the crawl: fetched, not to be fetched again. */
  private static URLItem completed(String url, String key) {
    return URLItem.newBuilder().setKnown(KnownURLItem.newBuilder()
        .setInfo(URLInfo.newBuilder().setUrl(url).setKey(key).setCrawlID(CRAWL))
        .setRefetchableFromDate(0))
        .build();
  }

  /** The links of a page on its own origin, absolute, without fragments, in page order. */
  private static Set<String> sameOriginLinks(String pageUrl, String html) {
    URI base = URI.create(pageUrl);
    Set<String> links = new LinkedHashSet<>();
    Matcher href = HREF.matcher(html);
    while (href.find()) {
      URI link = base.resolve(href.group(1));
      if ("http".equals(link.getScheme()) && base.getHost().equals(link.getHost())
          && base.getPort() == link.getPort()) {
        links.add(link.toString().replaceFirst("#.*$", ""));
      }
    }
    return links;
  }

  /**
   * Waits, looking every 50 ms, until {@code condition} holds, {@code process} has exited, or
   * {@code seconds} pass; the caller asserts what it needs.
   */
  private static void awaitOrExit(BooleanSupplier condition, Process process, int seconds)
      throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    while (!condition.getAsBoolean() && process.isAlive() && System.nanoTime() < deadline) {
      process.waitFor(50, TimeUnit.MILLISECONDS);
    }
  }

  /** The paths the crawl has recorded so far, in order, with repeats (whole lines only). */
  private static List<String> recorded(Path output) {
    List<String> paths = new ArrayList<>();
    String text;
    try {
      text = Files.exists(output) ? Files.readString(output) : "";
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    int end = text.lastIndexOf('\n');
    if (end < 0) {
      return paths;
    }
    for (String line : text.substring(0, end).split("\n")) {
      try {
        paths.add(URI.create(JSON.readTree(line).get("url").asText()).getRawPath());
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    }
    return paths;
  }

  private static Set<String> difference(Set<String> a, Set<String> b) {
    Set<String> rest = new TreeSet<>(a);
    rest.removeAll(b);
    return rest;
  }
}
