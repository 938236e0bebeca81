package dev.sieve.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class BenchServeCommandTest {

  @Test
  void falsePositiveBound_at1e8UrlsAndOneInAMillion_allowsThePoissonTailAboveTheMean() {
    // μ = 100: a correct filter's false positives stay under μ + 4√μ + 1 = 141.
    assertThat(BenchServeCommand.falsePositiveBound(100_000_000L, 1e-6)).isEqualTo(141);
  }

  @Test
  void falsePositiveBound_whereNoneIsExpected_allowsOne() {
    assertThat(BenchServeCommand.falsePositiveBound(8_000_000L, 1e-9)).isEqualTo(1);
  }
}
