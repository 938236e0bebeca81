package dev.sieve.robots;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class RobotsTxtTest {
  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.US_ASCII);
  }

  private static String text(byte[] b) {
    return new String(b, StandardCharsets.US_ASCII);
  }

  @Test
  void cap_completeBodyWithinLimit_isReturnedAsIs() {
    byte[] body = bytes("User-agent: *\nDisallow: /x");

    assertThat(RobotsTxt.cap(body, true, 100)).isSameAs(body);
  }

  @Test
  void cap_longBody_isCutAfterTheLastLineBreakInRange() {
    byte[] body = bytes("Disallow: /a\nAllow: /private\n");

    assertThat(text(RobotsTxt.cap(body, true, 20))).isEqualTo("Disallow: /a\n");
  }

  @Test
  void cap_truncatedBody_dropsItsPartialLastLine() {
    byte[] body = bytes("Disallow: /a\r\nAllow: /p");

    assertThat(text(RobotsTxt.cap(body, false, 100))).isEqualTo("Disallow: /a\r\n");
  }

  @Test
  void cap_noLineBreakInRange_cutsAtLimit() {
    byte[] body = bytes("x".repeat(50));

    assertThat(RobotsTxt.cap(body, true, 10)).hasSize(10);
    assertThat(RobotsTxt.cap(body, false, 100)).hasSize(50);
  }

  @Test
  void countNonBlankLines_ignoresBlankLinesAndCountsAnyLineBreak() {
    assertThat(RobotsTxt.countNonBlankLines(bytes(""))).isZero();
    assertThat(RobotsTxt.countNonBlankLines(bytes("a"))).isEqualTo(1);
    assertThat(RobotsTxt.countNonBlankLines(bytes("a\n\n \t\nb\r\nc\rd\n"))).isEqualTo(4);
  }

  @Test
  void agentToken_isTheLowerCasedProductToken() {
    assertThat(RobotsTxt.agentToken("SieveBot/0.1 (+https://example.invalid/sieve)"))
        .isEqualTo("sievebot");
    assertThat(RobotsTxt.agentToken("  Sieve_Bot (+https://example.invalid)"))
        .isEqualTo("sieve_bot");
    assertThat(RobotsTxt.agentToken("sieve-bot")).isEqualTo("sieve-bot");
    assertThat(RobotsTxt.agentToken("/0.1")).isEmpty();
  }

  @Test
  void isValidAgentToken_acceptsLettersDashAndUnderscoreOnly() {
    assertThat(RobotsTxt.isValidAgentToken("sievebot")).isTrue();
    assertThat(RobotsTxt.isValidAgentToken("sieve-bot_x")).isTrue();
    assertThat(RobotsTxt.isValidAgentToken("")).isFalse();
    assertThat(RobotsTxt.isValidAgentToken("sievebot2")).isFalse();
    assertThat(RobotsTxt.isValidAgentToken("*")).isFalse();
    assertThat(RobotsTxt.isValidAgentToken("sieve.bot")).isFalse();
  }
}
