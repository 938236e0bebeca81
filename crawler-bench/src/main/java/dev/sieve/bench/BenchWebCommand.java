package dev.sieve.bench;

import dev.sieve.frontier.Politeness;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code bench web}: a site of many hosts on loopback addresses answering after a latency (see
 * {@link ManyHostSite}), crawled by a fresh {@code java -jar crawler.jar crawl} per run (JVM start
 * included) with default settings and then each {@code --max-in-flight} of a sweep; prints pages/s
 * against the politeness limit, TCP connections per host, fetches in flight, CPU per page, and
 * whether every page was fetched exactly once.
 */
@Command(
    name = "web",
    mixinStandardHelpOptions = true,
    description = "Crawl a many-host loopback site with latency and politeness: pages/s against the politeness limit.")
final class BenchWebCommand implements Callable<Integer> {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  private static final Pattern PAGES = Pattern.compile("pages:\\s+([\\d,]+) ");
  private static final Pattern CONNECTIONS =
      Pattern.compile("connections:\\s+([\\d,]+) opened, ([\\d,]+) reused(?:, [\\d,]+ stale)?; at most ([\\d,]+) fetches");

  @Option(names = "--hosts", defaultValue = "254", description = "Hosts, on 127.0.1.1 upwards (default ${DEFAULT-VALUE}).")
  int hosts;

  @Option(names = "--pages", defaultValue = "40", description = "Pages per host (default ${DEFAULT-VALUE}).")
  int pages;

  @Option(names = "--latency-ms", defaultValue = "200", description = "Each answer's delay (default ${DEFAULT-VALUE}).")
  long latencyMs;

  @Option(names = "--delay-ms", paramLabel = "MS",
      description = "The crawl's --delay-ms (default: the crawler's, " + Politeness.DEFAULT_DELAY_MS + ").")
  Long delayMs;

  @Option(names = "--sweep", split = ",", defaultValue = "64,256", paramLabel = "N,N…",
      description = "--max-in-flight values to run after the default settings (default ${DEFAULT-VALUE}); 0: none.")
  List<Integer> sweep;

  @Option(names = "--crawl-option", paramLabel = "OPTION",
      description = "An extra option for every crawl, repeatable: --crawl-option=--per-host=2.")
  List<String> crawlOptions = new ArrayList<>();

  @Option(names = "--jvm-option", paramLabel = "OPTION",
      description = "An option for the crawler's JVM, repeatable: --jvm-option=-Xmx512m.")
  List<String> jvmOptions = new ArrayList<>();

  @Option(names = "--compare-fetch",
      description = "Instead of crawling: fetch every page with a thread per fetch in flight and with OkHttp's asynchronous calls, and compare.")
  boolean compareFetch;

  @Option(names = "--keep", description = "Keep each run's directory (seeds, output, summary, log, time) and print it.")
  boolean keep;

  @Option(names = "--jar", paramLabel = "FILE", description = "The crawler jar to run (default: the crawler.jar running this bench).")
  Path jar;

  @Override
  public Integer call() throws Exception {
    PrintStream out = System.out;
    if (compareFetch) {
      FetchModes.compare(out, hosts, pages, latencyMs);
      return 0;
    }
    long delay = delayMs == null ? Politeness.DEFAULT_DELAY_MS : delayMs;
    double limit = hosts / ((latencyMs + delay) / 1000.0);
    out.printf("bench web: %,d hosts x %,d pages, latency %d ms, delay %d ms: politeness limit %.0f pages/s, %d cores%n",
        hosts, pages, latencyMs, delay, limit, Runtime.getRuntime().availableProcessors());
    Table table = Table.of(out, -16, 7, 7, 9, 7, 10, 10, 10, 9, 12);
    table.row("max-in-flight", "pages", "s", "pages/s", "xlimit", "conn/host", "most/host", "in flight", "CPU ms/p", "once/again");
    List<Integer> runs = new ArrayList<>();
    runs.add(null);
    sweep.stream().filter(n -> n > 0).forEach(runs::add);
    boolean met = true;
    for (Integer maxInFlight : runs) {
      Run run = crawl(maxInFlight);
      double perSecond = run.pages / run.seconds;
      table.row(maxInFlight == null ? "default" : maxInFlight.toString(), run.pages, Table.format("%.1f", run.seconds),
          Table.format("%.0f", perSecond), Table.format("%.2f", perSecond / limit),
          Table.format("%.2f", run.connections / (double) hosts), run.mostConnections, run.inFlight,
          run.cpuSeconds < 0 ? "?" : Table.format("%.2f", run.cpuSeconds * 1000 / Math.max(1, run.pages)),
          run.once + "/" + run.again);
      met &= run.once == (long) hosts * pages && run.again == 0;
    }
    out.println(met ? "every page fetched exactly once in every run" : "NOT every page fetched exactly once: see once/again");
    out.println("in flight: the most fetches in flight at once (the crawler's count); conn/host: TCP connections"
        + " accepted per host; CPU: the crawler process's user+sys, JVM start included");
    return met ? 0 : 1;
  }

  private record Run(long pages, double seconds, long connections, int mostConnections, String inFlight,
      double cpuSeconds, int once, int again) {}

  private Run crawl(Integer maxInFlight) throws IOException, InterruptedException {
    Path dir = Files.createTempDirectory("sieve-bench-web");
    try (ManyHostSite site = new ManyHostSite(hosts, pages, latencyMs)) {
      Path seeds = dir.resolve("seeds.txt");
      Files.write(seeds, site.seeds(), StandardCharsets.UTF_8);
      List<String> command = new ArrayList<>();
      Path time = dir.resolve("time.txt");
      boolean timed = Files.isExecutable(Path.of("/usr/bin/time"));
      if (timed) {
        command.addAll(List.of("/usr/bin/time", "-f", "%e %U %S", "-o", time.toString()));
      }
      command.add(SiteProcess.java());
      command.addAll(jvmOptions);
      Path crawler = jar == null ? SiteProcess.crawlerJar(spec) : jar;
      command.addAll(List.of("-jar", crawler.toString(), "crawl",
          "--seeds", seeds.toString(), "--output", dir.resolve("crawl.jsonl").toString(),
          "--progress-interval", "3600"));
      if (delayMs != null) {
        command.add("--delay-ms=" + delayMs);
      }
      if (maxInFlight != null) {
        command.add("--max-in-flight=" + maxInFlight);
      }
      command.addAll(crawlOptions);
      Path summary = dir.resolve("summary.txt");
      long started = Timing.start();
      Process process = new ProcessBuilder(command).directory(dir.toFile())
          .redirectOutput(summary.toFile()).redirectError(dir.resolve("log.txt").toFile()).start();
      int exit = process.waitFor();
      double seconds = Timing.secondsSince(started);
      String text = Files.readString(summary);
      if (exit != 0) {
        throw new IllegalStateException("the crawl exited with " + exit + "; see " + dir);
      }
      Matcher pagesLine = PAGES.matcher(text);
      Matcher connections = CONNECTIONS.matcher(text);
      if (!pagesLine.find() || !connections.find()) {
        throw new IllegalStateException("no summary from the crawl; see " + dir);
      }
      double cpu = -1;
      if (timed) {
        String[] fields = Files.readString(time).trim().split("\\s+");
        int n = fields.length;
        cpu = Double.parseDouble(fields[n - 2]) + Double.parseDouble(fields[n - 1]);
      }
      int[] fetched = site.pagesFetched();
      Run run = new Run(number(pagesLine.group(1)), seconds, site.connections(), site.mostConnectionsOfAHost(),
          connections.group(3), cpu, fetched[0], fetched[1]);
      if (keep) {
        System.out.println("  (kept " + dir + ")");
      } else {
        deleteAll(dir);
      }
      return run;
    }
  }

  private static long number(String digits) {
    return Long.parseLong(digits.replace(",", ""));
  }

  private static void deleteAll(Path dir) throws IOException {
    try (var files = Files.walk(dir)) {
      for (Path path : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(path);
      }
    }
  }
}
