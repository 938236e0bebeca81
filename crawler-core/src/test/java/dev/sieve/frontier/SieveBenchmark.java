package dev.sieve.frontier;

import dev.sieve.bloom.MembershipFilter;
import dev.sieve.testing.SyntheticUrls;
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

/**
 * What exactly-once costs: {@link Sieve#push} against a bare {@code put} on the same (default,
 * blocked) filter, one thread, for URLs new to the filter and URLs already seen. push adds the
 * striped lock, the count estimate for capacity warnings and, for a new URL, the queue entry.
 */
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xmx4g", "-XX:+UseTransparentHugePages"})
@State(Scope.Benchmark)
public class SieveBenchmark {
  private static final int POOL = 1 << 18;
  private static final int MAX_ITERATIONS = 8;

  @Param({"1000000"})
  public long n;

  @Param({"0.01"})
  public double fpp;

  private SieveQueue sieve;
  private MembershipFilter filter;
  private String[] seen;
  private String[] fresh;
  private int next;
  private int iteration = -1;

  @Setup(Level.Trial)
  public void setUp() {
    sieve = SieveQueue.create(n, fpp);
    filter = Sieve.defaultFilter(n, fpp);
    for (long i = 0; i < n; i++) {
      String url = SyntheticUrls.url(0, i);
      sieve.push(url);
      filter.put(url);
    }
    while (sieve.pop().isPresent()) {
      // drain: the queue's size is not what is measured
    }
    seen = new String[POOL];
    for (int i = 0; i < POOL; i++) {
      seen[i] = SyntheticUrls.url(0, i * (n / POOL));
    }
    fresh = new String[POOL * MAX_ITERATIONS];
    for (int i = 0; i < fresh.length; i++) {
      fresh[i] = SyntheticUrls.url(2, i);
    }
  }

  @Setup(Level.Iteration)
  public void nextIteration() {
    if (++iteration >= MAX_ITERATIONS) {
      throw new IllegalStateException("fresh URLs for " + MAX_ITERATIONS + " iterations only");
    }
    while (sieve.pop().isPresent()) {
      // keep the queue from growing across iterations
    }
  }

  @Benchmark
  @BenchmarkMode(Mode.AverageTime)
  public boolean pushSeen() {
    return sieve.push(seen[next++ & (POOL - 1)]);
  }

  @Benchmark
  @BenchmarkMode(Mode.AverageTime)
  public boolean putSeen() {
    return filter.put(seen[next++ & (POOL - 1)]);
  }

  @Benchmark
  @BenchmarkMode(Mode.SingleShotTime)
  @OperationsPerInvocation(POOL)
  public int pushNew() {
    int added = 0;
    for (int i = iteration * POOL; i < (iteration + 1) * POOL; i++) {
      if (sieve.push(fresh[i])) {
        added++;
      }
    }
    return added;
  }

  @Benchmark
  @BenchmarkMode(Mode.SingleShotTime)
  @OperationsPerInvocation(POOL)
  public int putNew() {
    int added = 0;
    for (int i = iteration * POOL; i < (iteration + 1) * POOL; i++) {
      if (filter.put(fresh[i])) {
        added++;
      }
    }
    return added;
  }
}
