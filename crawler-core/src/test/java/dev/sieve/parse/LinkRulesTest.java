package dev.sieve.parse;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@link LinkRules#namesPage}: a {@code rel}'s tokens as {@code split("[\\s,]+")} finds them. */
class LinkRulesTest {

  @ParameterizedTest(name = "rel \"{0}\" names a page: {1}")
  @CsvSource(delimiter = '|', value = {
    "alternate | true",
    "Next | true",
    "stylesheet | false",
    "alternate stylesheet | false",
    "' ,alternate,, prev ' | true",
    "'alternate\tnext\r\n' | true",
    "'\u000Bcanonical\f' | true",
    "'\u001Ccanonical' | false",
    "'alternate\u00A0icon' | false",
    "', ,' | false",
    "'' | false",
    "nofollow | false",
  })
  void namesPage_tokensBetweenRegexWhitespaceAndCommas(String rel, boolean page) {
    assertThat(LinkRules.namesPage(rel)).isEqualTo(page);
    assertThat(LinkRules.namesPage(rel)).as("as the regex split found them")
        .isEqualTo(splitAnswer(rel));
  }

  /** The rule as it was written with String.split, to check the hand-made tokenizer against. */
  private static boolean splitAnswer(String rel) {
    boolean page = false;
    for (String token : LinkRules.lowerCase(rel).split("[\\s,]+")) {
      if (java.util.Set.of("stylesheet", "icon").contains(token)) {
        return false;
      }
      page |= java.util.Set.of("alternate", "next", "prev", "canonical").contains(token);
    }
    return page;
  }
}
