package dev.sieve.frontier;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The engine's milliseconds and the URL Frontier API's seconds, converted both ways. */
class FrontierTimeTest {
  @ParameterizedTest
  @CsvSource({"0, 0", "1, 1", "999999, 1", "1000000, 1", "1000001, 2", "1500000000, 1500",
      "1500000001, 1501"})
  void millis_ofASpan_roundUp(long nanos, long millis) {
    assertThat(FrontierTime.millis(Duration.ofNanos(nanos))).isEqualTo(millis);
  }

  @Test
  void millis_ofASpanBeyondMilliseconds_isForever() {
    assertThat(FrontierTime.millis(Duration.ofSeconds(Long.MAX_VALUE))).isEqualTo(Long.MAX_VALUE);
  }

  @ParameterizedTest
  @CsvSource({"0, 0", "1, 1", "999, 1", "1000, 1", "1001, 2", "100, 1", "2500, 3", "-5, 0"})
  void seconds_ofASpanForTheApi_roundUp_soPolitenessIsNeverShortened(long millis, long seconds) {
    assertThat(FrontierTime.seconds(Duration.ofMillis(millis))).isEqualTo(seconds);
  }

  @ParameterizedTest
  @CsvSource({"0, 0", "1, 1000", "1700000000, 1700000000000"})
  void millisOfSeconds_fromTheApi_isExact(long seconds, long millis) {
    assertThat(FrontierTime.millisOfSeconds(seconds)).isEqualTo(millis);
  }

  @Test
  void millisOfSeconds_beyondMilliseconds_saturates() {
    assertThat(FrontierTime.millisOfSeconds(Long.MAX_VALUE / 10)).isEqualTo(Long.MAX_VALUE);
  }

  @ParameterizedTest
  @CsvSource({"0, 0, 0", "1700000000000, 1700000000, 1700000000",
      "1700000000001, 1700000001, 1700000000", "1700000000999, 1700000001, 1700000000"})
  void dates_forTheApi_toComeRoundUp_pastRoundDown(long millis, long up, long down) {
    assertThat(FrontierTime.secondUp(millis)).isEqualTo(up);
    assertThat(FrontierTime.secondDown(millis)).isEqualTo(down);
  }

  @Test
  void aDateThroughTheApiAndBack_isTheSameSecond() {
    for (long second : new long[] {0, 1, 1_700_000_000L, 4_102_444_800L}) {
      assertThat(FrontierTime.secondUp(FrontierTime.millisOfSeconds(second))).isEqualTo(second);
      assertThat(FrontierTime.secondDown(FrontierTime.millisOfSeconds(second))).isEqualTo(second);
    }
  }

  @Test
  void secondAfter_isTheFirstWholeSecondNotBeforeNowPlusTheSpan() {
    assertThat(FrontierTime.secondAfter(1_700_000_000_400L, Duration.ofMillis(600)))
        .isEqualTo(1_700_000_001L);
    assertThat(FrontierTime.secondAfter(1_700_000_000_400L, Duration.ofMillis(601)))
        .isEqualTo(1_700_000_002L);
    assertThat(FrontierTime.secondAfter(1, Duration.ofSeconds(Long.MAX_VALUE)))
        .isEqualTo(Long.MAX_VALUE / 1000 + 1);
  }

  @Test
  void plus_beyondMilliseconds_isForever() {
    assertThat(FrontierTime.plus(Long.MAX_VALUE - 1, 2)).isEqualTo(Long.MAX_VALUE);
    assertThat(FrontierTime.plus(1_000, 2)).isEqualTo(1_002);
  }
}
