package dev.sieve.bench;

import dev.sieve.loopback.LoopbackRedis;
import dev.sieve.serve.FrontierServer;
import dev.sieve.serve.ServeSettings;
import java.io.PrintStream;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code bench serve --redis}: the same puts and drain as {@code bench serve}, through {@code
 * serve} in memory, then through {@code serve --frontier redis://} on a redis-server the bench
 * starts on loopback and/or on a three-master Redis Cluster it starts likewise; prints put/s, its
 * ratio to memory, the CPU per put (this JVM's, client included, plus redis-server's; then
 * redis-server's alone) and the drain rate side by side, with the load average before and after
 * (the machine may be shared: a single-threaded redis-server then gets a smaller share of it than
 * the JVM's many threads).
 */
final class BenchServeRedis {
  /** Which Redis the bench runs {@code serve} on besides memory. */
  enum Mode {
    server,
    cluster,
    both
  }

  private record Column(String name, BenchServeCommand.Result result) {}

  private BenchServeRedis() {}

  /** Runs memory, then each Redis of {@code mode}; returns the exit code (0: every run OK). */
  static int compare(BenchServeCommand bench, Mode mode, ServeSettings.Builder settings,
      long distinct) throws Exception {
    PrintStream out = System.out;
    out.printf(Locale.ROOT, "load average before: %.2f%n", Machine.loadAverage());
    ServeSettings memory = settings.build();
    BenchServeCommand.Starter serve = s -> FrontierServer.start(s, Clock.systemUTC(), null);
    List<Column> columns = new ArrayList<>();
    bench.warmUp("warm-up: serve in memory", memory, serve);
    columns.add(new Column("memory", bench.measure("serve in memory", memory, serve)));
    for (boolean cluster : mode == Mode.both ? List.of(false, true)
        : List.of(mode == Mode.cluster)) {
      try (LoopbackRedis redis = LoopbackRedis.start(cluster)) {
        String name = cluster ? "redis-cluster://" : "redis://";
        ServeSettings onRedis = settings.frontier(redis.uri()).build();
        bench.warmUp("warm-up: serve " + name, onRedis, serve);
        redis.flushAll();
        bench.serverCpu = redis::cpuSeconds;
        try {
          columns.add(new Column(name + " (" + (cluster ? "3 masters" : "1 server") + ")",
              bench.measure("serve --frontier " + name, onRedis, serve)));
        } finally {
          bench.serverCpu = () -> 0;
        }
      }
    }
    out.printf(Locale.ROOT, "load average after: %.2f%n%n", Machine.loadAverage());
    BenchServeCommand.Result base = columns.get(0).result();
    Table table = Table.of(out, -30, 20, 10, 10, 14, 10, 12, 12, 8);
    table.row("serve", "created / dropped", "puts/s", "vs memory", "CPU per put", "vs memory",
        "of it Redis", "gets+acks/s", "result");
    boolean ok = true;
    for (Column column : columns) {
      BenchServeCommand.Result r = column.result();
      boolean good = r.failed() == 0 && r.created() == distinct && r.drained() == r.created();
      ok &= good;
      table.row(column.name(), r.created() + " / " + r.seen(),
          Table.format("%,.0f", r.urls() / r.putSeconds()),
          Table.format("%.2f", base.putSeconds() / r.putSeconds()),
          Table.format("%.1f µs", r.putCpu() / r.urls() * 1e6),
          Table.format("%.2f", r.putCpu() / base.putCpu()),
          Table.format("%.1f µs", r.putServerCpu() / r.urls() * 1e6),
          Table.format("%,.0f", r.drained() / r.drainSeconds()), good ? "OK" : "FAILED");
    }
    return ok ? 0 : 1;
  }
}
