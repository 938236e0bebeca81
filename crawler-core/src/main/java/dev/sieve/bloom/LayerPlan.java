package dev.sieve.bloom;

import dev.sieve.bloom.MembershipFilter.Layout;

/**
 * What each layer of a {@link ScalableBloomFilter} is: layer {@code i} (from 0) holds {@code
 * n₀·s^i} keys at rate {@code ε·(1 − r)·r^i}, as a classic or a blocked filter. Checked by the
 * filter's builder.
 *
 * @param initialCapacity n₀
 * @param falsePositiveRate ε, the rate the whole stack keeps under
 * @param growth s
 * @param tighteningRatio r
 * @param layout {@link Layout#CLASSIC} or {@link Layout#BLOCKED}: what each layer is
 */
record LayerPlan(
    long initialCapacity,
    double falsePositiveRate,
    int growth,
    double tighteningRatio,
    Layout layout) {

  /** The keys layer {@code i} holds: {@code n₀·s^i}, or {@link Long#MAX_VALUE} past it. */
  long capacity(int i) {
    long capacity = initialCapacity;
    for (int j = 0; j < i; j++) {
      if (capacity > Long.MAX_VALUE / growth) {
        return Long.MAX_VALUE;
      }
      capacity *= growth;
    }
    return capacity;
  }

  /** The rate layer {@code i} is sized for: {@code ε·(1 − r)·r^i}. */
  double rate(int i) {
    return falsePositiveRate * (1 - tighteningRatio) * Math.pow(tighteningRatio, i);
  }

  /**
   * A new, empty layer {@code i}.
   *
   * @throws IllegalArgumentException if it would be too large to allocate
   */
  MembershipFilter create(int i) {
    return layout == Layout.BLOCKED
        ? BlockedBloomFilter.create(capacity(i), rate(i))
        : BloomFilter.create(capacity(i), rate(i));
  }

  /**
   * The bits layer {@code i} has.
   *
   * @throws IllegalArgumentException if no such layer can exist
   */
  long bits(int i) {
    return layout == Layout.BLOCKED
        ? BlockedBloomFilter.planBits(capacity(i), rate(i))
        : BloomFilter.optimalBits(capacity(i), rate(i));
  }
}
