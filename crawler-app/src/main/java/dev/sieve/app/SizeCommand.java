package dev.sieve.app;

import dev.sieve.bloom.BlockedBloomFilter;
import dev.sieve.bloom.FilterSizing;
import dev.sieve.bloom.ScalableBloomFilter;
import dev.sieve.units.Units;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code size}: plans the Sieve's memory for each filter structure. */
@Command(
    name = "size",
    mixinStandardHelpOptions = true,
    versionProvider = Main.Version.class,
    description = "Plan the Sieve's memory for each filter: bits per URL, bytes, hash count, and what"
        + " happens past capacity.")
final class SizeCommand implements Callable<Integer> {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Option(names = "--capacity", required = true, paramLabel = "N", description = "Distinct URLs expected.")
  long capacity;

  @Option(names = "--fpp", required = true, paramLabel = "P", description = "Target false-positive rate, in (0, 1).")
  double fpp;

  @Override
  public Integer call() {
    if (capacity <= 0) {
      throw new CommandLine.ParameterException(
          spec.commandLine(), "--capacity (" + capacity + ") must be > 0");
    }
    if (!(fpp > 0 && fpp < 1)) {
      throw new CommandLine.ParameterException(
          spec.commandLine(), "--fpp (" + fpp + ") must be in (0, 1)");
    }
    FilterSizing.Plan classic;
    FilterSizing.Plan blocked;
    FilterSizing.Plan fewest;
    FilterSizing.CuckooPlan cuckoo;
    try {
      classic = FilterSizing.classic(capacity, fpp);
      blocked = FilterSizing.blocked(capacity, fpp);
      fewest = FilterSizing.fewestHashes(capacity, fpp);
      cuckoo = FilterSizing.cuckoo(capacity, fpp);
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
    }
    double minimum = FilterSizing.informationTheoreticMinimumBitsPerKey(fpp);
    PrintStream out = System.out;
    out.printf(Locale.ROOT, "Filter plans for %,d URLs at false-positive rate %s%n%n",
        capacity, BigDecimal.valueOf(fpp).stripTrailingZeros().toPlainString());
    out.printf(Locale.ROOT, "  %-15s %9s  %-24s %4s  %12s  %12s%n",
        "structure", "bits/URL", "memory", "k", "fpp at 1.5x", "fpp at 2x");
    row(out, "blocked", blocked, BlockedBloomFilter::falsePositiveRate);
    row(out, "classic", classic, (n, m, k) -> FilterSizing.fppAt(m, k, n));
    row(out, "fewest hashes", fewest, (n, m, k) -> FilterSizing.fppAt(m, k, n));
    out.printf(Locale.ROOT, "  %-15s %9.2f  %-24s %4s  %12s  %12s%n", "cuckoo", cuckoo.bitsPerKey(),
        memory(cuckoo.bits()), "-", "full", "full");
    out.printf(Locale.ROOT, "  %-15s %9s  %-24s %4s  %12s  %12s%n", "scalable", "grows",
        "first layer: see below", "-", "<= target", "<= target");
    out.printf(Locale.ROOT, "  %-15s %9.2f  %-24s%n", "minimum", minimum,
        memory((long) Math.ceil(minimum * capacity)));
    out.printf(Locale.ROOT, "%n");
    out.printf(Locale.ROOT, "classic: %,d bits, %s, k = %d%n", classic.bits(), memory(classic.bits()), classic.hashes());
    out.printf(Locale.ROOT, "cuckoo: %d-bit fingerprints in %,d buckets of %d; a put past %.0f%% load"
            + " fails loudly%n", cuckoo.fingerprintBits(), cuckoo.buckets(),
        FilterSizing.CUCKOO_BUCKET_SIZE, FilterSizing.CUCKOO_MAX_LOAD * 100);
    double first = fpp * (1 - ScalableBloomFilter.DEFAULT_TIGHTENING_RATIO);
    FilterSizing.Plan layer = FilterSizing.classic(capacity, first);
    out.printf(Locale.ROOT, "scalable: first layer at ε₀ = ε·(1 − %.2f) = %.3g: %s; each new layer %d× larger"
            + " at a tighter rate, so the whole stays under %s however far it grows%n",
        ScalableBloomFilter.DEFAULT_TIGHTENING_RATIO, first, memory(layer.bits()),
        ScalableBloomFilter.DEFAULT_GROWTH, BigDecimal.valueOf(fpp).stripTrailingZeros().toPlainString());
    out.printf(Locale.ROOT, "minimum: log2(1/ε) = %.2f bits/URL, the least any structure can use%n", minimum);
    return 0;
  }

  /** The false-positive rate of a filter of some layout after some keys. */
  private interface RateAt {
    double fpp(long keys, long bits, int hashes);
  }

  private void row(PrintStream out, String name, FilterSizing.Plan plan, RateAt rate) {
    out.printf(Locale.ROOT, "  %-15s %9.2f  %-24s %4d  %12.3g  %12.3g%n", name, plan.bitsPerKey(),
        memory(plan.bits()), plan.hashes(),
        rate.fpp(capacity + capacity / 2, plan.bits(), plan.hashes()),
        rate.fpp(2 * capacity, plan.bits(), plan.hashes()));
  }

  /** E.g. {@code 1.71 MiB (1.80 MB)}. */
  private static String memory(long bits) {
    long bytes = (bits + 7) / 8;
    return Units.bytes(bytes) + " (" + Units.decimalBytes(bytes) + ")";
  }
}
