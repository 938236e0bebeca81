package dev.sieve.bench;

import dev.sieve.frontier.Frontier;
import dev.sieve.frontier.FrontierSettings;
import dev.sieve.frontier.FrontierStoreException;
import dev.sieve.frontier.Frontiers;
import dev.sieve.frontier.OpenFrontier;
import dev.sieve.url.Url;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code bench redis}: pushes per second and crawl pages per second with the frontier in Redis,
 * beside the in-process frontier on the same machine, and the crawl with 1, 2 and 3 processes.
 */
@Command(
    name = "redis",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = "Pushes/s and crawl pages/s: local frontier against a Redis one, 1..N processes.")
final class BenchRedisCommand implements Callable<Integer> {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Option(names = "--redis", required = true, paramLabel = "URI",
      description = "redis://HOST:PORT[/DB] or redis-cluster://…; crawls named bench-* are created there.")
  String redis;

  @Option(names = "--urls", defaultValue = "200000", description = "URLs pushed (default ${DEFAULT-VALUE}).")
  int urls;

  @Option(names = "--batch", defaultValue = "50", description = "URLs per pushAll, like a page's links (default ${DEFAULT-VALUE}).")
  int batch;

  @Option(names = "--threads", defaultValue = "8", description = "Pushing threads, and crawler threads per process (default ${DEFAULT-VALUE}).")
  int threads;

  @Option(names = "--pages", defaultValue = "4000", description = "Pages on the crawled site (default ${DEFAULT-VALUE}).")
  int pages;

  @Option(names = "--processes", defaultValue = "3", description = "Crawl with 1..N processes (default ${DEFAULT-VALUE}).")
  int processes;

  @Override
  public Integer call() throws Exception {
    PrintStream out = System.out;
    Table table = Table.of(out, -18, 0);
    List<List<Url>> batches = batches();
    out.printf(Locale.ROOT, "Push: %,d distinct URLs on 1,000 hosts, batches of %d, %d threads%n",
        urls, batch, threads);
    FrontierSettings.Builder settings = FrontierSettings.builder().expectedUrls(urls * 2L)
        .falsePositiveRate(1e-6).growOnCapacity(false);
    report(table, "local", push(Frontiers.open(settings.build()).frontier(), batches));
    OpenFrontier shared;
    try {
      shared = Frontiers.open(settings.redis(redis, "bench-push-" + System.nanoTime(),
          Duration.ofSeconds(FrontierSettings.DEFAULT_LEASE_SECONDS), threads + 2).build());
    } catch (FrontierStoreException e) {
      System.err.println("Redis frontier: " + e.getMessage());
      return CommandLine.ExitCode.USAGE;
    }
    try {
      report(table, "redis", push(shared.frontier(), batches));
      report(table, "redis (all seen)", push(shared.frontier(), batches));
    } finally {
      shared.disconnect();
    }
    crawls(out, table);
    return 0;
  }

  private List<List<Url>> batches() {
    List<List<Url>> batches = new ArrayList<>();
    List<Url> current = new ArrayList<>();
    for (int i = 0; i < urls; i++) {
      current.add(Url.parse("http://h" + (i % 1000) + ".bench.example/p/" + i + ".html").orElseThrow());
      if (current.size() == batch) {
        batches.add(current);
        current = new ArrayList<>();
      }
    }
    if (!current.isEmpty()) {
      batches.add(current);
    }
    return batches;
  }

  private Timing.Run push(Frontier frontier, List<List<Url>> batches) throws Exception {
    return Timing.parallel(threads, first -> {
      long added = 0;
      for (int b = first; b < batches.size(); b += threads) {
        added += frontier.pushAll(batches.get(b), 1, null);
      }
      return added;
    });
  }

  private void report(Table table, String name, Timing.Run pushes) {
    table.row(name, Table.format("%,10.0f pushes/s (%.2f s, %,d new)", pushes.perSecond(urls),
        pushes.seconds(), pushes.total()));
  }

  /** Crawls a loopback site with the local frontier, then with 1..N processes sharing Redis. */
  private void crawls(PrintStream out, Table table) throws Exception {
    Path dir = Files.createTempDirectory("sieve-bench-redis");
    try (SiteProcess site = SiteProcess.start("1g", pages, 40_000, 50)) {
      Path seeds = Files.writeString(dir.resolve("seeds.txt"), site.seed() + "\n");
      out.printf(Locale.ROOT, "Crawl: %,d pages of ~40 KB, 50 links each, one host on loopback,"
          + " %d threads per process, no delay, %d per host%n", pages, threads, threads * processes);
      crawl(table, dir, seeds, "local", 1, List.of("--frontier", "local"));
      String id = "bench-crawl-" + System.nanoTime();
      for (int p = 1; p <= processes; p++) {
        crawl(table, dir, seeds, "redis x" + p, p, List.of("--frontier", redis,
            "--crawl-id", id + "-" + p));
      }
    }
  }

  private void crawl(Table table, Path dir, Path seeds, String name, int count,
      List<String> frontier) throws Exception {
    List<Process> crawlers = new ArrayList<>();
    List<Path> outputs = new ArrayList<>();
    long started = Timing.start();
    for (int i = 0; i < count; i++) {
      Path output = dir.resolve(name.replace(' ', '-') + "-" + i + ".jsonl");
      outputs.add(output);
      List<String> command = new ArrayList<>(List.of(SiteProcess.java(), "-Xmx1g", "-jar",
          SiteProcess.crawlerJar(spec).toString(),
          "crawl", "--seeds", seeds.toString(), "--output", output.toString(),
          "--threads", Integer.toString(threads), "--per-host", Integer.toString(threads * processes),
          "--delay-ms", "0", "--expected-urls", Long.toString(Math.max(1_000_000, pages * 2L)),
          "--progress-interval", "3600"));
      command.addAll(frontier);
      crawlers.add(new ProcessBuilder(command).redirectOutput(ProcessBuilder.Redirect.DISCARD)
          .redirectError(dir.resolve(name.replace(' ', '-') + "-" + i + ".err").toFile()).start());
    }
    for (Process crawler : crawlers) {
      crawler.waitFor();
    }
    double seconds = Timing.secondsSince(started);
    long total = 0;
    for (Path output : outputs) {
      try (var lines = Files.lines(output)) {
        total += lines.count();
      }
    }
    table.row(name, Table.format("%,8d pages in %6.2f s: %,6.0f pages/s (wall time, JVM start"
        + " included)", total, seconds, total / seconds));
  }
}
