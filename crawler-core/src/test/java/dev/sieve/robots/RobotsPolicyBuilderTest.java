package dev.sieve.robots;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import dev.sieve.fetch.FetchResult;
import dev.sieve.fetch.Fetcher;
import java.time.Duration;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

class RobotsPolicyBuilderTest {
  /** Never called: building a policy fetches nothing. */
  private static final Function<String, FetchResult> NO_FETCH =
      u -> {
        throw new AssertionError("fetched " + u);
      };

  private static RobotsPolicy.Builder valid() {
    return RobotsPolicy.builder().fetch(NO_FETCH);
  }

  @Test
  void build_defaults_deriveTokenFromDefaultUserAgent() {
    RobotsPolicy policy = valid().build();

    assertThat(policy.agentToken()).isEqualTo("sievebot");
    assertThat(Fetcher.DEFAULT_USER_AGENT).startsWith("SieveBot/");
    assertThat(policy.robotsFetches()).isZero();
    assertThat(policy.denials()).isZero();
  }

  @Test
  void build_userAgent_isValidated() {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> valid().userAgent(null).build())
        .withMessage("userAgent (null) must not be blank");
    assertThatIllegalArgumentException()
        .isThrownBy(() -> valid().userAgent(" ").build())
        .withMessage("userAgent ( ) must not be blank");
    assertThatIllegalArgumentException()
        .isThrownBy(() -> valid().userAgent("Sieve2/1.0").build())
        .withMessageContaining("userAgent (Sieve2/1.0)")
        .withMessageContaining("'sieve2'");
    assertThat(valid().userAgent("My_Crawler").build().agentToken()).isEqualTo("my_crawler");
  }

  @Test
  void build_fetch_isRequired() {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> RobotsPolicy.builder().build())
        .withMessage("fetch (null) must not be null");
  }

  @Test
  void build_durations_areValidated() {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> valid().ttl(Duration.ZERO).build())
        .withMessage("ttl (PT0S) must be > 0");
    assertThatIllegalArgumentException()
        .isThrownBy(() -> valid().ttl(null).build())
        .withMessage("ttl (null) must be > 0");
    assertThatIllegalArgumentException()
        .isThrownBy(() -> valid().retryInterval(Duration.ofSeconds(-1)).build())
        .withMessage("retryInterval (PT-1S) must be > 0");
    assertThatIllegalArgumentException()
        .isThrownBy(() -> valid().connectionRetryInterval(Duration.ZERO).build())
        .withMessage("connectionRetryInterval (PT0S) must be > 0");
    assertThatIllegalArgumentException()
        .isThrownBy(() -> valid().maxCrawlDelay(Duration.ofMillis(-1)).build())
        .withMessage("maxCrawlDelay (PT-0.001S) must be >= 0");
    assertThat(valid().maxCrawlDelay(Duration.ZERO).build()).isNotNull();
  }

  @Test
  void build_otherSettings_areValidated() {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> valid().maxRedirects(-1).build())
        .withMessage("maxRedirects (-1) must be >= 0");
    assertThatIllegalArgumentException()
        .isThrownBy(() -> valid().clock(null).build())
        .withMessage("clock (null) must not be null");
    assertThatIllegalArgumentException()
        .isThrownBy(() -> valid().maxCacheBytes(1024).build())
        .withMessage("maxCacheBytes (1024) must be >= 16777216");
    assertThat(valid().maxRedirects(0).build()).isNotNull();
  }
}
