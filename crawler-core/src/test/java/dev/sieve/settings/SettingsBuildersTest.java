package dev.sieve.settings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import dev.sieve.fetch.FetchSettings;
import dev.sieve.fetch.Fetcher;
import dev.sieve.robots.RobotsSettings;
import dev.sieve.scope.ScopeSettings;
import dev.sieve.url.Scope;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class SettingsBuildersTest {
  @Test
  void defaults_areTheDocumentedConstants() {
    FetchSettings fetch = FetchSettings.defaults();
    RobotsSettings robots = RobotsSettings.defaults();
    ScopeSettings scope = ScopeSettings.defaults();

    assertThat(fetch.userAgent()).isEqualTo(Fetcher.DEFAULT_USER_AGENT);
    assertThat(fetch.retries()).isEqualTo(2);
    assertThat(fetch.maxBodyBytes()).isEqualTo(10L << 20);
    assertThat(fetch.connectTimeout()).isEqualTo(Duration.ofSeconds(10));
    assertThat(fetch.readTimeout()).isEqualTo(Duration.ofSeconds(30));
    assertThat(fetch.maxRetryAfter()).isEqualTo(Duration.ofMinutes(5));
    assertThat(robots.respect()).isTrue();
    assertThat(robots.ttl()).isEqualTo(Duration.ofHours(24));
    assertThat(robots.maxCrawlDelay()).isEqualTo(Duration.ofSeconds(30));
    assertThat(scope.scope()).isEqualTo(Scope.HOST);
    assertThat(scope.maxDepth()).isEqualTo(Integer.MAX_VALUE);
    assertThat(scope.maxOutlinks()).isEqualTo(100_000);
    assertThat(scope.maxQueryVariants()).isEqualTo(100);
  }

  @Test
  void build_badValue_messageNamesTheSettingAndValue() {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> FetchSettings.builder().retries(-1).build())
        .withMessage("retries (-1) must be >= 0");
    assertThatIllegalArgumentException()
        .isThrownBy(() -> FetchSettings.builder().userAgent(" ").build())
        .withMessage("userAgent ( ) must not be blank");
    assertThatIllegalArgumentException()
        .isThrownBy(() -> FetchSettings.builder().maxRetryAfter(Duration.ofDays(2)).build())
        .withMessage("maxRetryAfter (PT48H) must be <= PT24H");
    assertThatIllegalArgumentException()
        .isThrownBy(() -> RobotsSettings.builder().retryInterval(Duration.ZERO).build())
        .withMessage("robotsRetryInterval (PT0S) must be > 0");
    assertThatIllegalArgumentException()
        .isThrownBy(() -> RobotsSettings.builder().maxCrawlDelay(Duration.ofSeconds(-5)).build())
        .withMessage("maxCrawlDelay (PT-5S) must be >= 0");
    assertThatIllegalArgumentException()
        .isThrownBy(() -> ScopeSettings.builder().maxPathDepth(0).build())
        .withMessage("maxPathDepth (0) must be >= 1");
  }

  @Test
  void check_rateAndRange_nameTheValue() {
    assertThatIllegalArgumentException().isThrownBy(() -> Check.rate("falsePositiveRate", 1.5))
        .withMessage("falsePositiveRate (1.5) must be in (0, 1)");
    assertThatIllegalArgumentException().isThrownBy(() -> Check.rate("falsePositiveRate", Double.NaN))
        .withMessage("falsePositiveRate (NaN) must be in (0, 1)");
    assertThatIllegalArgumentException().isThrownBy(() -> Check.between("--max-retry-after", 86401, 0, 86400))
        .withMessage("--max-retry-after (86401) must be between 0 and 86400");
  }
}
