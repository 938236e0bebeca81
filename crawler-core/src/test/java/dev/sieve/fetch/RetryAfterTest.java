package dev.sieve.fetch;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class RetryAfterTest {
  private static final Instant NOW = Instant.parse("2026-11-24T00:00:00Z");

  @Test
  void parse_deltaSeconds_asGiven() {
    assertThat(RetryAfter.parse("0", NOW)).contains(Duration.ZERO);
    assertThat(RetryAfter.parse(" 120 ", NOW)).contains(Duration.ofSeconds(120));
    assertThat(RetryAfter.parse("007", NOW)).contains(Duration.ofSeconds(7));
  }

  @Test
  void parse_deltaSecondsOfAnySize_neverThrowsAndSaturates() {
    assertThat(RetryAfter.parse("2147483648", NOW)).contains(Duration.ofSeconds(2147483648L));
    assertThat(RetryAfter.parse("9223372036854775807", NOW)).contains(RetryAfter.MAX);
    assertThat(RetryAfter.parse("9".repeat(400), NOW)).contains(RetryAfter.MAX);
    assertThat(RetryAfter.parse("0".repeat(50) + "5", NOW)).contains(Duration.ofSeconds(5));
    assertThat(RetryAfter.MAX.toNanos()).isEqualTo(Long.MAX_VALUE);
  }

  @Test
  void parse_imfFixdate_relativeToNow() {
    assertThat(RetryAfter.parse("Tue, 24 Nov 2026 00:02:30 GMT", NOW))
        .contains(Duration.ofSeconds(150));
  }

  @Test
  void parse_obsoleteDateForms_relativeToNow() {
    assertThat(RetryAfter.parse("Tuesday, 24-Nov-26 01:00:00 GMT", NOW)).contains(Duration.ofHours(1));
    assertThat(RetryAfter.parse("Tue Nov 24 00:00:30 2026", NOW)).contains(Duration.ofSeconds(30));
    assertThat(RetryAfter.parse("Sun Nov  6 08:49:37 1994", NOW)).contains(Duration.ZERO);
  }

  @Test
  void parse_rfc850YearMoreThanFiftyYearsAhead_readAsThePast() {
    // "94" would be 2094, more than 50 years after 2026: it is 1994, so already past.
    assertThat(RetryAfter.parse("Sunday, 06-Nov-94 08:49:37 GMT", NOW)).contains(Duration.ZERO);
    // "70" is 2070, within 50 years.
    assertThat(RetryAfter.parse("Thursday, 01-Jan-70 00:00:00 GMT", NOW).orElseThrow())
        .isGreaterThan(Duration.ofDays(365 * 43));
  }

  @Test
  void parse_dateFarInTheFuture_isLongButNeverOverflows() {
    Duration delay = RetryAfter.parse("Fri, 31 Dec 9999 23:59:59 GMT", NOW).orElseThrow();

    assertThat(delay).isEqualTo(RetryAfter.MAX); // ~7,973 years, beyond ~292
  }

  @Test
  void parse_pastDate_isZero() {
    assertThat(RetryAfter.parse("Thu, 01 Jan 1970 00:00:00 GMT", NOW)).contains(Duration.ZERO);
  }

  @Test
  void parse_junk_isEmpty() {
    assertThat(new String[] {null, "", "  ", "soon", "-5", "1.5", "+3", "0x10", "1e9",
        "Tue, 31 Feb 2026 00:00:00 GMT", "Tue, 24 Nov 2026 25:00:00 GMT",
        "Tue, 24 Foo 2026 00:00:00 GMT", "Tue, 24 Nov 2026 00:00:00 PST", "24 Nov 2026",
        "Tue, 24 Nov 99999999999 00:00:00 GMT", "\u0000\u00e9\u202e"})
        .allSatisfy(value -> assertThat(RetryAfter.parse(value, NOW)).as(value).isEmpty());
  }
}
