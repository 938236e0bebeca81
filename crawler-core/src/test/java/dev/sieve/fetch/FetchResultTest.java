package dev.sieve.fetch;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class FetchResultTest {
  private static FetchResult withType(String contentType) {
    return new FetchResult("http://127.0.0.1/", 200, contentType, new byte[] {1, 2}, false, null,
        null, 1, null, null, null);
  }

  @Test
  void isHtml_matchesMediaTypeIgnoringCaseAndParameters() {
    assertThat(withType("text/html").isHtml()).isTrue();
    assertThat(withType("TEXT/HTML; charset=ISO-8859-1").isHtml()).isTrue();
    assertThat(withType(" application/xhtml+xml ;q=1").isHtml()).isTrue();
    assertThat(withType("text/plain").isHtml()).isFalse();
    assertThat(withType("text/htmlx").isHtml()).isFalse();
    assertThat(withType(null).isHtml()).isFalse();
  }

  @Test
  void body_returnsCopySoResultStaysImmutable() {
    FetchResult result = withType("text/html");

    result.body()[0] = 99;

    assertThat(result.body()).containsExactly(1, 2);
  }

  @Test
  void failure_hasStatusZeroAndEmptyBody() {
    FetchResult result =
        FetchResult.failure("http://127.0.0.1/", 5, FetchError.DNS, "unknown host");

    assertThat(result.status()).isZero();
    assertThat(result.body()).isEmpty();
    assertThat(result.bytes()).isZero();
    assertThat(result.isSuccess()).isFalse();
    assertThat(result.isRedirect()).isFalse();
    assertThat(result.contentType()).isNull();
    assertThat(result.toString()).contains("dns: unknown host");
  }
}
