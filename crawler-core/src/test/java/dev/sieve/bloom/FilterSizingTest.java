package dev.sieve.bloom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.sieve.bloom.FilterSizing.CuckooPlan;
import dev.sieve.bloom.FilterSizing.Plan;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class FilterSizingTest {
  private static final long MILLION = 1_000_000;

  @Test
  void classic_oneMillionAtOnePerMille_isWhatBloomFilterBuilds() {
    Plan plan = FilterSizing.classic(MILLION, 0.001);

    assertThat(plan.structure()).isEqualTo("classic");
    assertThat(plan.bits())
        .isEqualTo(14_377_588L)
        .isEqualTo(BloomFilter.create(MILLION, 0.001).bitSize());
    assertThat(plan.hashes()).isEqualTo(10);
    assertThat(plan.bitsPerKey()).isCloseTo(14.378, within(0.001));
    assertThat(plan.fpp()).isCloseTo(0.001, within(0.00001));
  }

  @Test
  void fppAt_pastCapacity_showsHowFastTheRateDegrades() {
    Plan plan = FilterSizing.classic(MILLION, 0.01);

    long bits = plan.bits();
    int k = plan.hashes();

    assertThat(FilterSizing.fppAt(bits, k, MILLION)).isCloseTo(0.01004, within(0.00001));
    assertThat(FilterSizing.fppAt(bits, k, 3 * MILLION / 2)).isCloseTo(0.0579, within(0.0001));
    assertThat(FilterSizing.fppAt(bits, k, 2 * MILLION)).isCloseTo(0.1575, within(0.0001));
    assertThat(FilterSizing.fppAt(bits, k, 0)).isZero();
  }

  @ParameterizedTest(name = "ε = {0}")
  @CsvSource({"0.05, 7, 3", "0.01, 10, 5", "0.001, 15, 8", "0.0001, 20, 10"})
  void fewestHashes_wholeBitsPerKey_thenFewestHashesMeetingTheRate(
      double fpp, int bitsPerKey, int hashes) {
    Plan plan = FilterSizing.fewestHashes(MILLION, fpp);

    assertThat(plan.structure()).isEqualTo("fewest-hashes");
    assertThat(plan.bitsPerKey()).isEqualTo(bitsPerKey);
    assertThat(plan.bits()).isEqualTo(bitsPerKey * MILLION);
    assertThat(plan.hashes())
        .isEqualTo(hashes)
        .isLessThan(FilterSizing.classic(MILLION, fpp).hashes());
    assertThat(plan.fpp()).isLessThanOrEqualTo(fpp);
    assertThat(FilterSizing.fppAt(plan.bits(), hashes - 1, MILLION)).isGreaterThan(fpp);
    for (int k = 1; k <= 30; k++) {
      assertThat(FilterSizing.fppAt((bitsPerKey - 1) * MILLION, k, MILLION))
          .as("one bit per key fewer, k = %d", k)
          .isGreaterThan(fpp);
    }
  }

  @ParameterizedTest(name = "ε = {0}")
  @CsvSource({"0.05, 8", "0.03, 9", "0.01, 10", "0.0078125, 10", "0.001, 13", "0.000001, 23"})
  void cuckoo_fingerprintBits_areCeilLog2OfOneOverEpsilonPlus3(double fpp, int bits) {
    CuckooPlan plan = FilterSizing.cuckoo(MILLION, fpp);

    assertThat(plan.fingerprintBits()).isEqualTo(bits);
    assertThat(plan.fpp()).isEqualTo(8.0 / (1L << bits)).isLessThanOrEqualTo(fpp);
    assertThat(8.0 / (1L << (bits - 1))).isGreaterThan(fpp);
  }

  @Test
  void cuckoo_oneMillion_fewestPowerOfTwoBucketsAt95PercentLoad() {
    CuckooPlan plan = FilterSizing.cuckoo(MILLION, 0.01);

    // 1M / (4 · 0.95) = 263,158 buckets, just over 2^18: the next power of two halves the load.
    assertThat(plan.buckets()).isEqualTo(1L << 19);
    assertThat(plan.bits()).isEqualTo((1L << 19) * 4 * 10);
    assertThat(plan.bitsPerKey()).isCloseTo(20.97, within(0.01));
    assertThat(FilterSizing.cuckoo(996_000, 0.01).buckets()).isEqualTo(1L << 18);
    assertThat(FilterSizing.cuckoo(1, 0.01).buckets()).isEqualTo(1);
  }

  @Test
  void cuckoo_rateBeyond32BitFingerprints_cappedAndSaysWhatItAchieves() {
    CuckooPlan plan = FilterSizing.cuckoo(MILLION, 1e-12);

    assertThat(plan.fingerprintBits()).isEqualTo(32);
    assertThat(plan.fpp()).isEqualTo(8.0 / (1L << 32)).isGreaterThan(1e-12);
  }

  @Test
  void informationTheoreticMinimum_isLog2OfOneOverEpsilon() {
    double minimum = FilterSizing.informationTheoreticMinimumBitsPerKey(0.01);

    assertThat(minimum).isCloseTo(6.644, within(0.001));
    assertThat(FilterSizing.informationTheoreticMinimumBitsPerKey(0.5)).isCloseTo(1, within(1e-12));
    assertThat(FilterSizing.classic(MILLION, 0.01).bitsPerKey() / minimum)
        .isCloseTo(1.44, within(0.01));
  }

  @Test
  void badArguments_messageNamesParameterAndValue() {
    assertThatThrownBy(() -> FilterSizing.classic(0, 0.01))
        .hasMessage("expectedInsertions (0) must be > 0");
    assertThatThrownBy(() -> FilterSizing.cuckoo(-3, 0.01))
        .hasMessage("expectedInsertions (-3) must be > 0");
    assertThatThrownBy(() -> FilterSizing.fewestHashes(10, 1.5))
        .hasMessage("falsePositiveRate (1.5) must be in (0, 1)");
    assertThatThrownBy(() -> FilterSizing.informationTheoreticMinimumBitsPerKey(Double.NaN))
        .hasMessage("falsePositiveRate (NaN) must be in (0, 1)");
    assertThatThrownBy(() -> FilterSizing.fppAt(0, 3, 10)).hasMessage("bits (0) must be > 0");
    assertThatThrownBy(() -> FilterSizing.fppAt(100, 0, 10)).hasMessage("k (0) must be >= 1");
    assertThatThrownBy(() -> FilterSizing.fppAt(100, 3, -1)).hasMessage("n (-1) must be >= 0");
    assertThatThrownBy(() -> FilterSizing.cuckoo(Long.MAX_VALUE / 2, 0.01))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("expectedInsertions (" + Long.MAX_VALUE / 2 + ")");
  }
}
