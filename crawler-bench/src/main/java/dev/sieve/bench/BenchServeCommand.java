package dev.sieve.bench;

import crawlercommons.urlfrontier.URLFrontierGrpc;
import crawlercommons.urlfrontier.Urlfrontier.DiscoveredURLItem;
import crawlercommons.urlfrontier.Urlfrontier.GetParams;
import crawlercommons.urlfrontier.Urlfrontier.KnownURLItem;
import crawlercommons.urlfrontier.Urlfrontier.QueueDelayParams;
import crawlercommons.urlfrontier.Urlfrontier.URLInfo;
import crawlercommons.urlfrontier.Urlfrontier.URLItem;
import dev.sieve.frontier.FrontierSettings;
import dev.sieve.serve.FrontierServer;
import dev.sieve.serve.ServeSettings;
import dev.sieve.serve.limits.ServeLimits;
import dev.sieve.units.Units;
import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.StreamObserver;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.time.Clock;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.DoubleSupplier;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code bench serve}: streams N discovered URLs over Q queues (a fraction of them repeats of
 * earlier ones) through the URL Frontier gRPC API over loopback into {@code serve}, then drains it
 * (GetURLs, and each URL acked as known, never refetched); then the same into the exact-set
 * baseline ({@link FrontierServer#startExactSetBaseline}). Prints put/s, put p99 latency, drain (get+ack) URLs/s and
 * the server's live heap per distinct URL after the puts and after the drain, side by side. Server
 * and client run in this JVM and share its cores; the heap is measured after a full GC, less what
 * was live before the first put. Distinct URL {@code u} is {@code
 * http://h<u % Q>.bench.example/page/<u / Q>.html}, queued by its host.
 */
@Command(
    name = "serve",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = "Put N URLs through serve's gRPC API and drain them, against an exact-set baseline.")
final class BenchServeCommand implements Callable<Integer> {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Option(names = "--urls", defaultValue = "10000000", paramLabel = "N",
      description = "Discovered URLs put, duplicates included (default ${DEFAULT-VALUE}).")
  long urls;

  @Option(names = "--queues", defaultValue = "10000", paramLabel = "Q",
      description = "Queues (hosts) they spread over (default ${DEFAULT-VALUE}); the"
          + " services' --max-queues-per-crawl is raised to it.")
  int queues;

  @Option(names = "--duplicates", defaultValue = "0.2", paramLabel = "FRACTION",
      description = "Fraction of the puts that repeat an earlier URL (default ${DEFAULT-VALUE}).")
  double duplicates;

  @Option(names = "--streams", defaultValue = "2", paramLabel = "S",
      description = "PutURLs streams at once, each on its own connection and client thread"
          + " (default ${DEFAULT-VALUE}).")
  int streams;

  @Option(names = "--window", defaultValue = "1024", paramLabel = "W",
      description = "Items a stream may have unacknowledged (default ${DEFAULT-VALUE}).")
  int window;

  @Option(names = "--warmup", defaultValue = "300000", paramLabel = "N",
      description = "URLs put and drained through each service first, unmeasured, so that both"
          + " are measured compiled (default ${DEFAULT-VALUE}; 0: none).")
  long warmup;

  @Option(names = "--pending-memory",
      defaultValue = "" + FrontierSettings.DEFAULT_PENDING_MEMORY_BYTES, paramLabel = "BYTES",
      description = "Heap each service's pending URLs may take before they spill to a temporary"
          + " directory (default ${DEFAULT-VALUE}).")
  long pendingMemory;

  @Option(names = "--no-baseline",
      description = "Skip the exact-set baseline: for more URLs than its exact set fits in the heap.")
  boolean noBaseline;

  @Option(names = "--fpp", defaultValue = FrontierSettings.DEFAULT_FALSE_POSITIVE_RATE,
      paramLabel = "P", description = "The Sieve's false-positive rate (default ${DEFAULT-VALUE}).")
  double fpp;

  @Option(names = "--redis", paramLabel = "MODE",
      description = "Also run serve --frontier on Redis the bench starts on loopback: server (one"
          + " redis-server), cluster (three masters) or both; compared with serve in memory,"
          + " without the exact-set baseline (default: none).")
  BenchServeRedis.Mode redis;

  @Option(names = "--discovered-batch", defaultValue = "0", paramLabel = "N",
      description = "Also put the same URLs through PutDiscovered (URL Frontier 2.6) in batches of"
          + " N, into serve in memory, and compare it with PutURLs (default ${DEFAULT-VALUE}: off).")
  int discoveredBatch;

  int putBatch; // the batch size of the next run's puts: 0 for PutURLs, else PutDiscovered's

  @Option(names = "--tls", description = "Serve and connect over TLS, with a self-signed"
      + " certificate made for the run (default: plaintext).")
  boolean tls;

  private BenchTls transport = BenchTls.PLAINTEXT;
  /** The URLs put, item by item; set once the options are checked. */
  private BenchUrls items;

  /** What one service did: its put and drain phases and its live heap after each. */
  record Result(long urls, long created, long seen, long failed, double putSeconds, double putCpu,
      double putServerCpu, double putP99, long drained, double drainSeconds, double drainCpu, double ackP99,
      long heapAfterPut, long heapAfterDrain, long diskAfterPut) {}

  /** CPU seconds used so far by servers outside this JVM (the Redis of {@code --redis}). */
  DoubleSupplier serverCpu = () -> 0;

  interface Starter {
    FrontierServer start(ServeSettings settings) throws Exception;
  }

  @Override
  public Integer call() throws Exception {
    String misuse = urls <= 0 ? "--urls (" + urls + ") must be > 0"
        : queues <= 0 ? "--queues (" + queues + ") must be > 0"
        : !(duplicates >= 0 && duplicates < 1) ? "--duplicates (" + duplicates + ") must be in [0, 1)"
        : streams <= 0 ? "--streams (" + streams + ") must be > 0"
        : window <= 0 ? "--window (" + window + ") must be > 0"
        : warmup < 0 ? "--warmup (" + warmup + ") must be >= 0"
        : !(fpp > 0 && fpp < 1) ? "--fpp (" + fpp + ") must be in (0, 1)"
        : pendingMemory <= 0 ? "--pending-memory (" + pendingMemory + ") must be > 0"
        : discoveredBatch < 0 || discoveredBatch > window ? "--discovered-batch ("
            + discoveredBatch + ") must be in [0, --window (" + window + ")]" : null;
    if (misuse != null) {
      throw new CommandLine.ParameterException(spec.commandLine(), misuse);
    }
    items = new BenchUrls(queues, duplicates);
    PrintStream out = System.out;
    long distinct = urls - (long) Math.floor(urls * duplicates);
    out.printf(Locale.ROOT, "bench serve: %,d URLs put (%,d distinct, %.0f%% duplicates) over %,d"
            + " queues, %d PutURLs stream(s), window %d; client and server in this JVM over"
            + " loopback gRPC%s, %d cores shared%n", urls, distinct, duplicates * 100, queues,
        streams, window, tls ? " over TLS" : "", Runtime.getRuntime().availableProcessors());
    transport = tls ? BenchTls.selfSigned(Files.createTempDirectory("bench-tls")) : transport;
    // The queue limit is a safety rail, not what is measured: it is raised to the bench's queues
    // (past it, the service would refuse the puts and the streams would wait for acks forever).
    ServeSettings.Builder settings = ServeSettings.builder().port(0).falsePositiveRate(fpp)
        .pendingMemoryBytes(pendingMemory).access(transport.access())
        .limits(ServeLimits.builder().maxQueuesPerCrawl(
            Math.max(ServeLimits.DEFAULT_MAX_QUEUES_PER_CRAWL, queues)).build());
    if (redis != null) {
      return BenchServeRedis.compare(this, redis, settings.expectedUrls(distinct), distinct);
    }
    if (discoveredBatch > 0) {
      return BenchServeDiscovered.compare(this, discoveredBatch,
          settings.expectedUrls(distinct).build(), distinct);
    }
    ServeSettings sieveSettings = settings.expectedUrls(distinct).build();
    ServeSettings exactSettings = settings.expectedUrls(1_000).build();
    Starter sieveServe = s -> FrontierServer.start(s, Clock.systemUTC(), null);
    if (warmup > 0) {
      run("warm-up: Sieve serve", sieveSettings, sieveServe, Math.min(warmup, urls));
      if (!noBaseline) {
        run("warm-up: exact-set baseline", exactSettings, FrontierServer::startExactSetBaseline,
            Math.min(warmup, urls));
      }
    }
    Result sieve = run("Sieve serve", sieveSettings, sieveServe, urls);
    Result exact = !noBaseline
        ? run("exact-set baseline", exactSettings, FrontierServer::startExactSetBaseline, urls)
        : null;
    if (exact == null) {
      return report(out, sieve, distinct);
    }
    out.println();
    Table table = Table.of(out, -30, 22, 22, 15);
    table.row("", "Sieve serve", "exact-set baseline", "Sieve/baseline");
    table.row("created / dropped as seen", sieve.created + " / " + sieve.seen,
        exact.created + " / " + exact.seen, "");
    table.row("puts/s", Table.rate(urls / sieve.putSeconds), Table.rate(urls / exact.putSeconds),
        Table.format("%.2f", exact.putSeconds / sieve.putSeconds));
    table.row("CPU per put (both sides)", micros(sieve.putCpu / urls), micros(exact.putCpu / urls),
        Table.format("%.2f", sieve.putCpu / exact.putCpu));
    table.row("put p99 latency", Table.format("%.1f ms", sieve.putP99),
        Table.format("%.1f ms", exact.putP99), "");
    table.row("gets+acks/s (drain)", Table.rate(sieve.drained / sieve.drainSeconds),
        Table.rate(exact.drained / exact.drainSeconds),
        Table.format("%.2f", exact.drainSeconds / sieve.drainSeconds * sieve.drained / exact.drained));
    table.row("CPU per get+ack", micros(sieve.drainCpu / sieve.drained),
        micros(exact.drainCpu / exact.drained), Table.format("%.2f", sieve.drainCpu
            / sieve.drained / (exact.drainCpu / exact.drained)));
    table.row("ack p99 latency", Table.format("%.1f ms", sieve.ackP99),
        Table.format("%.1f ms", exact.ackP99), "");
    table.row("heap after puts, per URL", perUrl(sieve.heapAfterPut, distinct),
        perUrl(exact.heapAfterPut, distinct), ratio(sieve.heapAfterPut, exact.heapAfterPut));
    table.row("heap after drain, per URL", perUrl(sieve.heapAfterDrain, distinct),
        perUrl(exact.heapAfterDrain, distinct), ratio(sieve.heapAfterDrain, exact.heapAfterDrain));
    table.row("heap after drain", Units.bytes(sieve.heapAfterDrain),
        Units.bytes(exact.heapAfterDrain), "");
    table.row("spilled after puts, per URL", perUrl(sieve.diskAfterPut, distinct),
        perUrl(exact.diskAfterPut, distinct), "");
    boolean ok = sieve.failed == 0 && exact.failed == 0 && sieve.drained == sieve.created
        && exact.drained == exact.created && exact.created == distinct
        && distinct - sieve.created <= falsePositiveBound(distinct, fpp);
    table.row("result", ok ? "OK" : "FAILED", "", "");
    return ok ? 0 : 1;
  }

  /** The Sieve service's figures alone (--no-baseline); 0 when every URL came back once. */
  private int report(PrintStream out, Result sieve, long distinct) {
    out.println();
    Table table = Table.of(out, -30, 22);
    table.row("", "Sieve serve");
    table.row("created / dropped as seen", sieve.created + " / " + sieve.seen);
    table.row("puts/s", Table.rate(urls / sieve.putSeconds));
    table.row("CPU per put (both sides)", micros(sieve.putCpu / urls));
    table.row("gets+acks/s (drain)", Table.rate(sieve.drained / sieve.drainSeconds));
    table.row("heap after puts, per URL", perUrl(sieve.heapAfterPut, distinct));
    table.row("spilled after puts, per URL", perUrl(sieve.diskAfterPut, distinct));
    table.row("heap after drain, per URL", perUrl(sieve.heapAfterDrain, distinct));
    long falsePositives = distinct - sieve.created;
    table.row("distinct URLs dropped (bound)",
        falsePositives + " (" + falsePositiveBound(distinct, fpp) + ")");
    boolean ok = sieve.failed == 0 && sieve.drained == sieve.created && falsePositives >= 0
        && falsePositives <= falsePositiveBound(distinct, fpp);
    table.row("result", ok ? "OK" : "FAILED");
    return ok ? 0 : 1;
  }

  /**
   * The most distinct URLs the Sieve may drop as seen before the run counts as failed: each new
   * URL is a false positive with probability at most --fpp while the filter is within its
   * expected size, so their number is at most Poisson with mean μ = distinct × fpp; the bound is
   * μ + 4√μ + 1, which a correct filter exceeds with probability well below 10⁻³.
   */
  static long falsePositiveBound(long distinct, double fpp) {
    double mean = distinct * fpp;
    return (long) Math.floor(mean + 4 * Math.sqrt(mean) + 1);
  }

  private static String micros(double seconds) { return Table.format("%.1f µs", seconds * 1e6); }

  /** CPU seconds this process used so far, all threads (client, server and GC alike). */
  private static double cpuSeconds() {
    return ((com.sun.management.OperatingSystemMXBean)
        ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime() / 1e9;
  }

  private static String perUrl(long bytes, long distinct) {
    return Table.format("%.1f B", (double) bytes / distinct);
  }

  private static String ratio(long sieve, long exact) {
    return exact <= 0 ? "-" : Table.format("1/%.1f", (double) exact / Math.max(1, sieve));
  }

  /** The unmeasured warm-up run through a service, if any. */
  void warmUp(String name, ServeSettings settings, Starter starter) throws Exception {
    if (warmup > 0) {
      run(name, settings, starter, Math.min(warmup, urls));
    }
  }

  /** The measured run of {@code --urls} URLs through a service. */
  Result measure(String name, ServeSettings settings, Starter starter) throws Exception {
    return run(name, settings, starter, urls);
  }

  /** Puts {@code count} URLs into a fresh service and drains it. */
  private Result run(String name, ServeSettings settings, Starter starter, long count)
      throws Exception {
    PrintStream out = System.out;
    FrontierServer server = starter.start(settings);
    ManagedChannel channel = channel(server);
    List<ManagedChannel> channels = new ArrayList<>(List.of(channel));
    try {
      URLFrontierGrpc.URLFrontierBlockingStub blocking = URLFrontierGrpc.newBlockingStub(channel);
      // Every queue may produce at every call: the drain measures the service, not its delay.
      blocking.setDelay(QueueDelayParams.newBuilder().setDelayRequestable(0).build());
      long before = liveHeap();
      Latencies putLatencies = new Latencies();
      List<PutStream> puts = new ArrayList<>();
      for (int s = 0; s < streams; s++) {
        ManagedChannel own = channel(server);
        channels.add(own);
        puts.add(new PutStream(own, window, putLatencies, putBatch));
      }
      double serverBefore = serverCpu.getAsDouble();
      double cpu = cpuSeconds() + serverBefore;
      Timing.Run put = Timing.parallel(streams, s -> {
        PutStream stream = puts.get(s);
        for (long i = s; i < count; i += streams) {
          stream.send(discovered(items.url(i)));
        }
        stream.finish();
        return 0;
      });
      double serverAfter = serverCpu.getAsDouble();
      double putCpu = cpuSeconds() + serverAfter - cpu;
      long created = puts.stream().mapToLong(p -> p.ok.get()).sum();
      long seen = puts.stream().mapToLong(p -> p.skipped.get()).sum();
      long failed = puts.stream().mapToLong(p -> p.failed.get()).sum();
      out.printf(Locale.ROOT, "%s: put %,d in %.1f s, %,d created, %,d seen, %,d failed%n", name,
          count, put.seconds(), created, seen, failed);
      long afterPut = liveHeap() - before;
      long diskAfterPut = server.spilledBytes();
      Latencies ackLatencies = new Latencies();
      PutStream acks = new PutStream(channel, window, ackLatencies);
      long started = Timing.start();
      cpu = cpuSeconds() + serverCpu.getAsDouble();
      long[] twice = {0};
      long drained = drain(channel, acks, created, twice);
      acks.finish();
      double drainSeconds = Timing.secondsSince(started);
      double drainCpu = cpuSeconds() + serverCpu.getAsDouble() - cpu;
      failed += acks.failed.get();
      out.printf(Locale.ROOT, "%s: drained %,d in %.1f s, %,d handed out twice%n", name, drained,
          drainSeconds, twice[0]);
      failed += twice[0];
      long afterDrain = liveHeap() - before;
      return new Result(count, created, seen, failed, put.seconds(), putCpu,
          serverAfter - serverBefore,
          putLatencies.percentileMillis(0.99), drained, drainSeconds, drainCpu,
          ackLatencies.percentileMillis(0.99), afterPut, afterDrain, diskAfterPut);
    } finally {
      for (ManagedChannel open : channels) {
        open.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
      }
      server.close();
      // gRPC keeps its transport threads a second after their last user closed, and with them
      // what their thread-local pools still point at (the closed service): let them end, so the
      // next service's heap is measured without this one's.
      Thread.sleep(3_000);
    }
  }

  private static final URLInfo END = URLInfo.newBuilder().setUrl("end").build(); // ends a GetURLs answer

  /** A connection of its own: a server serves each on one transport thread. */
  private ManagedChannel channel(FrontierServer server) {
    return NettyChannelBuilder.forAddress("127.0.0.1", server.port(), transport.client())
        .directExecutor().build();
  }

  /** Gets every pending URL and acks it as completed; returns how many came. */
  private long drain(ManagedChannel channel, PutStream acks, long expected, long[] twice)
      throws InterruptedException {
    GetParams all = GetParams.newBuilder().setDelayRequestable(3_600).build();
    long drained = 0;
    // Which distinct URLs came back (u, from its host and page numbers): a second is counted.
    BitSet handed = new BitSet();
    while (drained < expected) {
      long got = 0;
      BlockingQueue<URLInfo> answers = new LinkedBlockingQueue<>();
      // Asynchronous, so that the transport's window rather than one request per URL paces it.
      URLFrontierGrpc.newStub(channel).getURLs(all, new StreamObserver<>() {
        @Override
        public void onNext(URLInfo url) {
          answers.add(url);
        }

        @Override
        public void onError(Throwable t) {
          answers.add(END);
        }

        @Override
        public void onCompleted() {
          answers.add(END);
        }
      });
      for (URLInfo url = answers.take(); url != END; url = answers.take(), got++) {
        if (!items.first(handed, url.getUrl())) {
          twice[0]++;
        }
        acks.send(URLItem.newBuilder().setKnown(KnownURLItem.newBuilder().setInfo(url)
            .setRefetchableFromDate(0)).build());
      }
      drained += got;
      if (got == 0 && acks.idle()) {
        System.out.printf(Locale.ROOT, "drain stalled: %,d of %,d%n", drained, expected);
        break;
      }
    }
    return drained;
  }

  private static URLItem discovered(String url) {
    return URLItem.newBuilder().setDiscovered(DiscoveredURLItem.newBuilder()
        .setInfo(URLInfo.newBuilder().setUrl(url))).build();
  }

  /** Heap in use after a full collection. */
  private static long liveHeap() {
    System.gc();
    System.gc();
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }
}
