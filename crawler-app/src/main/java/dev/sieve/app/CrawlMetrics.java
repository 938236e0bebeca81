package dev.sieve.app;

import dev.sieve.crawl.CrawlListener;
import dev.sieve.crawl.CrawlProgress;
import dev.sieve.crawl.PageRecord;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.prometheus.metrics.model.snapshots.Unit;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * {@code crawl}'s Prometheus metrics. The counters and gauges are the crawler's own ({@link
 * CrawlProgress}), read once per scrape; the fetch-time histogram is fed by the crawler's records
 * ({@link #onPage}, each record's {@code fetchMs}). Nothing in the crawl loop knows of Prometheus.
 */
final class CrawlMetrics implements MultiCollector {
  /** Fetch times, 5 ms to a minute: most pages land in the middle buckets. */
  private static final double[] FETCH_BUCKETS =
      {0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60};

  private final PrometheusRegistry registry = new PrometheusRegistry();
  private final Histogram fetchSeconds;
  private volatile Supplier<CrawlProgress> progress;

  CrawlMetrics() {
    fetchSeconds = Histogram.builder().name("sieve_crawl_fetch_seconds").unit(Unit.SECONDS)
        .help("Wall time of each fetch (robots.txt and sitemaps aside), by status class:"
            + " 2xx..5xx, or none when no response came (timeout, refused...)")
        .labelNames("status_class").classicOnly().classicUpperBounds(FETCH_BUCKETS)
        .register(registry);
    registry.register(this);
  }

  PrometheusRegistry registry() {
    return registry;
  }

  /** From now on, scrapes read the counters {@code progress} gives. */
  void watch(Supplier<CrawlProgress> progress) {
    this.progress = progress;
  }

  /** A record's fetch into the histogram; records of URLs not fetched count nowhere here. */
  void onPage(PageRecord record) {
    if (record.status() > 0 || record.fetchMs() > 0) {
      String statusClass = record.status() > 0 ? record.status() / 100 + "xx" : "none";
      fetchSeconds.labelValues(statusClass).observe(record.fetchMs() / 1000.0);
    }
  }

  /** {@code listener} with each page also fed to {@link #onPage}. */
  CrawlListener tee(CrawlListener listener) {
    return new ForwardingListener(listener) {
      @Override
      public void onPage(PageRecord record) {
        super.onPage(record);
        CrawlMetrics.this.onPage(record);
      }
    };
  }

  @Override
  public MetricSnapshots collect() {
    Supplier<CrawlProgress> source = progress;
    if (source == null) {
      return MetricSnapshots.of();
    }
    CrawlProgress p = source.get();
    MetricFamilies f = new MetricFamilies()
        .counter("sieve_crawl_pages", "URLs done, one record each", p.pages())
        .counter("sieve_crawl_bytes", "Body bytes kept", p.bytes())
        .counter("sieve_crawl_retries", "Fetches retried", p.retries())
        .counters("sieve_crawl_errors", "Records with an error, by kind (http-404, timeout...)",
            "kind", p.errors())
        .counters("sieve_crawl_skipped", "URLs not fetched, by reason (robots-denied...)",
            "reason", p.skipped())
        .counters("sieve_crawl_links", "Links found on pages and in sitemaps, by fate"
            + " (new, seen, out-of-scope...)", "fate", withoutFound(p.links()))
        .counters("sieve_crawl_sitemap_events", "Sitemap files fetched, failed, cut, and the"
            + " URLs they listed", "event", p.sitemaps())
        .counters("sieve_crawl_session_events", "What the crawl did as a browser does: meta-refresh,"
            + " cookie-refetch, cookie-rejected, cookie-over-cap", "event", p.session())
        .counter("sieve_crawl_capacity_warnings", "Sieve capacity warnings", p.capacityWarnings())
        .counters("sieve_crawl_connections", "Connections opened, requests sent on a kept one"
            + " (reused), requests sent again on a new one as the kept one was closed (stale)",
            "kind", connections(p.connections()))
        .gauge("sieve_crawl_pending_urls", "URLs waiting in the frontier", p.pending())
        .gauge("sieve_crawl_in_flight_urls", "URLs being fetched", p.inFlight())
        .gauge("sieve_crawl_hosts", "Politeness keys (hosts) seen", p.hosts())
        .gauge("sieve_filter_estimated_urls", "The Sieve's estimate of distinct URLs seen",
            p.sieveEstimate())
        .gauge("sieve_filter_estimated_fpp", "The Sieve's estimated current false-positive rate",
            p.sieveFpp())
        .gauge("sieve_filter_layers", "The Sieve's filter layers", p.sieveLayers());
    return f.build();
  }

  private static Map<String, Long> connections(CrawlProgress.Connections c) {
    Map<String, Long> kinds = new LinkedHashMap<>();
    kinds.put("opened", c.opened());
    kinds.put("reused", c.reused());
    kinds.put("stale", c.stale());
    return kinds;
  }

  private static Map<String, Long> withoutFound(Map<String, Long> links) {
    Map<String, Long> fates = new LinkedHashMap<>(links);
    fates.remove("found");
    return fates;
  }
}
