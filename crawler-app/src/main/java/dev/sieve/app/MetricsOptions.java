package dev.sieve.app;

import io.prometheus.metrics.model.registry.PrometheusRegistry;
import picocli.CommandLine.Option;

/** {@code --metrics-port} and {@code --metrics-host}, shared by {@code crawl} and {@code serve}. */
final class MetricsOptions {
  static final String DEFAULT_HOST = "127.0.0.1";

  @Option(names = "--metrics-port", defaultValue = "0", paramLabel = "PORT",
      description = "Serve Prometheus metrics at http://HOST:PORT/metrics; 0 serves none (default ${DEFAULT-VALUE}).")
  int port;

  @Option(names = "--metrics-host", defaultValue = DEFAULT_HOST, paramLabel = "ADDRESS",
      description = "Address the metrics endpoint listens on; 0.0.0.0 for every interface (default ${DEFAULT-VALUE}).")
  String host;

  /** Null when the port is out of range, else the message naming the option. */
  String misuse() {
    return port < 0 || port > 65535
        ? "--metrics-port (" + port + ") must be between 0 and 65535 (0: no metrics)" : null;
  }

  boolean enabled() {
    return port != 0;
  }

  /**
   * The endpoint serving {@code registry}, or null when metrics are off.
   *
   * @throws java.io.UncheckedIOException with a one-line message when the port cannot be bound
   */
  MetricsEndpoint start(PrometheusRegistry registry) {
    return enabled() ? MetricsEndpoint.start(host, port, registry) : null;
  }
}
