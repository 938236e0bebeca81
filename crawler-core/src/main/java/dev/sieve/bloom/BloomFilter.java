package dev.sieve.bloom;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Locale;
import java.util.concurrent.atomic.LongAdder;

/**
 * The classic Bloom filter (Bloom 1970): a set that answers "definitely not present" or "might be
 * present", with exact tracking of how many bits are set.
 *
 * <h2>The maths</h2>
 *
 * For {@code n} expected insertions and a target false-positive rate {@code ε}, the optimal number
 * of bits is {@code m = ⌈−n·ln ε / (ln 2)²⌉} and of hash functions {@code k = max(1, round((m/n)·ln
 * 2))}. With {@code X} bits set the number of distinct keys inserted is estimated by {@code n̂ =
 * −(m/k)·ln(1 − X/m)} (Swamidass &amp; Baldi 2007) and the current false-positive rate by {@code
 * (X/m)^k}. The k bit positions come from one 128-bit hash ({@link Hash128}): each half mapped
 * into {@code [0, m)} by multiply-high (Lemire 2019) rather than a division, then combined by
 * enhanced double hashing (Kirsch &amp; Mitzenmacher 2006; Dillinger &amp; Manolios 2004) mod m.
 *
 * <h2>Thread safety</h2>
 *
 * All methods may be called from many threads at once without external locking: bits are set with
 * an atomic OR per 64-bit word, and {@link #setBitCount()} is exact once concurrent puts have
 * returned. {@link #put} reports whether <em>this</em> call flipped a bit; two threads putting the
 * same key at once may both see {@code true} (callers that need exactly-once, like the Sieve, lock
 * per key).
 */
public final class BloomFilter implements MembershipFilter {
  /** Identifies the hash and index scheme in the serialized form: Murmur3 x64_128, enhanced DH. */
  public static final int HASH_ID = 2;

  /** Java arrays hold at most about 2³¹ elements; 2³¹ − 16 words of 64 bits. */
  static final long MAX_BITS = (Integer.MAX_VALUE - 16L) * Long.SIZE;

  private static final VarHandle WORDS = MethodHandles.arrayElementVarHandle(long[].class);
  private static final double LN2_SQUARED = Math.log(2) * Math.log(2);

  private final long[] words;
  private final long bits;
  private final int hashes;
  private final long expectedInsertions;
  private final LongAdder setBits = new LongAdder();

  private static final TableHeader.Format FORMAT = new TableHeader.Format(Layout.CLASSIC,
      "Bloom filter", "m", "bit count", "set-bit count", "bits set", MAX_BITS, 255, 1);

  private BloomFilter(long bits, int hashes, long expectedInsertions) {
    this.bits = bits;
    this.hashes = hashes;
    this.expectedInsertions = expectedInsertions;
    this.words = FilterWords.allocate(bits, "bits (" + bits + ")");
  }

  /** An empty table of a header read, whose words are read next; counts its set bits. */
  private BloomFilter(TableHeader header) {
    this(header.size(), header.hashes(), header.expected());
    setBits.add(header.setCount());
  }

  /**
   * Creates a filter sized for {@code expectedInsertions} keys at {@code falsePositiveRate}.
   *
   * @throws IllegalArgumentException if {@code expectedInsertions ≤ 0}, the rate is not in (0, 1),
   *     or the filter would be too large to allocate
   */
  public static BloomFilter create(long expectedInsertions, double falsePositiveRate) {
    long bits = optimalBits(expectedInsertions, falsePositiveRate);
    return new BloomFilter(bits, optimalHashes(expectedInsertions, bits), expectedInsertions);
  }

  /**
   * Creates a filter of exactly {@code bits} bits probed by {@code hashes} hash functions. Its
   * expected insertions are taken as the count at which {@code hashes} is optimal.
   */
  public static BloomFilter create(long bits, int hashes) {
    checkBits(bits);
    if (hashes < 1 || hashes > 255) {
      throw new IllegalArgumentException("hashes (" + hashes + ") must be in [1, 255]");
    }
    long expected = Math.max(1, Math.round(bits * Math.log(2) / hashes));
    return new BloomFilter(bits, hashes, expected);
  }

  /**
   * Reads a filter written by {@link #writeTo}.
   *
   * @throws IOException if the stream is not a Sieve filter, has another format version or hash,
   *     is truncated, or fails its checksum; the message says which
   */
  public static BloomFilter readFrom(InputStream in) throws IOException {
    return FilterFormat.readAs(in, BloomFilter.class, "classic Bloom filter");
  }

  /** Reads what follows the preamble of a classic filter. */
  static BloomFilter readBody(DataInputStream data) throws IOException {
    return FORMAT.read(data, BloomFilter::new, filter -> filter.words, FilterWords::popCount);
  }

  private static void checkBits(long bits) {
    if (bits <= 0 || bits > MAX_BITS) {
      throw new IllegalArgumentException("bits (" + bits + ") must be in [1, " + MAX_BITS + "]");
    }
  }

  /** The optimal bit count {@code ⌈−n·ln ε / (ln 2)²⌉} for {@code n} keys at rate {@code ε}. */
  public static long optimalBits(long expectedInsertions, double falsePositiveRate) {
    FilterSizing.checkInsertions(expectedInsertions);
    FilterSizing.checkRate(falsePositiveRate);
    double bits = Math.ceil(-expectedInsertions * Math.log(falsePositiveRate) / LN2_SQUARED);
    FilterSizing.checkFits(expectedInsertions, falsePositiveRate, bits, MAX_BITS);
    return (long) bits;
  }

  /** The optimal hash count {@code max(1, round((m/n)·ln 2))}. */
  public static int optimalHashes(long expectedInsertions, long bits) {
    FilterSizing.checkInsertions(expectedInsertions);
    checkBits(bits);
    return (int) Math.min(255, Math.max(1, Math.round((double) bits / expectedInsertions * Math.log(2))));
  }

  /**
   * Adds the key whose hash is {@code hash}.
   *
   * @return true if the key was definitely absent before (this call flipped at least one bit);
   *     false if it might have been present already
   */
  @Override
  public boolean put(Hash128 hash) {
    // Small enough to inline, so that escape analysis can drop a Hash128 made by the caller.
    return probe(hash.h1(), hash.h2(), true);
  }

  /** True if the key whose hash is {@code hash} might have been put; false if definitely not. */
  @Override
  public boolean mightContain(Hash128 hash) {
    return probe(hash.h1(), hash.h2(), false);
  }

  // The key overloads hash into this thread's pair, not a Hash128: the interface's defaults would
  // allocate one per call where the JIT does not inline Hash128.of (32 B/op in BloomBenchmark).

  /** Adds {@code key}; see {@link #put(Hash128)}. */
  @Override
  public boolean put(CharSequence key) {
    long[] hash = Hash128.utf8(key);
    return probe(hash[0], hash[1], true);
  }

  /** True if {@code key} might have been put; false if it definitely was not. */
  @Override
  public boolean mightContain(CharSequence key) {
    long[] hash = Hash128.utf8(key);
    return probe(hash[0], hash[1], false);
  }

  /**
   * Walks the k bit positions of the key hashed to (h1, h2). Putting ({@code set}) sets each one
   * and returns true if it flipped any; querying returns false at the first clear bit, else true.
   * Each caller passes a constant, so that once inlined the JIT keeps only its own loop.
   */
  private boolean probe(long h1, long h2, boolean set) {
    int flipped = 0;
    long index = index(h1, bits);
    long step = index(h2, bits);
    for (int i = 0; i < hashes; i++) {
      long mask = 1L << index;
      int word = (int) (index >>> 6);
      if (set) {
        if (((long) WORDS.getAndBitwiseOr(words, word, mask) & mask) == 0) {
          flipped++;
        }
      } else if (((long) WORDS.getOpaque(words, word) & mask) == 0) {
        return false;
      }
      index = nextIndex(index, step, bits);
      step = nextStep(step, i, bits);
    }
    if (flipped > 0) {
      setBits.add(flipped);
    }
    return !set || flipped > 0;
  }

  /**
   * Enhanced double hashing in index space (Dillinger &amp; Manolios 2004): the i-th index is
   * {@code a + i·b + (i³ − i)/6 mod m}, stepped by additions. Working mod m rather than in 64-bit
   * space keeps the k indices apart even when {@code h2} is small, which would otherwise collapse
   * them onto one bit in small filters.
   */
  static long nextIndex(long index, long step, long bits) {
    long next = index + step;
    return next >= bits ? next - bits : next;
  }

  /** The step of {@link #nextIndex} after probe {@code i}, mod {@code bits}. */
  static long nextStep(long step, int i, long bits) {
    long next = step + i;
    return next >= bits ? next % bits : next;
  }

  /** Maps a 64-bit value uniformly into [0, bits): the high word of the unsigned product. */
  static long index(long x, long bits) {
    return Math.multiplyHigh(x, bits) + ((x >> 63) & bits);
  }

  /** The number of bits set (X), exact once concurrent puts have returned. */
  public long setBitCount() {
    return setBits.sum();
  }

  /** The number of bits (m). */
  @Override
  public long bitSize() {
    return bits;
  }

  /** The number of hash functions (k). */
  public int hashCount() {
    return hashes;
  }

  /** The number of keys the filter was sized for (n). */
  @Override
  public long expectedInsertions() {
    return expectedInsertions;
  }

  /** The estimated number of distinct keys put: {@code −(m/k)·ln(1 − X/m)}. */
  @Override
  public long approximateElementCount() {
    return estimateCount(setBitCount(), bits, hashes);
  }

  /** The probability that a key never put is reported present now: {@code (X/m)^k}. */
  @Override
  public double expectedFpp() {
    return Math.pow((double) setBitCount() / bits, hashes);
  }

  /** The estimate {@code −(m/k)·ln(1 − X/m)}; {@link Long#MAX_VALUE} when every bit is set. */
  static long estimateCount(long setBits, long bits, int hashes) {
    if (setBits >= bits) {
      return Long.MAX_VALUE;
    }
    double estimate = -((double) bits / hashes) * Math.log1p(-(double) setBits / bits);
    return Math.round(estimate);
  }

  /**
   * Writes the filter: a header (magic, format version, layout, hash id, m, k, n, X), the bit
   * words, and a CRC32C of the words. Not atomic with respect to concurrent puts: quiesce writers
   * first for an exact snapshot.
   */
  @Override
  public void writeTo(OutputStream out) throws IOException {
    FORMAT.write(out, new TableHeader(bits, hashes, expectedInsertions, setBitCount()), words);
  }

  @Override
  public String toString() {
    return String.format(
        Locale.ROOT,
        "BloomFilter{m=%d, k=%d, n=%d, setBits=%d}",
        bits,
        hashes,
        expectedInsertions,
        setBitCount());
  }
}
