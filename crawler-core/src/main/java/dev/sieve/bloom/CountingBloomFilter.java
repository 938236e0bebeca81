package dev.sieve.bloom;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Locale;
import java.util.concurrent.atomic.LongAdder;

/**
 * A counting Bloom filter (Fan, Cao, Almeida &amp; Broder 2000): the classic filter with a 4-bit
 * counter in place of each bit, so that keys can be removed.
 *
 * <h2>The maths</h2>
 *
 * Sized as {@link BloomFilter}: {@code m} counters and {@code k} hashes for {@code n} keys at rate
 * {@code ε} ({@link FilterSizing#classic}), probed at the same positions, so it answers as a
 * classic filter of {@code m} bits holding the same keys; it takes {@code 4m} bits. With {@code X}
 * counters non-zero, the count of keys held is estimated by {@code −(m/k)·ln(1 − X/m)} and the
 * rate by {@code (X/m)^k}, as for the classic filter. Four bits suffice: at the optimal {@code k}
 * a counter exceeds 15 with probability below {@code 1.37·10⁻¹⁵·m} (Fan et al. 2000).
 *
 * <h2>Put and remove</h2>
 *
 * <ul>
 *   <li>{@link #put} stores a key only when it reports it new (some counter was 0): it then
 *       increments each of the key's {@code k} counters. A put that returns false stores nothing,
 *       so a key pushed many times, as the Sieve pushes popular URLs, still needs one {@link
 *       #remove}. The filter is a set, not a multiset.
 *   <li>{@link #remove} of a key that is definitely absent (some counter 0) returns false and
 *       changes nothing; otherwise it decrements the key's counters and returns true.
 *   <li>Counters saturate at 15: a counter at 15 is never incremented further nor decremented
 *       again, so it can only over-report, never lose a key.
 *   <li>While callers remove only keys whose {@code put} returned true, once per such put, no
 *       removal makes any other stored key a false negative: each counter stays at least the
 *       number of stored keys that hash to it, or stays at 15.
 *   <li>Removing a key that was never stored but tests positive (a false positive, probability
 *       about {@link #expectedFpp()}) decrements counters that stored keys own, and can turn them
 *       into false negatives. No filter of this kind can tell that case apart; callers must only
 *       remove what they stored. Likewise a key whose put returned false was not stored: removing
 *       a key it collided with can make it read absent again.
 * </ul>
 *
 * <h2>Thread safety</h2>
 *
 * All methods may be called from many threads at once: each counter changes by a compare-and-set
 * on its 64-bit word (16 counters a word). {@link #put} and {@link #remove} are not atomic per key
 * across its {@code k} counters: two threads putting the same key at once may both see true and
 * both increment (the key then needs two removes to vanish; never a false negative). Callers that
 * need exactly-once, like the Sieve, lock per key.
 */
public final class CountingBloomFilter implements MembershipFilter {
  /** The value at which a counter sticks. */
  static final int SATURATED = 15;

  /** Sixteen 4-bit counters per word. */
  static final long MAX_COUNTERS = FilterWords.MAX_WORDS * 16;

  private static final VarHandle WORDS = MethodHandles.arrayElementVarHandle(long[].class);
  private static final long LOW_BIT_OF_EACH_COUNTER = 0x1111_1111_1111_1111L;

  private final long[] words;
  private final long counters;
  private final int hashes;
  private final long expectedInsertions;
  private final LongAdder nonZero = new LongAdder();

  private static final TableHeader.Format FORMAT = new TableHeader.Format(Layout.COUNTING,
      "counting filter", "m", "counter count", "non-zero count", "counters non-zero",
      MAX_COUNTERS, 255, 1);

  private CountingBloomFilter(long counters, int hashes, long expectedInsertions) {
    this.counters = counters;
    this.hashes = hashes;
    this.expectedInsertions = expectedInsertions;
    this.words = FilterWords.allocate(counters * 4, "counters (" + counters + ")");
  }

  /** An empty table of a header read, whose words are read next; counts its non-zero counters. */
  private CountingBloomFilter(TableHeader header) {
    this(header.size(), header.hashes(), header.expected());
    nonZero.add(header.setCount());
  }

  /**
   * Creates a filter sized for {@code expectedInsertions} keys at {@code falsePositiveRate}: as
   * many counters as a classic filter has bits.
   *
   * @throws IllegalArgumentException if {@code expectedInsertions ≤ 0}, the rate is not in (0, 1),
   *     or the filter would be too large to allocate
   */
  public static CountingBloomFilter create(long expectedInsertions, double falsePositiveRate) {
    long counters = BloomFilter.optimalBits(expectedInsertions, falsePositiveRate);
    checkCounters(counters);
    return new CountingBloomFilter(
        counters, BloomFilter.optimalHashes(expectedInsertions, counters), expectedInsertions);
  }

  /**
   * Creates a filter of exactly {@code counters} counters probed by {@code hashes} hash functions.
   * Its expected insertions are taken as the count at which {@code hashes} is optimal.
   */
  public static CountingBloomFilter create(long counters, int hashes) {
    checkCounters(counters);
    if (hashes < 1 || hashes > 255) {
      throw new IllegalArgumentException("hashes (" + hashes + ") must be in [1, 255]");
    }
    long expected = Math.max(1, Math.round(counters * Math.log(2) / hashes));
    return new CountingBloomFilter(counters, hashes, expected);
  }

  /**
   * Adds the key with this hash if it is definitely absent.
   *
   * @return true if the key was definitely absent and is now stored; false if it might have been
   *     present already, in which case nothing changed
   */
  @Override
  public boolean put(Hash128 hash) {
    if (mightContain(hash)) {
      return false;
    }
    long index = BloomFilter.index(hash.h1(), counters);
    long step = BloomFilter.index(hash.h2(), counters);
    for (int i = 0; i < hashes; i++) {
      increment(index);
      index = BloomFilter.nextIndex(index, step, counters);
      step = BloomFilter.nextStep(step, i, counters);
    }
    return true;
  }

  @Override
  public boolean mightContain(Hash128 hash) {
    long index = BloomFilter.index(hash.h1(), counters);
    long step = BloomFilter.index(hash.h2(), counters);
    for (int i = 0; i < hashes; i++) {
      if (counter(index) == 0) {
        return false;
      }
      index = BloomFilter.nextIndex(index, step, counters);
      step = BloomFilter.nextStep(step, i, counters);
    }
    return true;
  }

  /**
   * Removes a key stored by {@link #put}; see the class comment for what is safe to remove.
   *
   * @return true if the key tested present and its counters were decremented (saturated ones
   *     excepted); false if it was definitely absent, in which case nothing changed
   */
  public boolean remove(Hash128 hash) {
    if (!mightContain(hash)) {
      return false;
    }
    long index = BloomFilter.index(hash.h1(), counters);
    long step = BloomFilter.index(hash.h2(), counters);
    for (int i = 0; i < hashes; i++) {
      decrement(index);
      index = BloomFilter.nextIndex(index, step, counters);
      step = BloomFilter.nextStep(step, i, counters);
    }
    return true;
  }

  /** Removes {@code key}; see {@link #remove(Hash128)}. */
  public boolean remove(CharSequence key) {
    return remove(Hash128.of(key));
  }

  /** The value of counter {@code index}, in [0, 15]. */
  int counter(long index) {
    long word = (long) WORDS.getOpaque(words, (int) (index >>> 4));
    return (int) (word >>> shift(index)) & 0xf;
  }

  private static int shift(long index) {
    return (int) (index & 15) << 2;
  }

  /** Adds one to the counter unless it is saturated. */
  private void increment(long index) {
    int at = (int) (index >>> 4);
    int shift = shift(index);
    while (true) {
      long word = (long) WORDS.getVolatile(words, at);
      long count = (word >>> shift) & 0xf;
      if (count == SATURATED) {
        return;
      }
      if (WORDS.compareAndSet(words, at, word, word + (1L << shift))) {
        if (count == 0) {
          nonZero.increment();
        }
        return;
      }
    }
  }

  /** Takes one from the counter unless it is 0 or saturated. */
  private void decrement(long index) {
    int at = (int) (index >>> 4);
    int shift = shift(index);
    while (true) {
      long word = (long) WORDS.getVolatile(words, at);
      long count = (word >>> shift) & 0xf;
      if (count == 0 || count == SATURATED) {
        return;
      }
      if (WORDS.compareAndSet(words, at, word, word - (1L << shift))) {
        if (count == 1) {
          nonZero.decrement();
        }
        return;
      }
    }
  }

  /** The number of counters (m). */
  public long counterCount() {
    return counters;
  }

  /** The number of hash functions (k). */
  public int hashCount() {
    return hashes;
  }

  /** The number of non-zero counters (X), exact once concurrent puts and removes have returned. */
  public long nonZeroCounterCount() {
    return nonZero.sum();
  }

  /** The table size: 4 bits per counter. */
  @Override
  public long bitSize() {
    return counters * 4;
  }

  @Override
  public long expectedInsertions() {
    return expectedInsertions;
  }

  /** The estimated number of keys stored: {@code −(m/k)·ln(1 − X/m)}. */
  @Override
  public long approximateElementCount() {
    return BloomFilter.estimateCount(nonZeroCounterCount(), counters, hashes);
  }

  /** The probability that a key never put is reported present now: {@code (X/m)^k}. */
  @Override
  public double expectedFpp() {
    return Math.pow((double) nonZeroCounterCount() / counters, hashes);
  }

  /**
   * Writes the filter: the preamble, a header (hash id, m, k, n, X), the counter words and their
   * CRC32C. Not atomic with respect to concurrent puts and removes: quiesce writers first.
   */
  @Override
  public void writeTo(OutputStream out) throws IOException {
    FORMAT.write(
        out, new TableHeader(counters, hashes, expectedInsertions, nonZeroCounterCount()), words);
  }

  /** Reads what follows the preamble of a counting filter. */
  static CountingBloomFilter readBody(DataInputStream data) throws IOException {
    return FORMAT.read(data, CountingBloomFilter::new, filter -> filter.words, words -> {
      long counted = 0;
      for (long word : words) {
        counted += nonZeroNibbles(word);
      }
      return counted;
    });
  }

  /** The number of non-zero 4-bit counters in {@code word}. */
  static int nonZeroNibbles(long word) {
    long any = word | (word >>> 1) | (word >>> 2) | (word >>> 3);
    return Long.bitCount(any & LOW_BIT_OF_EACH_COUNTER);
  }

  private static void checkCounters(long counters) {
    if (counters <= 0 || counters > MAX_COUNTERS) {
      throw new IllegalArgumentException(
          "counters (" + counters + ") must be in [1, " + MAX_COUNTERS + "]");
    }
  }

  @Override
  public String toString() {
    return String.format(
        Locale.ROOT,
        "CountingBloomFilter{m=%d, k=%d, n=%d, nonZero=%d}",
        counters,
        hashes,
        expectedInsertions,
        nonZeroCounterCount());
  }
}
