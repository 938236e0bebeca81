package dev.sieve.serve;

import io.grpc.Server;
import io.grpc.ServerInterceptors;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The URL Frontier gRPC server: the service on Netty, listening on the settings' host and port (0:
 * a free port, see {@link #port()}); in memory, or durable in the settings' state directory.
 */
public final class FrontierServer implements AutoCloseable {
  private final Server server;
  private final ServeSettings settings;
  private final FrontierService service;
  /** Null in memory. */
  private final ServeState state;

  private FrontierServer(Server server, ServeSettings settings, FrontierService service,
      ServeState state) {
    this.server = server;
    this.settings = settings;
    this.service = service;
    this.state = state;
  }

  /**
   * Starts a server. {@code logLevels} serves SetLogLevel (null: the call answers UNIMPLEMENTED);
   * {@code clock} is the service's time (leases, refetch dates, blocks).
   *
   * @throws IOException when the address cannot be bound
   * @throws ServeStateException when the state directory is in use or cannot be used
   */
  public static FrontierServer start(ServeSettings settings, Clock clock, LogLevels logLevels)
      throws IOException {
    return start(settings, clock, logLevels, RpcListener.NONE);
  }

  /**
   * Starts a server that also tells {@code rpcs} of every finished call (for latency metrics).
   *
   * @throws IOException when the address cannot be bound
   */
  public static FrontierServer start(ServeSettings settings, Clock clock, LogLevels logLevels,
      RpcListener rpcs) throws IOException {
    return start(settings, clock, logLevels, rpcs, new Crawls(settings));
  }

  /** Starts a server over {@code crawls} (the benchmark's baseline passes its own). */
  static FrontierServer start(ServeSettings settings, Clock clock, LogLevels logLevels,
      RpcListener rpcs, Crawls crawls) throws IOException {
    FrontierServer[] self = new FrontierServer[1];
    ServeState state = settings.stateDir == null ? null
        : ServeState.open(settings.stateDir, crawls, settings.checkpointSeconds);
    FrontierService service = new FrontierService(crawls, state == null ? Durability.NONE : state,
        clock, () -> self[0].address(), logLevels);
    Server server;
    try {
      server = listen(settings, service, rpcs);
    } catch (IOException | RuntimeException e) {
      if (state != null) {
        state.close();
      }
      throw e;
    }
    self[0] = new FrontierServer(server, settings, service, state);
    return self[0];
  }

  private static Server listen(ServeSettings settings, FrontierService service,
      RpcListener rpcs) throws IOException {
    return NettyServerBuilder
        .forAddress(new InetSocketAddress(settings.host, settings.port))
        .addService(ServerInterceptors.intercept(service, new RpcTiming(rpcs, System::nanoTime)))
        // Every handler is short and never blocks (a crawl's lock is held for one item or one
        // answer): running them on the transport's threads saves a hand-off per message, about
        // 1.7x PutURLs throughput.
        .directExecutor()
        .build()
        .start();
  }

  /** The port listened on. */
  public int port() {
    return server.getPort();
  }

  /** {@code host:port} as ListNodes reports this node. */
  public String address() {
    String host = settings.host.indexOf(':') >= 0 ? "[" + settings.host + "]" : settings.host;
    return host + ":" + port();
  }

  /** Every crawl's totals now, in the order GetURLs visits them. */
  public List<CrawlSnapshot> crawls() {
    return service.snapshots();
  }

  /**
   * The service-wide event counters by name, as GetStats reports them without the {@code
   * service.} prefix: {@code put.items}, {@code put.streams}, {@code put.rejected.REASON}, {@code
   * invalid_argument}…
   */
  public Map<String, Long> counters() {
    return service.counters();
  }

  /** Writes a checkpoint now (tests; the state directory's timer does it periodically). */
  void checkpoint() throws IOException {
    if (state != null) {
      state.checkpoint();
    }
  }

  /** Waits until the server has stopped. */
  public void awaitTermination() throws InterruptedException {
    server.awaitTermination();
  }

  /**
   * Stops taking calls, lets running ones finish for up to 5 seconds, then cancels them; with a
   * state directory, writes a final checkpoint and releases it.
   */
  @Override
  public void close() throws InterruptedException {
    try {
      server.shutdown();
      if (!server.awaitTermination(5, TimeUnit.SECONDS)) {
        server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
      }
    } finally {
      if (state != null) {
        state.close();
      }
    }
  }
}
