package dev.sieve.bloom;

import java.util.Locale;

/**
 * How large each member of the filter family must be for {@code n} keys at a false-positive rate
 * {@code ε}, to compare them before building one.
 *
 * <h2>The maths</h2>
 *
 * <ul>
 *   <li><b>Classic</b> (Bloom 1970): {@code m = ⌈−n·ln ε / (ln 2)²⌉} bits and {@code k = max(1,
 *       round((m/n)·ln 2))} hashes, about {@code 1.44·log2(1/ε)} bits per key; after {@code n}
 *       keys the rate is {@code (1 − e^(−kn/m))^k} ({@link #fppAt}). The counting filter uses the
 *       same {@code m} (as counters) and {@code k}.
 *   <li><b>Fewest hashes</b> (as ClickHouse sizes its bloom-filter indexes): with whole bits per
 *       key {@code c = 1, 2, 3, …}, the smallest {@code c} for which some {@code k ≤ 30} meets
 *       {@code ε}, then the smallest such {@code k}. The whole-bit step leaves slack that a
 *       smaller {@code k} can use: fewer memory accesses per key for at most one bit per key more
 *       than the classic optimum.
 *   <li><b>Cuckoo</b> (Fan, Andersen, Kaminsky &amp; Mitzenmacher 2014): a query compares its
 *       fingerprint with the at most {@code 2b} held in its two buckets of {@code b = 4}, so the
 *       rate is at most {@code 2b/2^f} and {@code f = ⌈log2(2b/ε)⌉ = ⌈log2(1/ε) + 3⌉} bits
 *       suffice (capped at {@value #MAX_FINGERPRINT_BITS}). The bucket count is the power of two
 *       that holds {@code n} at a load of at most {@value #CUCKOO_MAX_LOAD}, the load a random-walk
 *       insertion with 500 kicks reliably reaches at {@code b = 4}.
 *   <li><b>Lower bound</b> (Carter, Floyd, Gill, Markowsky &amp; Wegman 1978): any structure
 *       answering with rate {@code ε} needs at least {@code log2(1/ε)} bits per key.
 * </ul>
 *
 * <p>The cache-blocked filter's plan ({@link #blocked}) is derived in {@link BlockedBloomFilter}.
 */
public final class FilterSizing {
  /** Slots per cuckoo bucket (b). */
  public static final int CUCKOO_BUCKET_SIZE = 4;

  /** The load a cuckoo table is sized for at its expected insertions. */
  public static final double CUCKOO_MAX_LOAD = 0.95;

  /** The widest cuckoo fingerprint stored. */
  public static final int MAX_FINGERPRINT_BITS = 32;

  /** The most hash functions {@link #fewestHashes} considers. */
  static final int FEWEST_HASHES_MAX_K = 30;

  private FilterSizing() {}

  /**
   * A plan for a Bloom-type filter.
   *
   * @param structure which sizing rule made it, e.g. {@code "classic"}
   * @param bits the table size, m
   * @param hashes the hash functions per key, k
   * @param bitsPerKey {@code m/n}
   * @param fpp the false-positive rate after {@code n} keys, {@code (1 − e^(−kn/m))^k}
   */
  public record Plan(String structure, long bits, int hashes, double bitsPerKey, double fpp) {}

  /**
   * A plan for a cuckoo filter.
   *
   * @param fingerprintBits f
   * @param buckets the bucket count, a power of two
   * @param bits the table size, {@code buckets · 4 · f}
   * @param bitsPerKey {@code bits/n}
   * @param fpp the rate bound {@code 2b/2^f} of a full table; above the target only when {@code
   *     f} was capped
   */
  public record CuckooPlan(
      int fingerprintBits, long buckets, long bits, double bitsPerKey, double fpp) {}

  /** The classic optimum, as {@link BloomFilter#create(long, double)} sizes a filter. */
  public static Plan classic(long n, double fpp) {
    long bits = BloomFilter.optimalBits(n, fpp);
    int hashes = BloomFilter.optimalHashes(n, bits);
    return new Plan("classic", bits, hashes, (double) bits / n, fppAt(bits, hashes, n));
  }

  /** The cache-blocked filter, as {@link BlockedBloomFilter#create(long, double)} sizes one. */
  public static Plan blocked(long n, double fpp) {
    long[] plan = BlockedFpr.plan(n, fpp);
    long bits = plan[0] * BlockedBloomFilter.BLOCK_BITS;
    int hashes = (int) plan[1];
    return new Plan("blocked", bits, hashes, (double) bits / n,
        BlockedBloomFilter.falsePositiveRate(n, bits, hashes));
  }

  /**
   * The cuckoo table, as {@link CuckooFilter#create} sizes one: {@code f = ⌈log2(2b/ε)⌉} capped
   * at {@value #MAX_FINGERPRINT_BITS}, and the fewest power-of-two buckets holding {@code n} at
   * load {@value #CUCKOO_MAX_LOAD}.
   *
   * @throws IllegalArgumentException if {@code n ≤ 0}, the rate is not in (0, 1), or the table
   *     would exceed what one array can hold
   */
  public static CuckooPlan cuckoo(long n, double fpp) {
    checkInsertions(n);
    checkRate(fpp);
    // The smallest f with 2b/2^f ≤ ε, found exactly rather than through a rounded logarithm.
    int f = 1;
    while (f < MAX_FINGERPRINT_BITS && Math.scalb(2.0 * CUCKOO_BUCKET_SIZE, -f) > fpp) {
      f++;
    }
    long wanted = (long) Math.ceil(n / (CUCKOO_BUCKET_SIZE * CUCKOO_MAX_LOAD));
    long buckets = Long.highestOneBit(Math.max(1, wanted));
    if (buckets < wanted) {
      buckets <<= 1;
    }
    long maxBits = FilterWords.MAX_WORDS * Long.SIZE;
    if (buckets <= 0 || buckets > maxBits / ((long) CUCKOO_BUCKET_SIZE * f)) {
      throw new IllegalArgumentException(
          String.format(
              Locale.ROOT,
              "expectedInsertions (%d) at falsePositiveRate (%s) needs more than the %d bits one"
                  + " cuckoo table can hold",
              n,
              fpp,
              maxBits));
    }
    long bits = buckets * CUCKOO_BUCKET_SIZE * f;
    return new CuckooPlan(
        f, buckets, bits, (double) bits / n, Math.scalb(2.0 * CUCKOO_BUCKET_SIZE, -f));
  }

  /**
   * The fewest bits per key, in whole steps, for which some {@code k ≤ 30} meets {@code fpp}, and
   * the fewest hashes that meet it there.
   *
   * @throws IllegalArgumentException if {@code n ≤ 0}, the rate is not in (0, 1), or no plan
   *     within {@link BloomFilter}'s size limit meets it
   */
  public static Plan fewestHashes(long n, double fpp) {
    checkInsertions(n);
    checkRate(fpp);
    double maxBitsPerKey = (double) BloomFilter.MAX_BITS / n;
    for (int bitsPerKey = 1; bitsPerKey <= maxBitsPerKey; bitsPerKey++) {
      long bits = (long) bitsPerKey * n;
      for (int k = 1; k <= FEWEST_HASHES_MAX_K; k++) {
        double rate = fppAt(bits, k, n);
        if (rate <= fpp) {
          return new Plan("fewest-hashes", bits, k, bitsPerKey, rate);
        }
      }
    }
    throw new IllegalArgumentException(
        "expectedInsertions (" + n + ") at falsePositiveRate (" + fpp + ") cannot be met with at"
            + " most " + FEWEST_HASHES_MAX_K + " hashes in one filter");
  }

  /** The least bits per key any filter answering at rate {@code fpp} can use: {@code log2(1/ε)}. */
  public static double informationTheoreticMinimumBitsPerKey(double fpp) {
    checkRate(fpp);
    return -Math.log(fpp) / Math.log(2);
  }

  /**
   * The false-positive rate of a classic filter of {@code bits} bits and {@code k} hashes after
   * {@code n} distinct keys, {@code (1 − e^(−kn/m))^k}; for example at 1.5× or 2× the keys it was
   * sized for.
   *
   * @throws IllegalArgumentException if {@code bits ≤ 0}, {@code k < 1} or {@code n < 0}
   */
  public static double fppAt(long bits, int k, long n) {
    if (bits <= 0) {
      throw new IllegalArgumentException("bits (" + bits + ") must be > 0");
    }
    if (k < 1) {
      throw new IllegalArgumentException("k (" + k + ") must be >= 1");
    }
    if (n < 0) {
      throw new IllegalArgumentException("n (" + n + ") must be >= 0");
    }
    return Math.pow(-Math.expm1(-(double) k * n / bits), k);
  }

  static void checkInsertions(long n) {
    if (n <= 0) {
      throw new IllegalArgumentException("expectedInsertions (" + n + ") must be > 0");
    }
  }

  /** Refuses a plan of {@code bits} bits for n keys at ε when one filter holds at most {@code max}. */
  static void checkFits(long n, double fpp, double bits, long max) {
    if (bits > max) {
      throw new IllegalArgumentException(
          String.format(
              Locale.ROOT,
              "expectedInsertions (%d) at falsePositiveRate (%s) needs %.0f bits, more than the"
                  + " %d one filter can hold",
              n,
              fpp,
              bits,
              max));
    }
  }

  static void checkRate(double fpp) {
    if (!(fpp > 0 && fpp < 1)) {
      throw new IllegalArgumentException("falsePositiveRate (" + fpp + ") must be in (0, 1)");
    }
  }
}
