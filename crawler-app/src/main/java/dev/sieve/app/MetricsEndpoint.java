package dev.sieve.app;

import io.prometheus.metrics.exporter.httpserver.HTTPServer;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;

/** The Prometheus scrape endpoint: {@code http://HOST:PORT/metrics}, until closed. */
final class MetricsEndpoint implements AutoCloseable {
  private final HTTPServer server;

  private MetricsEndpoint(HTTPServer server) {
    this.server = server;
  }

  /**
   * Serves {@code registry} on {@code host:port} (0: a free port).
   *
   * @throws UncheckedIOException with a one-line message naming the address and the cause when
   *     the address cannot be bound (a port in use)
   */
  static MetricsEndpoint start(String host, int port, PrometheusRegistry registry) {
    try {
      return new MetricsEndpoint(HTTPServer.builder().hostname(host).port(port)
          .registry(registry).buildAndStart());
    } catch (IOException e) {
      String cause = e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
      throw new UncheckedIOException(
          "metrics: cannot listen on " + host + ":" + port + ": " + cause, e);
    }
  }

  int port() {
    return server.getPort();
  }

  @Override
  public void close() {
    server.close();
  }
}
