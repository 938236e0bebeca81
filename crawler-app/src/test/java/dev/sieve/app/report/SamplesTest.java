package dev.sieve.app.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class SamplesTest {
  @Test
  void add_pastCapacity_keepsEvenlySpreadPointsAndTheLatest() {
    Samples samples = new Samples(8, 1);
    for (int s = 0; s <= 100; s++) {
      samples.add(s, 10L * s);
    }
    Samples.Points points = samples.points();

    assertThat(points.size()).isLessThanOrEqualTo(9);
    assertThat(points.seconds()).startsWith(0.0).endsWith(100.0);
    double step = points.seconds()[1] - points.seconds()[0];
    for (int i = 1; i < points.size() - 1; i++) {
      assertThat(points.seconds()[i] - points.seconds()[i - 1]).isEqualTo(step);
    }
  }

  @Test
  void rate_betweenKeptPoints_isExactForCumulativeCounters() {
    Samples samples = new Samples(4, 1);
    for (int s = 0; s <= 9; s++) {
      samples.add(s, 7L * s);
    }

    assertThat(samples.points().rate(0)).containsOnly(7.0);
  }

  @Test
  void points_latestSoonAfterTheLastKept_takesItsPlace() {
    Samples samples = new Samples(4, 1);
    for (int s = 0; s <= 8; s++) {
      samples.add(s, 10L * s); // kept: 0, 4, 8 (stride 2 after the first compaction)
    }
    samples.add(8.2, 83);

    Samples.Points points = samples.points();

    assertThat(points.seconds()).containsExactly(0.0, 4.0, 8.2);
    assertThat(points.counter(0)).containsExactly(0.0, 40.0, 83.0);
  }

  @Test
  void points_beforeAnySample_isEmpty() {
    Samples.Points points = new Samples(4, 2).points();

    assertThat(points.size()).isZero();
    assertThat(points.rate(0)).isEmpty();
  }

  @Test
  void new_oddCapacity_refusedNamingIt() {
    assertThatThrownBy(() -> new Samples(5, 1)).hasMessage("capacity (5) must be even and >= 4");
  }
}
