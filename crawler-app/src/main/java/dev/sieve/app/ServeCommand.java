package dev.sieve.app;

import ch.qos.logback.classic.Level;
import dev.sieve.frontier.FrontierSettings;
import dev.sieve.frontier.Frontiers;
import dev.sieve.frontier.FrontierStoreException;
import dev.sieve.serve.FrontierServer;
import dev.sieve.serve.FrontierServer.LogLevels;
import dev.sieve.serve.FrontierServer.RpcListener;
import dev.sieve.serve.ServeSettings;
import dev.sieve.serve.access.Access;
import dev.sieve.frontier.durable.DurableStateException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.concurrent.Callable;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code serve}: the URL Frontier API (gRPC, 2.5) from memory, durable in a state directory, or
 * from a Redis shared by several nodes, each crawl ID with its own Sieve, until SIGINT or SIGTERM.
 * Exit codes: 2 for a bad option, an address it cannot listen on, a state directory in use or
 * unusable, a Redis it cannot reach, an address beyond loopback left unprotected, or an unusable
 * TLS or token file.
 */
@Command(
    name = "serve",
    mixinStandardHelpOptions = true,
    versionProvider = ServeCommand.Version.class,
    sortOptions = false,
    description = "Serve the URL Frontier API " + FrontierServer.API_VERSION + " (gRPC; clients of"
        + " 2.5 too) from memory (durable with --state, shared"
        + " by several nodes with --frontier), so that"
        + " any crawler that speaks"
        + " it (StormCrawler, ...) can use the Sieve: each crawl ID gets its own Bloom filter of the"
        + " URLs it has seen; completed URLs are only bits in it.")
final class ServeCommand implements Callable<Integer> {
  /** {@code serve --version}: Sieve's version, then the URL Frontier API version it serves. */
  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      String[] sieve = new Main.Version().getVersion();
      String[] out = java.util.Arrays.copyOf(sieve, sieve.length + 1);
      out[sieve.length] = "URL Frontier API " + FrontierServer.API_VERSION + " (clients of 2.5 too)";
      return out;
    }
  }

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Option(names = "--port", defaultValue = "" + ServeSettings.DEFAULT_PORT, paramLabel = "PORT",
      description = "Port to listen on; 0 picks a free one (default ${DEFAULT-VALUE}).")
  int port;

  @Option(names = "--host", defaultValue = ServeSettings.DEFAULT_HOST, paramLabel = "ADDRESS",
      description = "Address to listen on; 0.0.0.0 for every interface, which needs TLS and"
          + " tokens or --allow-insecure-from (default ${DEFAULT-VALUE}).")
  String host;

  @Option(names = "--expected-urls", defaultValue = "" + ServeSettings.DEFAULT_EXPECTED_URLS,
      paramLabel = "N", description = "Distinct URLs each crawl ID's Sieve is first sized for; it"
          + " grows past that, keeping --fpp (default ${DEFAULT-VALUE}).")
  long expectedUrls;

  @Option(names = "--fpp", defaultValue = FrontierSettings.DEFAULT_FALSE_POSITIVE_RATE,
      paramLabel = "P", description = "Target false-positive rate of each Sieve: the chance that a"
          + " discovered URL never seen is dropped as seen (default ${DEFAULT-VALUE}).")
  double fpp;

  @Option(names = "--state", paramLabel = "DIR",
      description = "Keep every crawl in DIR (checkpoints and a journal): an item is acked once it is"
          + " journaled, and a serve started again on DIR goes on where the last one stopped, kill"
          + " -9 included. Default: in memory only.")
  Path stateDir;

  @Option(names = "--frontier", paramLabel = "URI",
      description = "Keep every crawl in Redis at redis://HOST:PORT[/DB], shared by every serve"
          + " given the same URI: a URL put through one is handed out once by any of them, and"
          + " ListNodes lists them all. Durability is Redis's. Default: in memory.")
  String frontier;

  @Option(names = "--checkpoint-interval",
      defaultValue = "" + ServeSettings.DEFAULT_CHECKPOINT_SECONDS, paramLabel = "SECONDS",
      description = "Seconds between two checkpoints of --state, each ending the journal before it"
          + " (default ${DEFAULT-VALUE}).")
  int checkpointSeconds;

  @Option(names = "--pending-memory",
      defaultValue = "" + FrontierSettings.DEFAULT_PENDING_MEMORY_BYTES, paramLabel = "BYTES",
      description = "Heap each crawl's pending URLs may take (a few bytes per URL); beyond it they"
          + " spill to checksummed files in the --state DIR or a temporary one (default"
          + " ${DEFAULT-VALUE}, 256 MiB, as crawl's).")
  long pendingMemory;

  @CommandLine.Mixin MetricsOptions metricsOptions;

  @CommandLine.Mixin ServeLimitOptions limitOptions;
  @CommandLine.Mixin ServeAccessOptions accessOptions;

  @Override
  public Integer call() throws InterruptedException {
    Access access;
    try {
      access = accessOptions.access();
    } catch (IllegalArgumentException e) {
      System.err.println("serve: " + e.getMessage());
      return CommandLine.ExitCode.USAGE;
    }
    String exposed = access.exposure("--host", host);
    exposed = exposed != null || !metricsOptions.enabled() ? exposed
        : access.exposure("--metrics-host", metricsOptions.host);
    if (exposed != null) {
      System.err.println("serve: " + exposed);
      return CommandLine.ExitCode.USAGE;
    }
    ServeSettings settings;
    try {
      settings = limitOptions.applyTo(ServeSettings.builder()).host(host).port(port)
          .access(access).expectedUrls(expectedUrls).falsePositiveRate(fpp).stateDir(stateDir)
          .checkpointSeconds(checkpointSeconds).frontier(frontier)
          .pendingMemoryBytes(pendingMemory).build();
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
    }
    if (metricsOptions.misuse() != null) {
      throw new CommandLine.ParameterException(spec.commandLine(), metricsOptions.misuse());
    }
    ServeMetrics metrics = metricsOptions.enabled() ? new ServeMetrics() : null;
    MetricsEndpoint endpoint;
    try {
      endpoint = metrics == null ? null : MetricsEndpoint.start(metricsOptions.host,
          metricsOptions.port, metrics.registry(), access, metrics::scrapeRefused);
    } catch (UncheckedIOException e) {
      System.err.println("serve: " + e.getMessage());
      return CommandLine.ExitCode.USAGE;
    }
    FrontierServer server;
    try {
      server = FrontierServer.start(settings, Frontiers.open(settings.frontierSettings()),
          Clock.systemUTC(), logbackLevels(), metrics == null ? RpcListener.NONE : metrics);
    } catch (IOException e) {
      System.err.println("serve: cannot listen on " + host + ":" + port + ": "
          + (e.getCause() != null ? e.getCause().getMessage() : e.getMessage()));
      if (endpoint != null) {
        endpoint.close();
      }
      return CommandLine.ExitCode.USAGE;
    } catch (DurableStateException | FrontierStoreException e) {
      System.err.println("serve: " + e.getMessage());
      if (endpoint != null) {
        endpoint.close();
      }
      return CommandLine.ExitCode.USAGE;
    }
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      try {
        server.close();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } finally {
        if (endpoint != null) {
          endpoint.close();
        }
      }
    }, "serve-shutdown"));
    System.out.println("Serving the URL Frontier API " + FrontierServer.API_VERSION + " on "
        + server.address());
    if (!access.insecureNetworks().isEmpty()) {
      LoggerFactory.getLogger(ServeCommand.class).warn("--allow-insecure-from: only {} may"
          + " connect, {} and {}", access.insecureNetworks(),
          access.tls() ? "over TLS" : "in plaintext",
          access.tokensRequired() ? "with a token" : "without a token");
    }
    if (metrics != null) {
      metrics.watch(server);
      System.out.println("Serving metrics on " + (access.tls() ? "https" : "http") + "://"
          + metricsOptions.host + ":" + endpoint.port() + "/metrics");
    }
    System.out.flush();
    server.awaitTermination();
    return 0;
  }

  /** SetLogLevel through Logback, which the application logs with. */
  private static LogLevels logbackLevels() {
    return (name, level) -> ((ch.qos.logback.classic.Logger) LoggerFactory.getLogger(name))
        .setLevel(Level.toLevel(level));
  }
}
