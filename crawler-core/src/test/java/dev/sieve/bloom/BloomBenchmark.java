package dev.sieve.bloom;

import dev.sieve.bloom.BloomFixtures.Candidate;
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
 * Our blocked and classic filters against Guava's BloomFilter (Funnels.stringFunnel(UTF_8)) and a
 * HashSet&lt;String&gt; (small n only), one thread, URL keys given as Strings.
 *
 * <ul>
 *   <li>{@code queryPresent}, {@code queryAbsent}: a filter holding n keys, queried with 2²⁰ keys it
 *       holds or not, in turn; the pool is larger than the caches, so a large filter is read from
 *       memory as in a crawl.
 *   <li>{@code putNew}: 2¹⁸ keys never put before, per single-shot iteration, into the filled
 *       filter (so the rate is that of a filter at 100–105% of capacity). At most {@value
 *       #MAX_PUT_ITERATIONS} warm-up plus measurement iterations: the fresh keys are made up front
 *       so that nothing but the puts is timed.
 * </ul>
 *
 * Every implementation runs in a JVM with {@code -XX:+UseTransparentHugePages} (the JVM backs its
 * heap with 2 MiB pages where the kernel allows): with 4 KiB pages every random access to a 10⁸
 * filter also misses the TLB, and on this VM the page walks, not the memory, then bound how many
 * misses overlap. It is what we advise for a large Sieve (docs/crash-safety.md, "Bounded memory").
 *
 * <p>Run through dev.sieve.bench.BenchMain ({@code -Dbench=bloom}), which also reports bits per URL
 * and the measured false-positive rates.
 */
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xmx6g", "-Xms2g", "-XX:+UseTransparentHugePages"})
@State(Scope.Benchmark)
public class BloomBenchmark {
  static final int QUERY_POOL = 1 << 20;
  static final int PUT_BATCH = 1 << 18;
  static final int MAX_PUT_ITERATIONS = 8;
  /** Links per page: the batch the crawler checks at once. A divisor of both pools. */
  static final int PAGE = 64;

  @Param({"blocked", "classic", "guava", "hashset"})
  public String impl;

  @Param({"1000000", "100000000"})
  public long n;

  @Param({"0.01", "0.001"})
  public double fpp;

  private Candidate candidate;
  private String[] keys;
  private int next;
  private int iteration = -1;

  @Setup(Level.Trial)
  public void setUp(BenchmarkParams params) {
    candidate = BloomFixtures.filled(BloomFixtures.impl(impl), n, fpp);
    String method = params.getBenchmark().substring(params.getBenchmark().lastIndexOf('.') + 1);
    keys = switch (method) {
      case "queryPresent" -> BloomFixtures.presentKeys(n, QUERY_POOL);
      case "queryAbsent" -> BloomFixtures.keys(1, 0, QUERY_POOL);
      case "putNew", "putNewBatched" -> BloomFixtures.keys(2, 0, PUT_BATCH * MAX_PUT_ITERATIONS);
      case "queryAbsentBatched" -> BloomFixtures.keys(1, 0, QUERY_POOL);
      case "queryPresentBatched" -> BloomFixtures.presentKeys(n, QUERY_POOL);
      default -> throw new IllegalArgumentException("no keys for " + method);
    };
  }

  @Setup(Level.Iteration)
  public void nextIteration() {
    if (++iteration >= MAX_PUT_ITERATIONS && keys.length == PUT_BATCH * MAX_PUT_ITERATIONS) {
      throw new IllegalStateException(
          "putNew has fresh keys for " + MAX_PUT_ITERATIONS + " iterations (-wi + -i)");
    }
  }

  @Benchmark
  @BenchmarkMode(Mode.AverageTime)
  public boolean queryPresent() {
    return candidate.mightContain(keys[next++ & (QUERY_POOL - 1)]);
  }

  @Benchmark
  @BenchmarkMode(Mode.AverageTime)
  public boolean queryAbsent() {
    return candidate.mightContain(keys[next++ & (QUERY_POOL - 1)]);
  }

  /** Queries a page's worth of links at once ({@value #PAGE} keys), as the crawler checks them. */
  @Benchmark
  @BenchmarkMode(Mode.AverageTime)
  @OperationsPerInvocation(PAGE)
  public int queryAbsentBatched() {
    int from = next;
    next = (next + PAGE) & (QUERY_POOL - 1);
    return candidate.mightContainAll(keys, from, PAGE);
  }

  @Benchmark
  @BenchmarkMode(Mode.AverageTime)
  @OperationsPerInvocation(PAGE)
  public int queryPresentBatched() {
    int from = next;
    next = (next + PAGE) & (QUERY_POOL - 1);
    return candidate.mightContainAll(keys, from, PAGE);
  }

  /** {@link #putNew} a page's worth of links at a time ({@value #PAGE} keys). */
  @Benchmark
  @BenchmarkMode(Mode.SingleShotTime)
  @OperationsPerInvocation(PUT_BATCH)
  public int putNewBatched() {
    int added = 0;
    int from = iteration * PUT_BATCH;
    for (int i = from; i < from + PUT_BATCH; i += PAGE) {
      added += candidate.putAll(keys, i, PAGE);
    }
    return added;
  }

  @Benchmark
  @BenchmarkMode(Mode.SingleShotTime)
  @OperationsPerInvocation(PUT_BATCH)
  public int putNew() {
    int added = 0;
    int from = iteration * PUT_BATCH;
    for (int i = from; i < from + PUT_BATCH; i++) {
      if (candidate.put(keys[i])) {
        added++;
      }
    }
    return added;
  }
}
