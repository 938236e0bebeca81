package dev.sieve.crawl;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sieve.fetch.ProxyServer;
import dev.sieve.fetch.ProxySettings;
import dev.sieve.testing.LocalProxy;
import dev.sieve.testing.TestSite;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Crawls through a real tinyproxy, which closes its side of each connection after the answer
 * without saying so: at any {@code --per-host}, every reachable URL is fetched once, nothing is
 * retried, and the proxy's closed connections are never the server's failures.
 */
class CrawlThroughProxyTest {
  @TempDir Path dir;

  @ParameterizedTest
  @ValueSource(ints = {1, 4, 8})
  void crawl_throughTinyproxy_everyUrlOnceNoRetryNoHostUnreachable(int perHost) throws Exception {
    try (TestSite site = TestSite.start(100);
        LocalProxy proxy = LocalProxy.tinyproxy(dir, "127.0.0.2", null, null)) {
      ProxySettings proxies =
          ProxySettings.of(ProxyServer.parse("proxy", "http://127.0.0.1:" + proxy.port()), null);
      List<PageRecord> records = new CopyOnWriteArrayList<>();

      CrawlProgress summary = RecordedCrawl.run(RecordedCrawl.defaults(site.url("/p/0.html"))
          .maxInFlightPerHost(perHost).fetch(f -> f.proxies(proxies)).build(), records,
          new ArrayList<>());

      assertThat(records).extracting(r -> URI.create(r.url()).getPath())
          .hasSameElementsAs(site.reachablePaths(Integer.MAX_VALUE));
      assertThat(records).extracting(PageRecord::error)
          .doesNotContain("host-unreachable", "io", "proxy-unreachable");
      assertThat(summary.retries()).isZero();
      // Each connection kept before tinyproxy's first close was seen is met once, no more.
      assertThat(summary.connections().stale()).isLessThanOrEqualTo(perHost);
    }
  }
}
