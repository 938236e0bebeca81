package dev.sieve.app;

import dev.sieve.frontier.queue.CrawlSnapshot;
import dev.sieve.serve.FrontierServer;
import dev.sieve.serve.FrontierServer.RpcListener;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.prometheus.metrics.model.snapshots.Unit;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code serve}'s Prometheus metrics. Counters and gauges are the service's own (what GetStats
 * reports), read once per scrape from {@link FrontierServer#crawls()} and {@link
 * FrontierServer#counters()}; the RPC latency histogram is fed by the server's {@link
 * RpcListener}.
 */
final class ServeMetrics implements MultiCollector, RpcListener {
  /** RPC times, 100 µs to a minute (a PutURLs or GetURLs stream lasts as long as the client). */
  private static final double[] RPC_BUCKETS =
      {0.0001, 0.0005, 0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 10, 60};
  private static final String PUT_RESULT = "put.discovered.|put.known.";

  private final PrometheusRegistry registry = new PrometheusRegistry();
  private final Histogram rpcSeconds;
  private final Counter scrapesRefused;
  private volatile FrontierServer server;

  ServeMetrics() {
    rpcSeconds = Histogram.builder().name("sieve_serve_rpc_seconds").unit(Unit.SECONDS)
        .help("Time from an RPC's start to its close (a stream's whole life), by method and"
            + " gRPC status code")
        .labelNames("method", "code").classicOnly().classicUpperBounds(RPC_BUCKETS)
        .register(registry);
    scrapesRefused = Counter.builder().name("sieve_serve_scrapes_refused")
        .help("Metrics requests refused: unauthenticated (no or a wrong token, 401),"
            + " refused_connections (outside --allow-insecure-from, 403)")
        .labelNames("reason").register(registry);
    registry.register(this);
  }

  /** Counts a metrics request refused for {@code reason} ({@code metrics.unauthenticated}…). */
  void scrapeRefused(String reason) {
    scrapesRefused.labelValues(reason.substring(reason.indexOf('.') + 1)).inc();
  }

  PrometheusRegistry registry() {
    return registry;
  }

  /** From now on, scrapes read {@code server}'s counters. */
  void watch(FrontierServer server) {
    this.server = server;
  }

  @Override
  public void onCall(String method, String code, long nanos) {
    rpcSeconds.labelValues(method, code).observe(nanos / 1e9);
  }

  @Override
  public MetricSnapshots collect() {
    FrontierServer source = server;
    if (source == null) {
      return MetricSnapshots.of();
    }
    MetricFamilies f = new MetricFamilies();
    Map<String, Long> service = source.counters();
    f.counter("sieve_serve_put_items", "PutURLs items received", service.getOrDefault("put.items", 0L))
        .counter("sieve_serve_put_streams", "PutURLs streams opened",
            service.getOrDefault("put.streams", 0L))
        .counter("sieve_serve_put_streams_broken", "PutURLs streams the client broke off",
            service.getOrDefault("put.streams_broken", 0L))
        .counters("sieve_serve_acks", "PutURLs acks sent, by status (ok, skipped, fail)",
            "status", withPrefix(service, "put.acked."))
        .counters("sieve_serve_put_rejected", "PutURLs items refused as bad input, by reason",
            "reason", withPrefix(service, "put.rejected."))
        .counters("sieve_serve_limit_rejections", "Calls refused by a serve limit, by limit",
            "limit", withPrefix(service, "limit."))
        .counters("sieve_serve_errors", "RPCs answered with an error status, by code",
            "code", statusCodes(service))
        .counter("sieve_serve_refused_connections", "gRPC connections closed before any call:"
            + " from outside --allow-insecure-from",
            service.getOrDefault("access.refused_connections", 0L));
    for (CrawlSnapshot crawl : source.crawls()) {
      String id = crawl.crawlId();
      Map<String, Long> counters = crawl.counters();
      Map<String, Long> results = new TreeMap<>();
      counters.forEach((name, n) -> {
        if (name.matches("(" + PUT_RESULT + ").*")) {
          results.put(name.replaceFirst(PUT_RESULT, ""), n);
        }
      });
      f.counters("sieve_serve_urls_put", "URLs put, by result: created (discovered, never"
              + " seen), seen (discovered, dropped by the Sieve), scheduled, completed (known)",
              "result", results, "crawl", id)
          .counter("sieve_serve_urls_got", "URLs handed out by GetURLs (leases)",
              counters.getOrDefault("get.leased", 0L), "crawl", id)
          .gauge("sieve_serve_pending_urls", "URLs pending, in flight included", crawl.pending(),
              "crawl", id)
          .gauge("sieve_serve_in_flight_urls", "URLs leased and not yet expired or updated",
              crawl.inFlight(), "crawl", id)
          .gauge("sieve_serve_queues", "Queues", crawl.queues(), "crawl", id)
          .gauge("sieve_serve_active_queues", "Queues with URLs pending", crawl.activeQueues(),
              "crawl", id)
          .gauge("sieve_serve_completed_urls", "URLs completed (known, never refetched)",
              crawl.completed(), "crawl", id)
          .gauge("sieve_filter_estimated_urls", "The Sieve's estimate of distinct URLs seen",
              crawl.estimatedUrls(), "crawl", id)
          .gauge("sieve_filter_estimated_fpp", "The Sieve's estimated current false-positive rate",
              crawl.estimatedFpp(), "crawl", id);
    }
    return f.build();
  }

  private static Map<String, Long> withPrefix(Map<String, Long> counters, String prefix) {
    Map<String, Long> out = new TreeMap<>();
    counters.forEach((name, n) -> {
      if (name.startsWith(prefix)) {
        out.put(name.substring(prefix.length()), n);
      }
    });
    return out;
  }

  /** The counters named by a status code alone ({@code invalid_argument}, {@code not_found}…). */
  private static Map<String, Long> statusCodes(Map<String, Long> counters) {
    Map<String, Long> out = new TreeMap<>();
    counters.forEach((name, n) -> {
      if (name.indexOf('.') < 0) {
        out.put(name, n);
      }
    });
    return out;
  }
}
