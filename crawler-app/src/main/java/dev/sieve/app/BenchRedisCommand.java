package dev.sieve.app;

import dev.sieve.frontier.Frontier;
import dev.sieve.frontier.Sieve;
import dev.sieve.frontier.local.LocalFrontier;
import dev.sieve.frontier.redis.RedisFrontier;
import dev.sieve.frontier.redis.RedisFrontierException;
import dev.sieve.url.Url;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
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
    versionProvider = Main.Version.class,
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
    List<List<Url>> batches = batches();
    out.printf(Locale.ROOT, "Push: %,d distinct URLs on 1,000 hosts, batches of %d, %d threads%n",
        urls, batch, threads);
    LocalFrontier local = LocalFrontier.builder(Sieve.create(urls * 2L, 1e-6)).build();
    report(out, "local", push(local, batches));
    RedisFrontier shared;
    try {
      shared = RedisFrontier.builder().uri(redis).crawlId("bench-push-" + System.nanoTime())
          .expectedUrls(urls * 2L).falsePositiveRate(1e-6).connections(threads + 2).build();
    } catch (RedisFrontierException e) {
      System.err.println("Redis frontier: " + e.getMessage());
      return CommandLine.ExitCode.USAGE;
    }
    try {
      report(out, "redis", push(shared, batches));
      report(out, "redis (all seen)", push(shared, batches));
    } finally {
      shared.disconnect();
    }
    crawls(out);
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

  private double[] push(Frontier frontier, List<List<Url>> batches) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    long start = System.nanoTime();
    try {
      List<Future<Integer>> futures = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int first = t;
        futures.add(pool.submit(() -> {
          int added = 0;
          for (int b = first; b < batches.size(); b += threads) {
            added += frontier.pushAll(batches.get(b), 1);
          }
          return added;
        }));
      }
      int added = 0;
      for (Future<Integer> future : futures) {
        added += future.get();
      }
      return new double[] {(System.nanoTime() - start) / 1e9, added};
    } finally {
      pool.shutdownNow();
    }
  }

  private void report(PrintStream out, String name, double[] result) {
    out.printf(Locale.ROOT, "  %-18s %,10.0f pushes/s (%.2f s, %,d new)%n", name, urls / result[0],
        result[0], (long) result[1]);
  }

  /** Crawls a loopback site with the local frontier, then with 1..N processes sharing Redis. */
  private void crawls(PrintStream out) throws Exception {
    Path jar = Path.of(BenchRedisCommand.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    Path dir = Files.createTempDirectory("sieve-bench-redis");
    Process server = new ProcessBuilder(java(), "-Xmx1g", "-cp", jar.toString(),
        BenchSite.class.getName(), Integer.toString(pages), "0")
        .redirectError(ProcessBuilder.Redirect.INHERIT).start();
    try {
      BufferedReader reader = new BufferedReader(
          new InputStreamReader(server.getInputStream(), StandardCharsets.UTF_8));
      String ready = reader.readLine();
      if (ready == null || !ready.startsWith("ready ")) {
        throw new IllegalStateException("the site server did not start: " + ready);
      }
      int port = Integer.parseInt(ready.substring(6).trim());
      Path seeds = Files.writeString(dir.resolve("seeds.txt"),
          "http://127.0.0.1:" + port + "/p/0.html\n");
      out.printf(Locale.ROOT, "Crawl: %,d pages of ~40 KB, 50 links each, one host on loopback,"
          + " %d threads per process, no delay, %d per host%n", pages, threads, threads * processes);
      crawl(out, jar, dir, seeds, "local", 1, List.of("--frontier", "local"));
      String id = "bench-crawl-" + System.nanoTime();
      for (int p = 1; p <= processes; p++) {
        crawl(out, jar, dir, seeds, "redis x" + p, p, List.of("--frontier", redis,
            "--crawl-id", id + "-" + p));
      }
    } finally {
      server.destroy();
      server.waitFor(10, TimeUnit.SECONDS);
    }
  }

  private void crawl(PrintStream out, Path jar, Path dir, Path seeds, String name, int count,
      List<String> frontier) throws Exception {
    List<Process> crawlers = new ArrayList<>();
    List<Path> outputs = new ArrayList<>();
    long start = System.nanoTime();
    for (int i = 0; i < count; i++) {
      Path output = dir.resolve(name.replace(' ', '-') + "-" + i + ".jsonl");
      outputs.add(output);
      List<String> command = new ArrayList<>(List.of(java(), "-Xmx1g", "-jar", jar.toString(),
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
    double seconds = (System.nanoTime() - start) / 1e9;
    long total = 0;
    for (Path output : outputs) {
      try (var lines = Files.lines(output)) {
        total += lines.count();
      }
    }
    out.printf(Locale.ROOT, "  %-18s %,8d pages in %6.2f s: %,6.0f pages/s (wall time, JVM start"
        + " included)%n", name, total, seconds, total / seconds);
  }

  private static String java() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }
}
