package dev.sieve.bloom;

import dev.sieve.bloom.BloomFixtures.PackedKeys;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * As {@link BloomBenchmark} for our filters, but the caller has the URL's UTF-8 bytes:
 * {@code put(Hash128.of(bytes, off, len))} and {@code mightContain(...)}. With {@code -prof gc}
 * this shows the zero-allocation path: 0 B/op.
 */
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xmx6g", "-Xms2g", "-XX:+UseTransparentHugePages"})
@State(Scope.Benchmark)
public class BloomBytesBenchmark {
  @Param({"blocked", "classic"})
  public String impl;

  @Param({"1000000", "100000000"})
  public long n;

  @Param({"0.01", "0.001"})
  public double fpp;

  private MembershipFilter filter;
  private PackedKeys keys;
  private int next;
  private int iteration = -1;

  @Setup(Level.Trial)
  public void setUp(BenchmarkParams params) {
    filter = ((BloomFixtures.Ours) BloomFixtures.filled(BloomFixtures.impl(impl), n, fpp)).filter;
    String method = params.getBenchmark().substring(params.getBenchmark().lastIndexOf('.') + 1);
    keys = new PackedKeys(switch (method) {
      case "queryPresentBytes" -> BloomFixtures.presentKeys(n, BloomBenchmark.QUERY_POOL);
      case "queryAbsentBytes" -> BloomFixtures.keys(1, 0, BloomBenchmark.QUERY_POOL);
      case "putNewBytes" -> BloomFixtures.keys(
          2, 0, BloomBenchmark.PUT_BATCH * BloomBenchmark.MAX_PUT_ITERATIONS);
      default -> throw new IllegalArgumentException("no keys for " + method);
    });
  }

  @Setup(Level.Iteration)
  public void nextIteration() {
    iteration++;
  }

  @Benchmark
  @BenchmarkMode(Mode.AverageTime)
  public boolean queryPresentBytes() {
    return filter.mightContain(keys.hash(next++ & (BloomBenchmark.QUERY_POOL - 1)));
  }

  @Benchmark
  @BenchmarkMode(Mode.AverageTime)
  public boolean queryAbsentBytes() {
    return filter.mightContain(keys.hash(next++ & (BloomBenchmark.QUERY_POOL - 1)));
  }

  @Benchmark
  @BenchmarkMode(Mode.SingleShotTime)
  @OperationsPerInvocation(BloomBenchmark.PUT_BATCH)
  public int putNewBytes() {
    if (iteration >= BloomBenchmark.MAX_PUT_ITERATIONS) {
      throw new IllegalStateException("putNewBytes has fresh keys for "
          + BloomBenchmark.MAX_PUT_ITERATIONS + " iterations (-wi + -i)");
    }
    int added = 0;
    int from = iteration * BloomBenchmark.PUT_BATCH;
    for (int i = from; i < from + BloomBenchmark.PUT_BATCH; i++) {
      if (filter.put(keys.hash(i))) {
        added++;
      }
    }
    return added;
  }
}
