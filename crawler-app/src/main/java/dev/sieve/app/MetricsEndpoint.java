package dev.sieve.app;

import com.sun.net.httpserver.HttpsConfigurator;
import dev.sieve.serve.access.Access;
import io.prometheus.metrics.exporter.httpserver.HTTPServer;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.function.Consumer;

/** The Prometheus scrape endpoint: {@code http[s]://HOST:PORT/metrics}, until closed. */
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
    return start(host, port, registry, Access.open(), refusal -> { });
  }

  /**
   * Serves {@code registry} as {@code access} says: over TLS with its identity, to requests with
   * a token of its file (any other answered 401 and counted in {@code refusals}), from its
   * networks only (any other answered 403, counted too).
   *
   * @throws UncheckedIOException as {@link #start(String, int, PrometheusRegistry)}
   */
  static MetricsEndpoint start(String host, int port, PrometheusRegistry registry, Access access,
      Consumer<String> refusals) {
    try {
      HTTPServer.Builder builder = HTTPServer.builder().hostname(host).port(port)
          .registry(registry);
      if (access.tls()) {
        builder.httpsConfigurator(new HttpsConfigurator(access.sslContext()));
      }
      if (access.tokensRequired() || !access.insecureNetworks().isEmpty()) {
        builder.authenticator(new ScrapeAuthenticator(access, refusals));
      }
      return new MetricsEndpoint(builder.buildAndStart());
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
