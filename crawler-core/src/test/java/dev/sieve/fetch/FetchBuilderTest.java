package dev.sieve.fetch;

import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatNoException;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class FetchBuilderTest {
  @Test
  void build_defaults_areValid() {
    assertThatNoException().isThrownBy(() -> Fetcher.builder().build().close());
  }

  @Test
  void build_blankUserAgent_rejectedNamingValue() {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> Fetcher.builder().userAgent(" ").build())
        .withMessage("userAgent ( ) must not be blank");
    assertThatIllegalArgumentException()
        .isThrownBy(() -> Fetcher.builder().userAgent(null).build())
        .withMessage("userAgent (null) must not be blank");
  }

  @Test
  void build_nonPositiveMaxBodyBytes_rejectedNamingValue() {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> Fetcher.builder().maxBodyBytes(-1).build())
        .withMessage("maxBodyBytes (-1) must be > 0");
    assertThatIllegalArgumentException()
        .isThrownBy(() -> Fetcher.builder().maxBodyBytes(0).build())
        .withMessage("maxBodyBytes (0) must be > 0");
  }

  @Test
  void build_maxBodyBytesBeyondArraySize_rejected() {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> Fetcher.builder().maxBodyBytes(Long.MAX_VALUE).build())
        .withMessage("maxBodyBytes (9223372036854775807) must be <= 2147483639");
  }

  @Test
  void build_badTimeouts_rejectedNamingValue() {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> Fetcher.builder().connectTimeout(Duration.ZERO).build())
        .withMessage("connectTimeout (PT0S) must be >= 1 ms");
    assertThatIllegalArgumentException()
        .isThrownBy(() -> Fetcher.builder().readTimeout(Duration.ofSeconds(-5)).build())
        .withMessage("readTimeout (PT-5S) must be >= 1 ms");
    assertThatIllegalArgumentException()
        .isThrownBy(() -> Fetcher.builder().callTimeout(null).build())
        .withMessage("callTimeout (null) must be >= 1 ms");
    assertThatIllegalArgumentException()
        .isThrownBy(() -> Fetcher.builder().callTimeout(Duration.ofDays(30)).build())
        .withMessage("callTimeout (PT720H) must be <= 2147483647 ms");
  }

  @Test
  void build_nullTickerOrClock_rejected() {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> Fetcher.builder().ticker(null).build())
        .withMessage("ticker (null) must not be null");
    assertThatIllegalArgumentException()
        .isThrownBy(() -> Fetcher.builder().clock(null).build())
        .withMessage("clock (null) must not be null");
  }
}
