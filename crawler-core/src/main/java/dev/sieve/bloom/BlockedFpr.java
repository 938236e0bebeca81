package dev.sieve.bloom;

import static dev.sieve.bloom.BlockedBloomFilter.BLOCK_BITS;
import static dev.sieve.bloom.BlockedBloomFilter.MAX_BITS;
import static dev.sieve.bloom.BlockedBloomFilter.MAX_HASHES;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The false-positive rate of a {@link BlockedBloomFilter} as a function of its load, and the sizing
 * that follows from it. Off the put/query path: a filter asks here only when it is planned and
 * when its {@link BlockedBloomFilter#expectedFpp()} is read.
 *
 * <h2>The maths</h2>
 *
 * With n keys in b blocks a block's load is {@code I ~ Poisson(λ = n/b)} (PSS 2007, §3). A block
 * holding i keys has had {@code t = i·k} probes; with {@code X_t} its bits set, a new key whose k
 * probes fall in it is a false positive with probability {@code g(i) = E[(X_t/512)^k]}. We compute
 * the distribution of {@code X_t} exactly, by the occupancy recurrence {@code P(X_{t+1} = x) =
 * P(X_t = x)·x/512 + P(X_t = x−1)·(513 − x)/512}, rather than PSS's approximation {@code (1 −
 * (1−1/512)^{ik})^k}, which ignores the spread of the fill and is 1–2% optimistic here (by Jensen's
 * inequality; Bose et al. 2008 make the same point for the classic filter). Then
 *
 * <pre>    FPR(n) = Σᵢ e^{−λ}·λⁱ/i! · g(i).</pre>
 *
 * <p><b>Sizing.</b> FPR grows with λ. For each k we find by bisection the largest {@code λ_k}
 * with {@code FPR ≤ ε}, take the k with the largest {@code λ_k} (the fewest bits) and {@code b =
 * ⌈n / λ_k⌉}, so the computed FPR at n keys is at most ε.
 *
 * <p>An instance is the rate for one hash count, keeping its table of {@code g(i)}, extended on
 * demand (racy but idempotent).
 */
final class BlockedFpr {
  private static final double LN2_SQUARED = Math.log(2) * Math.log(2);
  /** Past this many expected probes per bit the fill is 1 − e⁻⁴⁰: every query is positive. */
  private static final double SATURATED_PROBES_PER_BIT = 40;

  /** {@link #bestLoad} by rate; a few hundred rates at most (a scalable filter has ≤ 64 layers). */
  private static final int BEST_LOAD_CACHED = 256;

  private static final Map<Double, double[]> BEST_LOAD = new ConcurrentHashMap<>();

  private final int hashes;
  /** {@code g(i)} for this k, i in [0, length), extended on demand; racy but idempotent. */
  private volatile double[] inBlockFpp = {0};

  BlockedFpr(int hashes) {
    this.hashes = hashes;
  }

  /** {@code FPR} at {@code load} keys per block for this hash count; caches its table. */
  double at(double load) {
    if (saturated(load, hashes)) {
      return 1;
    }
    double[] g = inBlockFpp;
    int needed = tableLength(load);
    if (g.length < needed) {
      g = inBlockFpp(hashes, Math.max(needed, 2 * g.length));
      inBlockFpp = g;
    }
    return poissonAverage(load, g);
  }

  /**
   * The fewest blocks, and the hash count, for which the rate at {@code expectedInsertions} keys
   * is at most {@code falsePositiveRate}: {@code {blocks, hashes}}.
   */
  static long[] plan(long expectedInsertions, double falsePositiveRate) {
    FilterSizing.checkInsertions(expectedInsertions);
    FilterSizing.checkRate(falsePositiveRate);
    double[] best = BEST_LOAD.get(falsePositiveRate);
    if (best == null) {
      best = bestLoad(falsePositiveRate);
      if (BEST_LOAD.size() < BEST_LOAD_CACHED) {
        BEST_LOAD.put(falsePositiveRate, best);
      }
    }
    double bestLoad = best[0];
    int bestHashes = (int) best[1];
    double blocks = Math.ceil(expectedInsertions / bestLoad);
    FilterSizing.checkFits(expectedInsertions, falsePositiveRate, blocks * BLOCK_BITS, MAX_BITS);
    return new long[] {(long) blocks, bestHashes};
  }

  /** See {@link BlockedBloomFilter#falsePositiveRate(long, long, int)}. */
  static double falsePositiveRate(long keys, long bits, int hashes) {
    if (keys < 0) {
      throw new IllegalArgumentException("keys (" + keys + ") must be ≥ 0");
    }
    if (bits < BLOCK_BITS || bits % BLOCK_BITS != 0) {
      throw new IllegalArgumentException(
          "bits (" + bits + ") must be a positive multiple of " + BLOCK_BITS);
    }
    if (hashes < 1 || hashes > MAX_HASHES) {
      throw new IllegalArgumentException(
          "hashes (" + hashes + ") must be in [1, " + MAX_HASHES + "]");
    }
    double load = (double) keys / (bits / BLOCK_BITS);
    if (saturated(load, hashes)) {
      return 1; // and no table of g(i) for thousands of keys per block
    }
    return poissonAverage(load, inBlockFpp(hashes, tableLength(load)));
  }

  private static boolean saturated(double load, int hashes) {
    return load * hashes / BLOCK_BITS > SATURATED_PROBES_PER_BIT;
  }

  /** Enough terms of {@code g} that the Poisson mass beyond them is negligible. */
  private static int tableLength(double load) {
    return (int) Math.ceil(load + 12 * Math.sqrt(load) + 30);
  }

  /**
   * {@code Σᵢ Poisson(i; λ)·g(i)}, with the mass beyond {@code g} counted as 1, so a short table
   * can only overstate the rate.
   */
  private static double poissonAverage(double load, double[] g) {
    if (load <= 0) {
      return 0;
    }
    double logLoad = Math.log(load);
    double logP = -load; // ln P(I = 0), summed in logs so that large loads do not underflow
    double sum = 0;
    double mass = 0;
    for (int i = 0; i < g.length; i++) {
      if (i > 0) {
        logP += logLoad - Math.log(i);
      }
      double p = Math.exp(logP);
      sum += p * g[i];
      mass += p;
    }
    return Math.min(1, sum + Math.max(0, 1 - mass));
  }

  /**
   * {@code g(i) = E[(X_{ik}/512)^k]} for i in [0, count): the chance that k probes hit set bits in
   * a block that has taken i keys, by the occupancy recurrence of the class doc.
   */
  static double[] inBlockFpp(int hashes, int count) {
    double[] hitAll = new double[BLOCK_BITS + 1]; // (x/512)^k
    for (int x = 0; x <= BLOCK_BITS; x++) {
      hitAll[x] = Math.pow((double) x / BLOCK_BITS, hashes);
    }
    double[] occupancy = new double[BLOCK_BITS + 1]; // P(X_t = x)
    occupancy[0] = 1;
    double[] g = new double[count];
    int top = 0; // occupancy[x] = 0 for x > top
    for (int i = 0; i < count; i++) {
      double sum = 0;
      for (int x = 0; x <= top; x++) {
        sum += occupancy[x] * hitAll[x];
      }
      g[i] = sum;
      for (int probe = 0; probe < hashes; probe++) {
        top = Math.min(BLOCK_BITS, top + 1);
        for (int x = top; x > 0; x--) {
          occupancy[x] =
              occupancy[x] * x / BLOCK_BITS + occupancy[x - 1] * (BLOCK_BITS - x + 1) / BLOCK_BITS;
        }
        occupancy[0] = 0;
      }
    }
    return g;
  }

  /**
   * The most keys per block, and the hash count that allows it, at which the rate stays within
   * {@code falsePositiveRate}: {@code {load, hashes}}. Independent of n, and some tens of
   * milliseconds to compute, so {@link #plan} keeps the answers (a scalable filter asks again for
   * each new layer).
   */
  private static double[] bestLoad(double falsePositiveRate) {
    // Blocking never beats the classic filter, so its keys per 512 bits bound the search.
    double classicLoad = BLOCK_BITS * LN2_SQUARED / -Math.log(falsePositiveRate);
    int bestHashes = 1;
    double bestLoad = 0;
    for (int k = 1; k <= MAX_HASHES; k++) {
      double load = maxLoad(k, falsePositiveRate, classicLoad);
      if (load <= bestLoad) {
        break; // the bits needed are unimodal in k
      }
      bestLoad = load;
      bestHashes = k;
    }
    return new double[] {bestLoad, bestHashes};
  }

  /** The largest load λ in (0, limit] with {@code FPR(λ) ≤ ε} for k = {@code hashes}: bisection. */
  private static double maxLoad(int hashes, double falsePositiveRate, double limit) {
    double[] g = inBlockFpp(hashes, tableLength(limit));
    double low = 0;
    double high = limit;
    for (int step = 0; step < 60 && high - low > 1e-9 * high; step++) {
      double mid = (low + high) / 2;
      if (poissonAverage(mid, g) <= falsePositiveRate) {
        low = mid;
      } else {
        high = mid;
      }
    }
    return low;
  }
}
