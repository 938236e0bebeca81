package dev.sieve.crawl;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sieve.url.Url;
import org.junit.jupiter.api.Test;

class QueryVariantsTest {
  private final QueryVariants variants = new QueryVariants(2);

  @Test
  void admit_pastTheCapPerPath_refusedButKnownVariantsAndOtherPathsStillAdmitted() {
    assertThat(variants.admit(url("http://a.test/cal?m=1"))).isTrue();
    assertThat(variants.admit(url("http://a.test/cal?m=2"))).isTrue();

    assertThat(variants.admit(url("http://a.test/cal?m=3"))).isFalse();
    assertThat(variants.admit(url("http://a.test/cal?m=1"))).isTrue();
    assertThat(variants.admit(url("http://a.test/other?m=3"))).isTrue();
    assertThat(variants.admit(url("http://a.test:8080/cal?m=3"))).isTrue();
    assertThat(variants.admit(url("http://a.test/cal"))).isTrue();
  }

  @Test
  void admit_moreThanMaxPathsOffered_leastRecentForgottenWhileATrapKeptBusyStaysBounded() {
    variants.admit(url("http://a.test/trap?m=1"));
    variants.admit(url("http://a.test/trap?m=2"));
    variants.admit(url("http://a.test/old?m=1"));
    variants.admit(url("http://a.test/old?m=2"));
    for (int i = 0; i < QueryVariants.MAX_PATHS; i++) {
      variants.admit(url("http://a.test/p" + i + "?q=1"));
      if (i % 1000 == 0) {
        assertThat(variants.admit(url("http://a.test/trap?m=" + (3 + i)))).isFalse();
      }
    }

    assertThat(variants.admit(url("http://a.test/trap?m=x"))).isFalse();
    assertThat(variants.admit(url("http://a.test/old?m=3"))).as("evicted, counts again").isTrue();
  }

  private static Url url(String s) {
    return Url.parse(s).orElseThrow();
  }
}
