package dev.sieve.scope;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class UrlRulesTest {
  @Test
  void noRules_everyUrlPasses() {
    assertThat(UrlRules.NONE.allows("http://example.com/anything")).isTrue();
    assertThat(UrlRules.of(List.of(), List.of()).isEmpty()).isTrue();
  }

  @Test
  void includes_aUrlMustMatchOneSomewhere() {
    UrlRules rules = UrlRules.of(List.of("/docs/", "/api/v[0-9]+/"), List.of());

    assertThat(rules.allows("http://example.com/docs/intro")).isTrue();
    assertThat(rules.allows("http://example.com/api/v2/x")).isTrue();
    assertThat(rules.allows("http://example.com/blog/")).isFalse();
  }

  @Test
  void excludeWinsOverInclude() {
    UrlRules rules = UrlRules.of(List.of("/docs/"), List.of("[?&]sort="));

    assertThat(rules.allows("http://example.com/docs/list?page=2")).isTrue();
    assertThat(rules.allows("http://example.com/docs/list?page=2&sort=asc")).isFalse();
    assertThat(UrlRules.of(List.of(), List.of("\\.pdf$")).allows("http://example.com/a.pdf")).isFalse();
  }

  @Test
  void invalidRegex_refusedNamingTheSettingAndTheExpression() {
    assertThatThrownBy(() -> UrlRules.of(List.of("ok"), List.of("a[")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("exclude (a[) is not a regular expression: Unclosed character class");
    assertThatThrownBy(() -> ScopeSettings.builder().include(List.of("(")).build())
        .hasMessageStartingWith("include (() is not a regular expression");
  }

  @Test
  void toString_namesEveryRuleInOrder_forTheResumeCheck() {
    assertThat(UrlRules.of(List.of("b", "a"), List.of("c")).toString())
        .isEqualTo("include=[b, a] exclude=[c]");
  }
}
