package dev.sieve.crawl;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sieve.testing.TestSite;
import dev.sieve.url.Scope;
import dev.sieve.url.Url;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class CrawlerTest {
  private static final int PAGES = 1200;

  @Test
  void crawl_generatedSite_fetchesEveryReachableInScopeUrlExactlyOnce() throws Exception {
    try (TestSite site = TestSite.start(PAGES)) {
      List<PageRecord> records = crawl(site, b -> b);

      Set<String> expected = site.reachablePaths(Integer.MAX_VALUE);
      assertThat(expected).hasSizeGreaterThanOrEqualTo(PAGES);
      assertThat(paths(records)).hasSameElementsAs(expected).hasSameSizeAs(records);
      Map<String, Integer> counts = site.requestCounts();
      counts.remove("/robots.txt");
      assertThat(counts.keySet()).isEqualTo(expected);
      assertThat(counts.values()).containsOnly(1);
      assertThat(site.log()).extracting(TestSite.Request::host).containsOnly("127.0.0.1");

      PageRecord missing = record(records, "/missing/0.html");
      assertThat(missing.status()).isEqualTo(404);
      assertThat(missing.error()).isEqualTo("http-404");
      PageRecord redirect = record(records, "/r/1");
      assertThat(redirect.status()).isEqualTo(301);
      assertThat(redirect.error()).isNull();
      assertThat(redirect.outlinks()).isEqualTo(1);
      PageRecord seed = record(records, "/p/0.html");
      assertThat(seed.depth()).isZero();
      assertThat(seed.status()).isEqualTo(200);
      assertThat(seed.contentType()).startsWith("text/html");
      assertThat(seed.outlinks()).isEqualTo(9);
      assertThat(seed.bytes()).isPositive();
      assertThat(seed.fetchedAt()).isNotNull();
      assertThat(records.stream().mapToInt(PageRecord::newLinks).sum()).isEqualTo(expected.size() - 1);
    }
  }

  @Test
  void crawl_maxPages_stopsAfterExactlyThatMany() throws Exception {
    try (TestSite site = TestSite.start(PAGES)) {
      List<PageRecord> records = crawl(site, b -> b.maxPages(50));

      assertThat(records).hasSize(50);
      Map<String, Integer> counts = site.requestCounts();
      counts.remove("/robots.txt");
      assertThat(counts.values().stream().mapToInt(Integer::intValue).sum()).isEqualTo(50);
    }
  }

  @Test
  void crawl_maxDepth_fetchesEverythingWithinItAndNothingBeyond() throws Exception {
    try (TestSite site = TestSite.start(PAGES)) {
      List<PageRecord> records = crawl(site, b -> b.scope(s -> s.maxDepth(3)));

      // Depth is counted along the path by which a URL was first found. With eight workers a
      // page may be found first by a longer path, so pages whose only short path runs through
      // it can be missed at the last level: everything within depth 2 is certain, nothing
      // beyond depth 3 is fetched.
      assertThat(records).allMatch(r -> r.depth() <= 3);
      assertThat(site.reachablePaths(3)).containsAll(paths(records));
      assertThat(paths(records)).containsAll(site.reachablePaths(2));
    }
  }

  @Test
  void crawl_scopeAnyWithPrivateAllowed_followsLinksToTheOtherHost() throws Exception {
    try (TestSite site = TestSite.start(100)) {
      List<PageRecord> records = crawl(site, b -> b.scope(s -> s.scope(Scope.ANY).allowPrivate(true)));

      Set<String> expected = site.reachablePaths(Integer.MAX_VALUE);
      Set<String> hosts = records.stream().map(r -> URI.create(r.url()).getHost()).collect(Collectors.toSet());
      assertThat(hosts).containsExactlyInAnyOrder("127.0.0.1", "localhost");
      assertThat(records).hasSize(2 * expected.size());
      assertThat(site.requestCounts().get("/p/0.html")).isEqualTo(2);
    }
  }

  @Test
  void crawl_scopeAnyWithoutPrivateAllowed_refusesLinksToAnotherPrivateHost() throws Exception {
    try (TestSite site = TestSite.start(100)) {
      CrawlProgress[] progress = new CrawlProgress[1];
      List<PageRecord> records = crawl(site, b -> b.scope(s -> s.scope(Scope.ANY)), p -> progress[0] = p);

      assertThat(records).extracting(r -> URI.create(r.url()).getHost()).containsOnly("127.0.0.1");
      assertThat(progress[0].links()).containsKey("private-address");
    }
  }

  private static List<PageRecord> crawl(TestSite site, UnaryOperator<CrawlConfig.Builder> settings)
      throws InterruptedException {
    return crawl(site, settings, p -> {});
  }

  private static List<PageRecord> crawl(
      TestSite site,
      UnaryOperator<CrawlConfig.Builder> settings,
      java.util.function.Consumer<CrawlProgress> summary)
      throws InterruptedException {
    List<PageRecord> records = new CopyOnWriteArrayList<>();
    CrawlConfig config =
        settings
            .apply(
                CrawlConfig.builder()
                    .seeds(List.of(Url.parse(site.url("/p/0.html")).orElseThrow()))
                    .threads(8)
                    .politenessDelay(Duration.ZERO)
                    .maxInFlightPerHost(8)
                    .expectedUrls(100_000)
                    .fetch(f -> f.retryBackoff(Duration.ofMillis(10))))
            .build();
    CrawlProgress progress = Crawler.open(config, new CrawlListener() {
      @Override
      public void onPage(PageRecord record) {
        records.add(record);
      }
    }).run();
    summary.accept(progress);
    assertThat(progress.pages()).isEqualTo(records.size());
    return records;
  }

  private static Set<String> paths(List<PageRecord> records) {
    return records.stream().map(r -> URI.create(r.url()).getRawPath()).collect(Collectors.toSet());
  }

  private static PageRecord record(List<PageRecord> records, String path) {
    return records.stream().filter(r -> r.url().endsWith(path)).findFirst().orElseThrow();
  }
}
