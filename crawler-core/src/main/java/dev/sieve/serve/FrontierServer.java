package dev.sieve.serve;

import dev.sieve.frontier.FrontierLifecycle;
import dev.sieve.frontier.Frontiers;
import dev.sieve.frontier.OpenFrontier;
import dev.sieve.frontier.queue.Counters;
import dev.sieve.frontier.queue.CrawlSnapshot;
import dev.sieve.frontier.queue.Crawls;
import dev.sieve.frontier.queue.FrontierStore;
import dev.sieve.frontier.queue.QueueSettings;
import dev.sieve.frontier.queue.SeenKeys;
import dev.sieve.serve.limits.CallLimits;
import dev.sieve.serve.limits.IdleStreams;
import dev.sieve.serve.limits.MessageSizeTracer;
import io.grpc.Server;
import io.grpc.ServerInterceptor;
import io.grpc.ServerInterceptors;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The URL Frontier gRPC server: the service on Netty, listening on the settings' host and port (0:
 * a free port, see {@link #port()}), over the crawls of a frontier engine ({@link
 * OpenFrontier#crawls()}): in memory, durable in a state directory, or in Redis, shared with the
 * other nodes registered there.
 */
public final class FrontierServer implements AutoCloseable {
  /** The URL Frontier API version served; clients of 2.5 and earlier are served too. */
  public static final String API_VERSION = "2.6";
  /** Threads running calls against a store that waits on a round trip (Redis). */
  private static final int BLOCKING_HANDLERS = 16;

  private final Server server;
  private final ServeSettings settings;
  private final FrontierService service;
  private final OpenFrontier engine;
  /** Null unless the store waits on round trips. */
  private final ExecutorService handlers;
  private final IdleStreams idleStreams;
  /** Runs {@link IdleStreams#sweep} every second. */
  private final ScheduledExecutorService sweeper;
  /** The nodes sharing the store; null until the server listens. */
  private volatile FrontierStore.Nodes nodes;

  private FrontierServer(Server server, ServeSettings settings, FrontierService service,
      OpenFrontier engine, ExecutorService handlers, IdleStreams idleStreams) {
    this.server = server;
    this.settings = settings;
    this.service = service;
    this.engine = engine;
    this.handlers = handlers;
    this.idleStreams = idleStreams;
    this.sweeper = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread thread = new Thread(r, "serve-idle-streams");
      thread.setDaemon(true);
      return thread;
    });
    sweeper.scheduleWithFixedDelay(idleStreams::sweep, 1, 1, TimeUnit.SECONDS);
  }

  /**
   * Starts a server. {@code logLevels} serves SetLogLevel (null: the call answers UNIMPLEMENTED);
   * {@code clock} is the service's time (leases, refetch dates, blocks).
   *
   * @throws IOException when the address cannot be bound
   * @throws dev.sieve.frontier.durable.DurableStateException when the state directory is in use
   *     or cannot be used
   * @throws dev.sieve.frontier.FrontierStoreException when the Redis frontier cannot be reached
   */
  public static FrontierServer start(ServeSettings settings, Clock clock, LogLevels logLevels)
      throws IOException {
    return start(settings, clock, logLevels, RpcListener.NONE);
  }

  /**
   * Starts a server over the engine its settings describe ({@link ServeSettings#frontierSettings},
   * opened by {@link Frontiers#open}) that also tells {@code rpcs} of every finished call (for
   * latency metrics).
   *
   * @throws IOException when the address cannot be bound
   */
  public static FrontierServer start(ServeSettings settings, Clock clock, LogLevels logLevels,
      RpcListener rpcs) throws IOException {
    return start(settings, Frontiers.open(settings.frontierSettings()), clock, logLevels, rpcs);
  }

  /**
   * Starts the baseline of {@code bench serve}: the same service, whose crawls remember every URL
   * put in them in an exact set of strings instead of a Sieve, as the URL Frontier reference
   * service keeps every URL ({@link SeenKeys#exact}). For measuring only: in memory, so the
   * settings' Sieve size is unused (give a small {@code expectedUrls}).
   *
   * @throws IOException when the address cannot be bound
   * @throws IllegalArgumentException when the settings name a state directory or a frontier
   */
  public static FrontierServer startExactSetBaseline(ServeSettings settings) throws IOException {
    if (settings.stateDir != null || settings.frontier != null) {
      throw new IllegalArgumentException("the exact-set baseline runs in memory only");
    }
    Crawls exact = new Crawls(QueueSettings.of(settings.frontierSettings()),
        sieve -> SeenKeys.exact());
    return start(settings, OpenFrontier.service(exact, new FrontierLifecycle() {
      @Override
      public void disconnect() {
        exact.close();
      }
    }), Clock.systemUTC(), null, RpcListener.NONE);
  }

  /**
   * Starts a server over {@code engine}'s crawls ({@link Frontiers#open} of {@link
   * ServeSettings#frontierSettings}), whose lifecycle it ends when it stops (or fails to start).
   *
   * @throws IOException when the address cannot be bound
   */
  public static FrontierServer start(ServeSettings settings, OpenFrontier engine, Clock clock,
      LogLevels logLevels, RpcListener rpcs) throws IOException {
    FrontierServer[] self = new FrontierServer[1];
    FrontierStore store = engine.crawls();
    // A handler that waits on the store runs on a pool of its own, not on the transport's threads.
    ExecutorService handlers = store.batchesPuts()
        ? Executors.newFixedThreadPool(BLOCKING_HANDLERS, r -> {
          Thread thread = new Thread(r, "serve-store");
          thread.setDaemon(true);
          return thread;
        })
        : null;
    FrontierService service = new FrontierService(store, settings, clock,
        () -> self[0].nodes(), logLevels, handlers);
    IdleStreams idle = new IdleStreams(settings.limits, service.rejections(), clock::millis);
    try {
      self[0] = new FrontierServer(listen(settings, service, rpcs, handlers, idle), settings,
          service, engine, handlers, idle);
      self[0].nodes = store.join(self[0].address(), clock, settings.nodeTtlSeconds * 1000L);
      self[0].nodes.keepBeating();
    } catch (IOException | RuntimeException e) {
      if (self[0] != null) {
        self[0].sweeper.shutdownNow();
        self[0].server.shutdownNow();
      }
      if (handlers != null) {
        handlers.shutdownNow();
      }
      release(engine);
      throw e;
    }
    return self[0];
  }

  private static Server listen(ServeSettings settings, FrontierService service,
      RpcListener rpcs, ExecutorService handlers, IdleStreams idle) throws IOException {
    Counters counters = service.counterSet();
    NettyServerBuilder builder = NettyServerBuilder.forAddress(
            new InetSocketAddress(settings.host, settings.port),
            settings.access.credentials(counters::increment))
        .maxInboundMessageSize(settings.limits.maxMessageBytes)
        .addStreamTracerFactory(new MessageSizeTracer(settings.limits, service.rejections()));
    // Outermost: a call without a valid token reaches neither the limits, the timing nor the service.
    ServerInterceptor tokens = settings.access.callCheck(counters::increment);
    RpcTiming timing = new RpcTiming(rpcs, System::nanoTime);
    // The last interceptor runs first: a call past a limit is refused before anything else.
    CallLimits calls = new CallLimits(settings.limits, service.rejections(), counters);
    // Innermost: an idle stream it ends is timed, and frees its place in the call limits.
    if (handlers != null) {
      builder.addService(ServerInterceptors.intercept(service, idle,
          new StoreFailures(counters), timing, calls, tokens));
      builder.executor(handlers);
    } else {
      builder.addService(ServerInterceptors.intercept(service, idle, timing, calls, tokens));
      // Every handler is short and never blocks (a crawl's lock is held for one item or one
      // answer): running them on the transport's threads saves a hand-off per message, about
      // 1.7x PutURLs throughput.
      builder.directExecutor();
    }
    return builder.build().start();
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

  /**
   * What ListNodes answers: the live nodes sharing this node's Redis frontier, sorted; this node
   * alone otherwise.
   */
  public List<String> nodes() {
    FrontierStore.Nodes known = nodes;
    return known == null ? List.of(address()) : known.live();
  }

  /** Marks this node alive now (tests; a timer does it every third of the node TTL). */
  void heartbeat() {
    if (nodes != null) {
      nodes.beat();
    }
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

  /** Ends the streams idle for --stream-idle-timeout now (tests; a timer does it every second). */
  int sweepIdleStreams() {
    return idleStreams.sweep();
  }

  /** Writes a checkpoint now (tests; the state directory's timer does it periodically). */
  void checkpoint() throws IOException {
    engine.crawls().checkpoint();
  }

  /** Bytes of pending URLs spilled to disk now (0 when none, or in Redis). */
  public long spilledBytes() {
    return engine.crawls().spilledBytes();
  }

  /** Waits until the server has stopped. */
  public void awaitTermination() throws InterruptedException {
    server.awaitTermination();
  }

  /**
   * Stops taking calls, lets running ones finish for up to 5 seconds, then cancels them; with a
   * state directory, writes a final checkpoint and releases it; with a Redis frontier, leaves
   * its node list and disconnects.
   */
  @Override
  public void close() throws InterruptedException {
    try {
      sweeper.shutdownNow();
      if (nodes != null) {
        nodes.close();
      }
      server.shutdown();
      if (!server.awaitTermination(5, TimeUnit.SECONDS)) {
        server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
      }
    } finally {
      if (handlers != null) {
        handlers.shutdownNow();
      }
      release(engine);
    }
  }

  /** Saves the engine's crawls a last time (a state directory's) and releases them. */
  private static void release(OpenFrontier engine) {
    try {
      engine.lifecycle().ifPresent(FrontierLifecycle::end);
    } finally {
      engine.disconnect();
    }
  }

  /** Sets the level of a logger, for SetLogLevel; the logging backend lives in the application. */
  @FunctionalInterface
  public interface LogLevels {
    /**
     * Sets logger {@code name} (a package or class; "ROOT" for the root logger) to {@code level},
     * one of TRACE, DEBUG, INFO, WARN, ERROR.
     */
    void set(String name, String level);
  }

  /**
   * Told of each finished RPC, for latency monitoring. Called on gRPC's threads, concurrently:
   * implementations must be thread-safe and quick.
   */
  @FunctionalInterface
  public interface RpcListener {
    /** Tells nothing. */
    RpcListener NONE = (method, code, nanos) -> { };

    /**
     * An RPC finished.
     *
     * @param method the RPC's name as the API spells it ({@code PutURLs}, {@code GetURLs}…)
     * @param code its gRPC status code ({@code OK}, {@code INVALID_ARGUMENT}, {@code CANCELLED}…)
     * @param nanos from the call's start to its close (for a stream, the whole stream)
     */
    void onCall(String method, String code, long nanos);
  }
}
