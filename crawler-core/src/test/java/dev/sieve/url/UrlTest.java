package dev.sieve.url;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvFileSource;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.NullSource;
import org.junit.jupiter.params.provider.ValueSource;

class UrlTest {

  private static final Url PAGE = url("http://example.com/dir/sub/page.html?x=1#top");

  private static Url url(String raw) {
    return Url.parse(raw).orElseThrow(() -> new AssertionError("rejected: " + raw));
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvFileSource(resources = "normalization.csv", delimiter = '|')
  void parse_validUrl_normalized(String raw, String expected) {
    assertThat(Url.parse(raw)).map(Url::toString).contains(expected);
  }

  @ParameterizedTest(name = "{0}")
  @CsvFileSource(resources = "normalization.csv", delimiter = '|')
  void parse_normalizedForm_isFixedPoint(String raw, String expected) {
    assertThat(Url.parse(expected)).map(Url::toString).contains(expected);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("junk")
  void parse_junk_empty(String raw) {
    assertThat(Url.parse(raw)).isEmpty();
  }

  static Stream<String> junk() throws IOException {
    try (InputStream in = UrlTest.class.getResourceAsStream("junk.txt")) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8)
          .lines()
          .filter(line -> !line.isBlank() && !line.startsWith("#"))
          .toList()
          .stream();
    }
  }

  @ParameterizedTest
  @NullSource
  @ValueSource(strings = {"", "   ", "\t\n"})
  void parse_nullOrBlank_empty(String raw) {
    assertThat(Url.parse(raw)).isEmpty();
  }

  @Test
  void parse_uppercaseHostAndDefaultPort_normalized() {
    Url url = url("HTTPS://WWW.Example.COM:443/Path?Q=A");

    assertThat(url.toString()).isEqualTo("https://www.example.com/Path?Q=A");
    assertThat(url.scheme()).isEqualTo("https");
    assertThat(url.host()).isEqualTo("www.example.com");
    assertThat(url.port()).isEqualTo(443);
    assertThat(url.path()).isEqualTo("/Path?Q=A");
    assertThat(url.origin()).isEqualTo("https://www.example.com");
    assertThat(url.length()).isEqualTo(url.toString().length());
  }

  @Test
  void accessors_explicitPortAndIpv6_reported() {
    Url url = url("http://[2001:db8::1]:8080");

    assertThat(url.host()).isEqualTo("[2001:db8::1]");
    assertThat(url.port()).isEqualTo(8080);
    assertThat(url.path()).isEqualTo("/");
    assertThat(url.origin()).isEqualTo("http://[2001:db8::1]:8080");
  }

  @Test
  void port_httpWithoutPort_is80() {
    assertThat(url("http://example.com/").port()).isEqualTo(80);
  }

  @Test
  void equals_differentSpellingsOfSameUrl_equalWithSameHash() {
    Url a = url("HTTP://Example.com:80/a/../b#x");
    Url b = url("http://example.com/b");

    assertThat(a).isEqualTo(b).hasSameHashCodeAs(b);
    assertThat(a).isNotEqualTo(url("https://example.com/b"));
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "other.html              | http://example.com/dir/sub/other.html",
        "./other.html            | http://example.com/dir/sub/other.html",
        "../up.html              | http://example.com/dir/up.html",
        "../../../../too-far     | http://example.com/too-far",
        "/root?a=b               | http://example.com/root?a=b",
        "?q=2                    | http://example.com/dir/sub/page.html?q=2",
        "#frag                   | http://example.com/dir/sub/page.html?x=1",
        "''                      | http://example.com/dir/sub/page.html?x=1",
        "'   '                   | http://example.com/dir/sub/page.html?x=1",
        "//cdn.example.org/x.js  | http://cdn.example.org/x.js",
        "HTTPS://Other.COM:443/  | https://other.com/",
        "sub2/a%7eb c.html#f     | http://example.com/dir/sub/sub2/a~b%20c.html",
        "'  spaced.html\n'       | http://example.com/dir/sub/spaced.html",
        "\\back\\slash           | http://example.com/back/slash",
      })
  void resolve_link_resolvedAgainstPage(String href, String expected) {
    assertThat(PAGE.resolve(href)).map(Url::toString).contains(expected);
  }

  @Test
  void resolve_protocolRelative_keepsPageScheme() {
    Url https = url("https://example.com/a");

    assertThat(https.resolve("//cdn.example.org/x")).map(Url::toString)
        .contains("https://cdn.example.org/x");
  }

  @Test
  void resolve_relativeAgainstDirectoryAndRoot_appendsToDirectory() {
    assertThat(url("http://example.com/dir/").resolve("a")).map(Url::toString)
        .contains("http://example.com/dir/a");
    assertThat(url("http://example.com").resolve("a")).map(Url::toString)
        .contains("http://example.com/a");
    assertThat(url("http://example.com:8080/x/y").resolve("../z")).map(Url::toString)
        .contains("http://example.com:8080/z");
  }

  @ParameterizedTest
  @NullSource
  @ValueSource(
      strings = {
        "javascript:void(0)",
        "JavaScript:alert(1)",
        "mailto:x@y",
        "tel:+123",
        "data:text/html,hi",
        "ftp://example.com/file",
        "ws://example.com/socket",
        "http://",
        "//",
        "http://host:99999/",
        "http://a b.com/",
      })
  void resolve_nonHttpOrJunk_empty(String href) {
    assertThat(PAGE.resolve(href)).isEmpty();
  }

  @Test
  void parseAndResolve_randomlyMutatedInput_neverThrowAndResultsAreFixedPoints() {
    String alphabet = "hH:/?#@[]%.\\ \t-_~!$&'()*+,;=0123456789abcxyzé€\u0000\uD800";
    String[] starts = {"http://a.example.com:8080/p/q?r=s#t", "https://[::1]/x", "", "//h/x"};
    Random random = new Random(7);
    for (int i = 0; i < 20_000; i++) {
      StringBuilder s = new StringBuilder(starts[random.nextInt(starts.length)]);
      for (int edits = random.nextInt(6); edits >= 0; edits--) {
        int at = s.length() == 0 ? 0 : random.nextInt(s.length() + 1);
        char c = alphabet.charAt(random.nextInt(alphabet.length()));
        if (random.nextBoolean() || at == s.length()) {
          s.insert(at, c);
        } else {
          s.setCharAt(at, c);
        }
      }
      String input = s.toString();

      Url.parse(input)
          .ifPresent(u -> assertThat(Url.parse(u.toString())).as(input).contains(u));
      PAGE.resolve(input)
          .ifPresent(u -> assertThat(Url.parse(u.toString())).as(input).contains(u));
    }
  }
}
