package dev.sieve;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PlaceholderTest {
  @Test
  void build_runsJUnit5() {
    assertThat(1 + 1).isEqualTo(2);
  }
}
