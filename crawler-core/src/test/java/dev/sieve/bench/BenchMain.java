package dev.sieve.bench;

import dev.sieve.bloom.BloomFixtures;
import dev.sieve.bloom.BloomFixtures.Candidate;
import dev.sieve.bloom.BloomFixtures.Impl;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.openjdk.jmh.profile.GCProfiler;
import org.openjdk.jmh.results.BenchmarkResult;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.OptionsBuilder;

/**
 * Runs the JMH benchmarks of test sources. Arguments are a JMH command line, except when the
 * first is {@code bloom} or {@code bloom:PART,PART…}: then it runs the filter suite with short
 * defaults ({@code -f 1 -wi 2 -i 3 -prof gc}, overridable by the JMH options that follow) and
 * writes a markdown report. Parts: {@code hash} (Hash128Benchmark), {@code small}
 * (n = 10⁶, with HashSet), {@code large} (n = 10⁸), {@code bytes} (BloomBytesBenchmark, both n),
 * {@code sieve} (SieveBenchmark), {@code align} (BlockAlignmentBenchmark), {@code fpr} (bits per
 * URL and measured false-positive rates, no JMH); {@code bloom} alone is all of them and writes
 * {@code bench/RESULTS-bloom.md}; any other selection or option writes {@code
 * bench/RESULTS-bloom-partial.md}.
 *
 * <pre>
 * mvn -B -q -pl crawler-core -Pbench test-compile exec:exec -Dbench=bloom
 * mvn -B -q -pl crawler-core -Pbench test-compile exec:exec -Dbench='bloom:small,fpr -i 5'
 * mvn -B -q -pl crawler-core -Pbench test-compile exec:exec -Dbench='Hash128Benchmark -prof gc'
 * </pre>
 */
public final class BenchMain {
  private static final List<String> ALL_PARTS =
      List.of("hash", "small", "large", "bytes", "sieve", "align", "fpr");
  private static final String SMALL = "1000000";
  private static final String LARGE = "100000000";
  private static final Path REPORT = Paths.get("bench", "RESULTS-bloom.md");
  private static final String NOTES = "## Notes";

  private BenchMain() {}

  public static void main(String[] args) throws Exception {
    if (args.length == 0 || !args[0].startsWith("bloom")) {
      org.openjdk.jmh.Main.main(args);
      return;
    }
    Set<String> parts = new LinkedHashSet<>(
        args[0].equals("bloom") ? ALL_PARTS : Arrays.asList(args[0].substring(6).split(",")));
    if (!ALL_PARTS.containsAll(parts)) {
      throw new IllegalArgumentException("parts " + parts + " must be among " + ALL_PARTS);
    }
    CommandLineOptions cli = new CommandLineOptions(Arrays.copyOfRange(args, 1, args.length));
    String loadBefore = loadAverage();
    long started = System.nanoTime();
    List<RunResult> results = new ArrayList<>();
    if (parts.contains("hash")) {
      results.addAll(run(cli, "Hash128Benchmark", Map.of()));
    }
    if (parts.contains("small")) {
      results.addAll(run(cli, "BloomBenchmark", Map.of(
          "n", new String[] {SMALL}, "impl", new String[] {"blocked", "classic", "guava"})));
      results.addAll(run(cli, "BloomBenchmark", Map.of("n", new String[] {SMALL},
          "impl", new String[] {"hashset"}, "fpp", new String[] {"0.01"})));
    }
    if (parts.contains("large")) {
      results.addAll(run(cli, "BloomBenchmark", Map.of(
          "n", new String[] {LARGE}, "impl", new String[] {"blocked", "classic", "guava"})));
    }
    if (parts.contains("bytes")) {
      results.addAll(run(cli, "BloomBytesBenchmark", Map.of("impl", new String[] {"blocked"})));
    }
    if (parts.contains("sieve")) {
      results.addAll(run(cli, "SieveBenchmark", Map.of()));
    }
    if (parts.contains("align")) {
      results.addAll(run(cli, "BlockAlignmentBenchmark", Map.of()));
    }
    double jmhMinutes = (System.nanoTime() - started) / 60e9;
    List<String> fpr = parts.contains("fpr") ? falsePositiveReport() : List.of();
    String report = report(results, fpr, cli, args, jmhMinutes, loadBefore, loadAverage());
    // A partial run or one with other JMH options must not overwrite the full report.
    Path file = args.length == 1 && args[0].equals("bloom")
        ? REPORT
        : REPORT.resolveSibling("RESULTS-bloom-partial.md");
    Files.createDirectories(file.getParent());
    if (Files.isRegularFile(file)) {
      // Hand-written notes at the end of the file outlive the regenerated tables.
      String previous = Files.readString(file);
      int notes = previous.indexOf(NOTES);
      if (notes >= 0) {
        report = report + previous.substring(notes);
      }
    }
    Files.writeString(file, report);
    System.out.println(report);
    System.out.println("wrote " + file.toAbsolutePath());
  }

  private static Collection<RunResult> run(
      CommandLineOptions cli, String benchmark, Map<String, String[]> params) throws Exception {
    ChainedOptionsBuilder options =
        new OptionsBuilder().parent(cli).include("\\." + benchmark + "\\.");
    if (!cli.getForkCount().hasValue()) {
      options.forks(1);
    }
    if (!cli.getWarmupIterations().hasValue()) {
      options.warmupIterations(2);
    }
    if (!cli.getMeasurementIterations().hasValue()) {
      options.measurementIterations(3);
    }
    if (cli.getProfilers().isEmpty()) {
      options.addProfiler(GCProfiler.class);
    }
    params.forEach((name, values) -> {
      if (!cli.getParameter(name).hasValue()) {
        options.param(name, values);
      }
    });
    return new Runner(options.build()).run();
  }

  /** Bits per URL and the false-positive rate measured on 10⁶ disjoint keys (≥ 100/ε). */
  private static List<String> falsePositiveReport() {
    int queries = 1_000_000;
    List<String> rows = new ArrayList<>();
    rows.add("| n | ε | impl | bits/URL | × Guava bits | measured FPR (10⁶ disjoint keys)"
        + " | FPR / ε |");
    rows.add("|---|---|---|---:|---:|---:|---:|");
    for (long n : new long[] {Long.parseLong(SMALL), Long.parseLong(LARGE)}) {
      for (double fpp : new double[] {0.01, 0.001}) {
        double guavaBits = 0;
        for (Impl impl : new Impl[] {Impl.GUAVA, Impl.BLOCKED, Impl.CLASSIC}) {
          Candidate candidate = BloomFixtures.filled(impl, n, fpp);
          double bitsPerUrl = (double) candidate.bits() / n;
          if (impl == Impl.GUAVA) {
            guavaBits = bitsPerUrl;
          }
          double measured = (double) BloomFixtures.falsePositives(candidate, queries) / queries;
          rows.add(String.format(Locale.ROOT, "| %s | %s | %s | %.3f | %.3f | %.5f | %.3f |",
              count(n), fpp, impl.name().toLowerCase(Locale.ROOT), bitsPerUrl,
              bitsPerUrl / guavaBits, measured, measured / fpp));
          candidate = null; // let the next one have the heap
          System.gc();
        }
      }
    }
    Candidate set = BloomFixtures.filled(Impl.HASHSET, Long.parseLong(SMALL), 0.01);
    rows.add(String.format(Locale.ROOT, "| 10⁶ | – | hashset | %.0f (heap, measured) | | 0 | |",
        (double) set.bits() / Long.parseLong(SMALL)));
    return rows;
  }

  private static String report(List<RunResult> results, List<String> fpr, CommandLineOptions cli,
      String[] args, double jmhMinutes, String loadBefore, String loadAfter) throws Exception {
    StringBuilder out = new StringBuilder();
    out.append("# Filter benchmarks\n\n");
    out.append("- date: ").append(LocalDate.now()).append('\n');
    out.append("- `nproc`: ").append(Runtime.getRuntime().availableProcessors()).append('\n');
    out.append("- `lscpu | grep 'Model name'`: ").append(command("lscpu").stream()
        .filter(l -> l.startsWith("Model name")).map(l -> l.replaceAll("\\s+", " "))
        .collect(Collectors.joining("; "))).append('\n');
    out.append("- `java -version`: ").append(String.join(" / ", command(
        Paths.get(System.getProperty("java.home"), "bin", "java").toString(), "-version")))
        .append('\n');
    out.append("- command: `mvn -B -q -pl crawler-core -Pbench test-compile exec:exec -Dbench='")
        .append(String.join(" ", args)).append("'`\n");
    out.append(String.format(Locale.ROOT,
        "- JMH wall time %.1f min; load average before %s, after %s (a shared 2-core machine:"
            + " other builds ran alongside, so single figures can be off by 2× or more; the"
            + " best iteration is the least disturbed)%n%n", jmhMinutes, loadBefore, loadAfter));

    Map<String, List<RunResult>> byBenchmark = new TreeMap<>();
    for (RunResult r : results) {
      byBenchmark.computeIfAbsent(simpleClass(r), k -> new ArrayList<>()).add(r);
    }
    List<RunResult> filters = new ArrayList<>();
    filters.addAll(byBenchmark.getOrDefault("BloomBenchmark", List.of()));
    filters.addAll(byBenchmark.getOrDefault("BloomBytesBenchmark", List.of()));
    if (!filters.isEmpty()) {
      out.append("## Filters, one thread\n\n");
      out.append("ns/op is the mean over measurement iterations ± JMH's 99.9% error; best is the"
          + " fastest iteration. × Guava is Guava's ns/op over this row's (throughput ratio, >"
          + " 1 is faster), from the means and, in brackets, from the best iterations; `…Bytes`"
          + " rows hash given UTF-8 bytes and are compared with Guava's String row.\n\n");
      out.append("| n | ε | op | impl | ns/op | best ns/op | B/op | × Guava |\n");
      out.append("|---|---|---|---|---:|---:|---:|---:|\n");
      filters.sort((a, b) -> key(a).compareTo(key(b)));
      for (RunResult r : filters) {
        String op = method(r);
        RunResult guava = filters.stream()
            .filter(g -> "guava".equals(g.getParams().getParam("impl"))
                && method(g).equals(op.replace("Bytes", ""))
                && g.getParams().getParam("n").equals(r.getParams().getParam("n"))
                && g.getParams().getParam("fpp").equals(r.getParams().getParam("fpp")))
            .findFirst().orElse(null);
        String ratio = guava == null ? "" : String.format(Locale.ROOT, "%.2f (%.2f)",
            mean(guava) / mean(r), best(guava) / best(r));
        out.append(String.format(Locale.ROOT,
            "| %s | %s | %s | %s | %.1f ± %.1f | %.1f | %s | %s |%n",
            count(Long.parseLong(r.getParams().getParam("n"))), r.getParams().getParam("fpp"), op,
            r.getParams().getParam("impl"), mean(r), r.getPrimaryResult().getScoreError(), best(r),
            bytesPerOp(r), ratio));
      }
      out.append('\n');
    }
    if (!fpr.isEmpty()) {
      out.append("## Memory and false-positive rate\n\n");
      fpr.forEach(l -> out.append(l).append('\n'));
      out.append('\n');
    }
    for (String other : List.of("Hash128Benchmark", "SieveBenchmark", "BlockAlignmentBenchmark")) {
      List<RunResult> rows = byBenchmark.getOrDefault(other, List.of());
      if (rows.isEmpty()) {
        continue;
      }
      out.append("## ").append(other).append("\n\n");
      out.append("| benchmark | params | ns/op | best ns/op | B/op |\n|---|---|---:|---:|---:|\n");
      for (RunResult r : rows) {
        String params = r.getParams().getParamsKeys().stream()
            .map(k -> k + "=" + r.getParams().getParam(k)).collect(Collectors.joining(" "));
        out.append(String.format(Locale.ROOT, "| %s | %s | %.1f ± %.1f | %.1f | %s |%n",
            method(r), params, mean(r), r.getPrimaryResult().getScoreError(), best(r),
            bytesPerOp(r)));
      }
      out.append('\n');
    }
    return out.toString();
  }

  private static String key(RunResult r) {
    String impl = r.getParams().getParam("impl");
    int rank = List.of("guava", "blocked", "classic", "hashset").indexOf(impl);
    return String.format(Locale.ROOT, "%012d %s %s %s %d",
        Long.parseLong(r.getParams().getParam("n")), r.getParams().getParam("fpp"),
        method(r).replace("Bytes", "~"), method(r), rank);
  }

  private static String simpleClass(RunResult r) {
    String name = r.getParams().getBenchmark();
    String owner = name.substring(0, name.lastIndexOf('.'));
    return owner.substring(owner.lastIndexOf('.') + 1);
  }

  private static String method(RunResult r) {
    String name = r.getParams().getBenchmark();
    return name.substring(name.lastIndexOf('.') + 1);
  }

  private static double mean(RunResult r) {
    return r.getPrimaryResult().getScore();
  }

  private static double best(RunResult r) {
    double best = Double.MAX_VALUE;
    for (BenchmarkResult fork : r.getBenchmarkResults()) {
      for (IterationResult iteration : fork.getIterationResults()) {
        best = Math.min(best, iteration.getPrimaryResult().getScore());
      }
    }
    return best;
  }

  private static String bytesPerOp(RunResult r) {
    Result<?> alloc = r.getSecondaryResults().get("gc.alloc.rate.norm");
    return alloc == null ? "" : String.format(Locale.ROOT, "%.0f", alloc.getScore());
  }

  private static String count(long n) {
    return n == 1_000_000 ? "10⁶" : n == 100_000_000 ? "10⁸" : Long.toString(n);
  }

  private static String loadAverage() {
    try {
      return Files.readString(Paths.get("/proc/loadavg")).trim().split(" ", 4)[0];
    } catch (IOException e) {
      return "?";
    }
  }

  private static List<String> command(String... command) {
    try {
      Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
      try (BufferedReader reader = new BufferedReader(
          new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
        return reader.lines().collect(Collectors.toList());
      }
    } catch (IOException e) {
      return List.of("(" + command[0] + " failed: " + e.getMessage() + ")");
    }
  }
}
