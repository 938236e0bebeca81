package dev.sieve.bloom;

import com.google.common.hash.HashFunction;
import com.google.common.hash.Hashing;
import dev.sieve.testing.SyntheticUrls;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import net.openhft.hashing.LongHashFunction;
import net.openhft.hashing.LongTupleHashFunction;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The cost of hashing one URL key (40–120 chars, SyntheticUrls) to 128 bits: our Murmur3 x64_128
 * against XXH3 (zero-allocation-hashing, 128 and 64 bits) and Guava, from a String and from its
 * UTF-8 bytes. Keys come from a small pool that stays in cache, so this measures the hash alone.
 * Run with {@code -prof gc} to see the bytes allocated per call.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xmx1g"})
@State(Scope.Thread)
public class Hash128Benchmark {
  private static final int POOL = 4096;
  private static final LongTupleHashFunction XX128 = LongTupleHashFunction.xx128();
  private static final LongHashFunction XX3 = LongHashFunction.xx3();
  private static final HashFunction GUAVA = Hashing.murmur3_128();

  private final String[] keys = new String[POOL];
  private final byte[][] bytes = new byte[POOL][];
  private final long[] result = XX128.newResultArray();
  private int next;

  @Setup
  public void setUp() {
    for (int i = 0; i < POOL; i++) {
      keys[i] = SyntheticUrls.url(0, i);
      bytes[i] = keys[i].getBytes(StandardCharsets.UTF_8);
    }
  }

  private int next() {
    return next = (next + 1) & (POOL - 1);
  }

  @Benchmark
  public long murmur3String() {
    Hash128 h = Hash128.of(keys[next()]);
    return h.h1() ^ h.h2();
  }

  @Benchmark
  public long murmur3Bytes() {
    byte[] key = bytes[next()];
    Hash128 h = Hash128.of(key, 0, key.length);
    return h.h1() ^ h.h2();
  }

  @Benchmark
  public long xxh3x128Bytes() {
    byte[] key = bytes[next()];
    XX128.hashBytes(key, 0, key.length, result);
    return result[0] ^ result[1];
  }

  /** The obvious way, for reference: a fresh byte[] per key. */
  @Benchmark
  public long murmur3GetBytes() {
    byte[] key = keys[next()].getBytes(StandardCharsets.UTF_8);
    Hash128 h = Hash128.of(key, 0, key.length);
    return h.h1() ^ h.h2();
  }

  private static final ThreadLocal<long[]> RESULT = ThreadLocal.withInitial(XX128::newResultArray);

  /** As Hash128 would call it: the result array from a thread-local. */
  @Benchmark
  public long xxh3x128BytesThreadLocal() {
    byte[] key = bytes[next()];
    long[] r = RESULT.get();
    XX128.hashBytes(key, 0, key.length, r);
    return r[0] ^ r[1];
  }

  @Benchmark
  public long xxh3x64Bytes() {
    byte[] key = bytes[next()];
    return XX3.hashBytes(key, 0, key.length);
  }

  @Benchmark
  public Object guavaMurmur3String() {
    return GUAVA.hashString(keys[next()], StandardCharsets.UTF_8);
  }
}
