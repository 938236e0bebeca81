package dev.sieve.parse;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PageLinksTest {

  private static PageLinks page(String base, boolean nofollow, String... anchors) {
    PageLinks.Builder builder = PageLinks.builder();
    if (base != null) {
      builder.base(base);
    }
    builder.robots(nofollow, false);
    for (String anchor : anchors) {
      builder.link(PageLinks.Kind.ANCHOR, anchor, false);
    }
    return builder.build();
  }

  @Test
  void difference_sameSetInOtherOrderWithDuplicates_none() {
    assertThat(page("/b/", false, "a", "b", "a").difference(page("/b/", false, "b", "a")))
        .isEmpty();
  }

  @Test
  void difference_linksBaseAndFlags_eachNamed() {
    PageLinks here = page("/one/", true, "a", "b");
    PageLinks there = page(null, false, "b", "c");

    assertThat(here.difference(there)).containsExactly(
        "base: \"/one/\" vs null",
        "robots nofollow/noindex: true/false vs false/false",
        "only here: ANCHOR \"a\"",
        "only there: ANCHOR \"c\"");
    assertThat(here.sameAs(there)).isFalse();
  }

  @Test
  void base_secondCall_firstKept() {
    PageLinks.Builder builder = PageLinks.builder();
    builder.base("/first/");
    builder.base("/second/");

    assertThat(builder.build().base()).isEqualTo("/first/");
  }

  @Test
  void refreshUrl_commonForms_urlPart() {
    assertThat(LinkRules.refreshUrl("5; url=next.html")).isEqualTo("next.html");
    assertThat(LinkRules.refreshUrl("0;URL='quoted.html'")).isEqualTo("quoted.html");
    assertThat(LinkRules.refreshUrl("1, other.html")).isEqualTo("other.html");
    assertThat(LinkRules.refreshUrl("2.5 ; url = \"spaced.html\" ")).isEqualTo("spaced.html");
    assertThat(LinkRules.refreshUrl("3")).isNull();
    assertThat(LinkRules.refreshUrl("")).isNull();
  }
}
