package dev.sieve.app;

import dev.sieve.bloom.BloomFilter;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code size}: plans a filter's memory from capacity and false-positive rate. */
@Command(
    name = "size",
    mixinStandardHelpOptions = true,
    versionProvider = Main.Version.class,
    description = "Plan the Sieve's memory: bits, bytes, hash count and bits per URL.")
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
    long bits;
    int hashes;
    try {
      bits = BloomFilter.optimalBits(capacity, fpp);
      hashes = BloomFilter.optimalHashes(capacity, bits);
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
    }
    long bytes = (bits + 7) / 8;
    PrintStream out = System.out;
    out.printf(Locale.ROOT, "Bloom filter for %,d URLs at false-positive rate %s%n",
        capacity, BigDecimal.valueOf(fpp).toPlainString());
    out.printf(Locale.ROOT, "  bits:          %,d%n", bits);
    out.printf(Locale.ROOT, "  bytes:         %,d (%s, %s)%n", bytes, Units.bytes(bytes), Units.decimalBytes(bytes));
    out.printf(Locale.ROOT, "  hash count:    k = %d%n", hashes);
    out.printf(Locale.ROOT, "  bits per URL:  %.2f%n", (double) bits / capacity);
    return 0;
  }
}
