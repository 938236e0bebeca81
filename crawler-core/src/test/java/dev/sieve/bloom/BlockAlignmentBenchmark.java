package dev.sieve.bloom;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Does 64-byte alignment of the blocks matter? The blocked filter's probe loop (k = 6, 512-bit
 * blocks, 128 MiB: a filter for 10⁸ keys at 1%) over three stores: the on-heap {@code long[]} the
 * filter uses (8-byte aligned, so most blocks straddle two cache lines), an off-heap buffer aligned
 * to 64 bytes ({@link ByteBuffer#alignedSlice}), and the same buffer misaligned by 16 bytes, as a
 * heap array's elements usually are. Hashes are random longs, so only memory access is timed.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xmx2g", "-XX:MaxDirectMemorySize=1g"})
@State(Scope.Benchmark)
public class BlockAlignmentBenchmark {
  private static final int HASHES = 6;
  private static final int POOL = 1 << 20;
  private static final long BLOCKS = (128L << 20) / 64;
  private static final VarHandle HEAP = MethodHandles.arrayElementVarHandle(long[].class);
  private static final VarHandle DIRECT =
      MethodHandles.byteBufferViewVarHandle(long[].class, ByteOrder.nativeOrder());

  @Param({"heap", "directAligned", "directMisaligned"})
  public String layout;

  private long[] heap;
  private ByteBuffer direct;
  private final long[] presentH1 = new long[POOL];
  private final long[] presentH2 = new long[POOL];
  private final SplittableRandom random = new SplittableRandom(7);
  private int next;

  @Setup
  public void setUp() {
    if (layout.equals("heap")) {
      heap = new long[(int) (BLOCKS * 8)];
    } else {
      ByteBuffer raw = ByteBuffer.allocateDirect((int) (BLOCKS * 64) + 128);
      ByteBuffer aligned = raw.alignedSlice(64);
      direct = layout.equals("directAligned")
          ? aligned
          : aligned.position(16).slice();
      direct.order(ByteOrder.nativeOrder());
    }
    for (int i = 0; i < POOL; i++) {
      presentH1[i] = random.nextLong();
      presentH2[i] = random.nextLong();
      put(presentH1[i], presentH2[i]);
    }
  }

  @Benchmark
  public boolean queryPresent() {
    int i = next++ & (POOL - 1);
    return mightContain(presentH1[i], presentH2[i]);
  }

  @Benchmark
  public boolean putNew() {
    return put(random.nextLong(), random.nextLong());
  }

  private boolean mightContain(long h1, long h2) {
    int base = (int) (BloomFilter.index(h1, BLOCKS) * 8);
    for (int i = 0; i < HASHES; i++) {
      int bit = (int) (h2 >>> 55);
      h2 <<= 9;
      if ((load(base + (bit >>> 6)) & (1L << bit)) == 0) {
        return false;
      }
    }
    return true;
  }

  private boolean put(long h1, long h2) {
    int base = (int) (BloomFilter.index(h1, BLOCKS) * 8);
    long missing = 0;
    long slices = h2;
    for (int i = 0; i < HASHES; i++) {
      int bit = (int) (slices >>> 55);
      slices <<= 9;
      missing |= ~load(base + (bit >>> 6)) & (1L << bit);
    }
    if (missing == 0) {
      return false;
    }
    int flipped = 0;
    for (int i = 0; i < HASHES; i++) {
      int bit = (int) (h2 >>> 55);
      h2 <<= 9;
      long mask = 1L << bit;
      if ((load(base + (bit >>> 6)) & mask) == 0 && (or(base + (bit >>> 6), mask) & mask) == 0) {
        flipped++;
      }
    }
    return flipped > 0;
  }

  private long load(int word) {
    return heap != null
        ? (long) HEAP.getOpaque(heap, word)
        : (long) DIRECT.getOpaque(direct, word << 3);
  }

  private long or(int word, long mask) {
    return heap != null
        ? (long) HEAP.getAndBitwiseOr(heap, word, mask)
        : (long) DIRECT.getAndBitwiseOr(direct, word << 3, mask);
  }
}
