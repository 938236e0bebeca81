package dev.sieve.bench;

import dev.sieve.serve.FrontierServer;
import dev.sieve.serve.ServeSettings;
import java.io.PrintStream;
import java.time.Clock;

/**
 * {@code bench serve --discovered-batch N}: the same puts and drain as {@code bench serve}
 * through {@code serve} in memory, first by PutURLs (one message per URL), then by PutDiscovered
 * (URL Frontier 2.6, one message per N URLs), each into a fresh service after its own warm-up;
 * prints puts/s, CPU per put (client and server, this JVM) and put p99 latency side by side, with
 * PutDiscovered's ratio to PutURLs.
 */
final class BenchServeDiscovered {
  private BenchServeDiscovered() {}

  /** Runs PutURLs, then PutDiscovered; returns the exit code (0: both runs OK). */
  static int compare(BenchServeCommand bench, int batch, ServeSettings settings, long distinct)
      throws Exception {
    PrintStream out = System.out;
    BenchServeCommand.Starter serve = s -> FrontierServer.start(s, Clock.systemUTC(), null);
    bench.putBatch = 0;
    bench.warmUp("warm-up: PutURLs", settings, serve);
    BenchServeCommand.Result putUrls = bench.measure("PutURLs", settings, serve);
    bench.putBatch = batch;
    try {
      bench.warmUp("warm-up: PutDiscovered", settings, serve);
      BenchServeCommand.Result discovered = bench.measure("PutDiscovered", settings, serve);
      out.println();
      Table table = Table.of(out, -30, 16, 24, 16);
      table.row("serve in memory", "PutURLs", "PutDiscovered (" + batch + "/batch)",
          "PutDiscovered/PutURLs");
      table.row("created / dropped as seen", putUrls.created() + " / " + putUrls.seen(),
          discovered.created() + " / " + discovered.seen(), "");
      table.row("puts/s", Table.rate(putUrls.urls() / putUrls.putSeconds()),
          Table.rate(discovered.urls() / discovered.putSeconds()),
          Table.format("%.2f", putUrls.putSeconds() / discovered.putSeconds()));
      table.row("CPU per put (both sides)",
          Table.format("%.1f µs", putUrls.putCpu() / putUrls.urls() * 1e6),
          Table.format("%.1f µs", discovered.putCpu() / discovered.urls() * 1e6),
          Table.format("%.2f", discovered.putCpu() / putUrls.putCpu()));
      table.row("put p99 latency", Table.format("%.1f ms", putUrls.putP99()),
          Table.format("%.1f ms", discovered.putP99()), "");
      boolean ok = true;
      for (BenchServeCommand.Result r : new BenchServeCommand.Result[] {putUrls, discovered}) {
        ok &= r.failed() == 0 && r.created() == distinct && r.drained() == r.created();
      }
      table.row("result", ok ? "OK" : "FAILED", "", "");
      return ok ? 0 : 1;
    } finally {
      bench.putBatch = 0;
    }
  }
}
