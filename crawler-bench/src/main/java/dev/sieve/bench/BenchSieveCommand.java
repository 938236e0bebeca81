package dev.sieve.bench;

import com.google.common.hash.BloomFilter;
import dev.sieve.bench.FilterTargets.GuavaTarget;
import dev.sieve.bench.FilterTargets.KeySlice;
import dev.sieve.bench.FilterTargets.SieveBatched;
import dev.sieve.bench.FilterTargets.SieveOneByOne;
import dev.sieve.bench.FilterTargets.Target;
import dev.sieve.frontier.Sieve;
import dev.sieve.settings.Check;
import dev.sieve.units.Units;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicLongArray;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code bench sieve}: puts synthetic URLs (a share of them repeats) through the Sieve's
 * exactly-once check-and-set and, in the same run, through Guava's BloomFilter, then queries as
 * many pushed as never-pushed URLs in each (the never-pushed ones give the measured false-positive
 * rate); several runs, each with new filters. The keys of a chunk are made before the stopwatch
 * starts and both filters get the same bytes, chunk by chunk, taking turns at going first; only
 * their work on the keys is timed, hashing included.
 */
@Command(
    name = "sieve",
    mixinStandardHelpOptions = true,
    description = "Put N synthetic URLs through the Sieve's filter and Guava's BloomFilter, query"
        + " them, and print put and query rates side by side, run by run, with memory and the"
        + " measured false-positive rate.")
final class BenchSieveCommand implements Callable<Integer> {
  /** Keys made, then put by each filter in turn. */
  private static final int CHUNK = 4096;
  /** Pairs of keys queried, untimed, before the query phase. */
  private static final long WARM_UP = 200_000;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Option(names = "--urls", required = true, converter = CountConverter.class,
      description = "URLs to push, repeats included; e.g. 100000000 or 1e8.")
  long urls;

  @Option(names = "--duplicates", defaultValue = "0.3", description = "Share of pushes that repeat an earlier URL (default ${DEFAULT-VALUE}).")
  double duplicates;

  @Option(names = "--fpp", defaultValue = "0.01", description = "Target false-positive rate (default ${DEFAULT-VALUE}).")
  double fpp;

  @Option(names = "--threads", defaultValue = "1", description = "Pushing and querying threads (default ${DEFAULT-VALUE}).")
  int threads;

  @Option(names = "--probes", defaultValue = "1000000", converter = CountConverter.class,
      description = "Never-pushed URLs queried, with as many pushed ones (default ${DEFAULT-VALUE}).")
  long probes;

  @Option(names = "--batch", defaultValue = "64", description = "URLs the Sieve puts or queries at once, as the crawler does with the links of a page (Sieve.admitAll); 1 for one by one (default ${DEFAULT-VALUE}).")
  int batch;

  @Option(names = "--runs", defaultValue = "3", description = "Runs, each with new filters (default ${DEFAULT-VALUE}).")
  int runs;

  @Option(names = "--compare-guava", negatable = true, defaultValue = "true", fallbackValue = "true",
      description = "Run Guava's BloomFilter (over the same key bytes) alongside and print the"
          + " ratios; --no-compare-guava for the Sieve alone (default ${DEFAULT-VALUE}).")
  boolean compareGuava;

  @Option(names = "--huge-pages", negatable = true, defaultValue = "true", fallbackValue = "true",
      description = "Measure in a child JVM started with -XX:+UseTransparentHugePages (and this"
          + " JVM's options), as a crawl with a filter this large is best run: one TLB entry then"
          + " covers 2 MiB of filter; --no-huge-pages measures in this JVM (default"
          + " ${DEFAULT-VALUE}).")
  boolean hugePages;

  /** Set in the child JVM that {@code --huge-pages} starts (whose parent prints the machine). */
  static final String CHILD = "sieve.bench.child";

  /** One run's figures of one filter. */
  private record Figures(double putsPerSecond, double queriesPerSecond, long accepted,
      double measuredFpp) {}

  @Override
  public Integer call() throws Exception {
    try {
      Check.positive("--urls", urls);
      Check.positive("--threads", threads);
      Check.positive("--probes", probes);
      Check.positive("--batch", batch);
      Check.positive("--runs", runs);
      Check.rate("--fpp", fpp);
      if (!(duplicates >= 0 && duplicates < 1)) {
        throw new IllegalArgumentException("--duplicates (" + duplicates + ") must be in [0, 1)");
      }
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
    }
    if (hugePages && System.getProperty(CHILD) == null) {
      return inChildWithHugePages();
    }
    long distinct = Math.max(1, Math.round(urls * (1 - duplicates)));
    PrintStream out = System.out;
    out.printf(Locale.ROOT, "Putting %,d URLs (%.0f%% repeats, ~%,d distinct) at fpp %s with %d"
        + " thread(s), the Sieve %d per batch; then querying %,d pushed and %,d never-pushed;"
        + " %d run(s)%n", urls, duplicates * 100, distinct, fpp, threads, batch, probes, probes,
        runs);
    int filters = compareGuava ? 2 : 1;
    List<Figures[]> results = new ArrayList<>();
    long sieveBytes = 0;
    for (int run = 1; run <= runs; run++) {
      Sieve sieve = Sieve.create(distinct, fpp);
      sieveBytes = sieve.filterBits() / 8;
      BloomFilter<KeySlice> guava =
          compareGuava ? BloomFilter.create(KeySlice.FUNNEL, distinct, fpp) : null;
      Figures[] figures = new SieveRun(sieve, guava, filters).measure();
      results.add(figures);
      out.printf(Locale.ROOT, "  run %d: sieve %s puts/s, %s queries/s, %,d new%s%n", run,
          Table.rate(figures[0].putsPerSecond()), Table.rate(figures[0].queriesPerSecond()),
          figures[0].accepted(), compareGuava ? Table.format("; guava %s puts/s, %s queries/s,"
              + " %,d new", Table.rate(figures[1].putsPerSecond()),
              Table.rate(figures[1].queriesPerSecond()), figures[1].accepted()) : "");
    }
    print(out, results, distinct, sieveBytes);
    return 0;
  }

  /** Runs this command again in a child JVM with transparent huge pages; returns its exit code. */
  private int inChildWithHugePages() throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of(SiteProcess.java()));
    command.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments());
    command.addAll(List.of("-XX:+UseTransparentHugePages", "-D" + CHILD + "=true", "-cp",
        SiteProcess.classPath(), spec.root().userObject().getClass().getName()));
    command.addAll(spec.commandLine().getParseResult().originalArgs()); // "bench sieve …"
    System.out.println("Measuring in a child JVM with -XX:+UseTransparentHugePages"
        + " (--no-huge-pages: in this one)");
    System.out.flush();
    return new ProcessBuilder(command).inheritIO().start().waitFor();
  }

  private void print(PrintStream out, List<Figures[]> results, long distinct, long sieveBytes) {
    out.println();
    Table runTable = Table.of(out, -7, 13, 13, 7, 13, 13, 7);
    runTable.row("run", "sieve put/s", "guava put/s", "put ×", "sieve query/s", "guava query/s",
        "query ×");
    double[] putRatios = new double[results.size()];
    double[] queryRatios = new double[results.size()];
    for (int r = 0; r < results.size(); r++) {
      Figures sieve = results.get(r)[0];
      Figures guava = compareGuava ? results.get(r)[1] : null;
      putRatios[r] = guava == null ? 0 : sieve.putsPerSecond() / guava.putsPerSecond();
      queryRatios[r] = guava == null ? 0 : sieve.queriesPerSecond() / guava.queriesPerSecond();
      runTable.row(String.valueOf(r + 1), Table.rate(sieve.putsPerSecond()),
          guava == null ? "" : Table.rate(guava.putsPerSecond()),
          guava == null ? "" : Table.format("%.2fx", putRatios[r]),
          Table.rate(sieve.queriesPerSecond()),
          guava == null ? "" : Table.rate(guava.queriesPerSecond()),
          guava == null ? "" : Table.format("%.2fx", queryRatios[r]));
    }
    if (compareGuava) {
      runTable.row("median", "", "", Table.format("%.2fx", median(putRatios)), "", "",
          Table.format("%.2fx", median(queryRatios)));
    }
    out.println();
    Figures[] last = results.get(results.size() - 1);
    Table table = Table.of(out, -16, 14, 9, 13);
    table.row("filter", "memory", "bits/URL", "measured fpp");
    table.row("sieve (blocked)", Units.bytes(sieveBytes),
        Table.format("%.2f", sieveBytes * 8.0 / distinct), Table.format("%.5f", last[0].measuredFpp()));
    if (compareGuava) {
      long guavaBytes = guavaBytes(distinct, fpp);
      table.row("guava", Units.bytes(guavaBytes), Table.format("%.2f", guavaBytes * 8.0 / distinct),
          Table.format("%.5f", last[1].measuredFpp()));
    }
  }

  private static double median(double[] values) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    int mid = sorted.length / 2;
    return sorted.length % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  }

  /** One run: the put phase, then the query phase, over new filters. */
  private final class SieveRun {
    private final Sieve sieve;
    private final BloomFilter<KeySlice> guava;
    private final int filters;
    private final AtomicLongArray putNanos;
    private final AtomicLongArray queryNanos;
    private final AtomicLongArray accepted;
    private final AtomicLongArray falsePositives;
    private final long[] freshEnd = new long[threads];

    SieveRun(Sieve sieve, BloomFilter<KeySlice> guava, int filters) {
      this.sieve = sieve;
      this.guava = guava;
      this.filters = filters;
      putNanos = new AtomicLongArray(filters);
      queryNanos = new AtomicLongArray(filters);
      accepted = new AtomicLongArray(filters);
      falsePositives = new AtomicLongArray(filters);
    }

    Figures[] measure() throws Exception {
      Timing.parallel(threads, this::put);
      long pushed = Arrays.stream(freshEnd).min().orElse(1);
      // Untimed first: the query path has not run yet, and JIT-compiling it is not what is measured.
      Timing.parallel(threads, thread -> query(thread, Math.max(1, pushed), WARM_UP, false));
      Timing.parallel(threads, thread -> query(thread, Math.max(1, pushed), probes, true));
      Figures[] figures = new Figures[filters];
      for (int f = 0; f < filters; f++) {
        // Each thread's time in this filter, averaged over the threads: the filters take turns.
        double putSeconds = putNanos.get(f) / 1e9 / threads;
        double querySeconds = queryNanos.get(f) / 1e9 / threads;
        figures[f] = new Figures(urls / putSeconds, 2 * probes / querySeconds, accepted.get(f),
            (double) falsePositives.get(f) / probes);
      }
      return figures;
    }

    private Target[] targets() {
      Target[] targets = new Target[filters];
      targets[0] = batch == 1 ? new SieveOneByOne(sieve) : new SieveBatched(sieve, batch);
      if (filters > 1) {
        targets[1] = new GuavaTarget(guava);
      }
      return targets;
    }

    private long put(int thread) {
      Target[] targets = targets();
      SyntheticKeys keys = new SyntheticKeys();
      SplittableRandom random = new SplittableRandom(thread);
      long fresh = thread;
      long share = urls / threads + (thread < urls % threads ? 1 : 0);
      boolean[] answers = new boolean[CHUNK];
      for (long done = 0, chunk = 0; done < share; done += keys.count(), chunk++) {
        keys.clear();
        for (int k = 0; k < Math.min(CHUNK, share - done); k++) {
          if (fresh > threads && random.nextDouble() < duplicates) {
            keys.add(0, random.nextLong(fresh)); // an earlier URL, possibly another thread's
          } else {
            keys.add(0, fresh);
            fresh += threads;
          }
        }
        for (int turn = 0; turn < filters; turn++) {
          int f = (int) ((turn + chunk) % filters);
          long started = System.nanoTime();
          int added = targets[f].put(keys, answers);
          putNanos.addAndGet(f, System.nanoTime() - started);
          accepted.addAndGet(f, added);
        }
      }
      freshEnd[thread] = fresh;
      return 0;
    }

    /** Queries pushed keys (even places) and never-pushed ones (odd places), chunk by chunk. */
    private long query(int thread, long pushed, long pairs, boolean record) {
      Target[] targets = targets();
      SyntheticKeys keys = new SyntheticKeys();
      SplittableRandom random = new SplittableRandom(record ? ~thread : thread + (1L << 32));
      long share = pairs / threads + (thread < pairs % threads ? 1 : 0);
      boolean[] found = new boolean[CHUNK];
      long never = thread + (record ? 0 : 1L << 40); // the warm-up asks other keys
      for (long done = 0, chunk = 0; done < share; chunk++) {
        keys.clear();
        for (int k = 0; k < CHUNK / 2 && done < share; k++, done++) {
          keys.add(0, random.nextLong(pushed));
          keys.add(1, never);
          never += threads;
        }
        for (int turn = 0; turn < filters; turn++) {
          int f = (int) ((turn + chunk) % filters);
          long started = System.nanoTime();
          targets[f].query(keys, found);
          if (record) {
            queryNanos.addAndGet(f, System.nanoTime() - started);
          }
          long wrong = 0;
          for (int k = 0; k < keys.count(); k += 2) {
            if (!found[k]) {
              throw new IllegalStateException("false negative in filter " + f + ": "
                  + keys.toString(k));
            }
            wrong += found[k + 1] ? 1 : 0;
          }
          falsePositives.addAndGet(f, record ? wrong : 0);
        }
      }
      return 0;
    }
  }

  /** Guava's size: the classic optimum rounded up to whole 64-bit words. */
  private static long guavaBytes(long n, double fpp) {
    long bits = (long) (-n * Math.log(fpp) / (Math.log(2) * Math.log(2)));
    return (bits + 63) / 64 * 8;
  }

  /** A count written as a whole number or in E notation: {@code 100000000}, {@code 1e8}. */
  static final class CountConverter implements CommandLine.ITypeConverter<Long> {
    @Override
    public Long convert(String text) {
      try {
        return new BigDecimal(text.trim()).longValueExact();
      } catch (ArithmeticException | NumberFormatException e) {
        throw new CommandLine.TypeConversionException(
            "'" + text + "' is not a whole number (e.g. 100000000 or 1e8)");
      }
    }
  }
}
