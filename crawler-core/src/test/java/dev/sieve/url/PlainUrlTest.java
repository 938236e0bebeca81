package dev.sieve.url;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class PlainUrlTest {
  @Test
  void host_ofPlainUrls_isTheParsedHost() {
    for (String url : List.of("http://example.com/", "https://www.example.com/a/b.html?x=1&y=2",
        "http://h12.bench.example/page/7.html", "http://example.com", "http://example.com?q",
        "https://a-b_c.example.org/~user/(x)*;p=1,2:3@4!$+")) {
      assertThat(PlainUrl.host(url)).as(url).isEqualTo(Url.parse(url).orElseThrow().host());
    }
  }

  @Test
  void host_ofUrlsNeedingTheFullParse_isNull() {
    for (String url : List.of("HTTP://example.com/", "http://Example.com/", "http://example.com:8080/",
        "http://user@example.com/", "http://example.com/a b", "http://example.com/%41",
        "http://example.com/#top", "http://.example.com/", "http://example..com/",
        "http://example.com./", "http://xn--nxasmq6b.example/", "http://exämple.com/",
        "http:///path", "ftp://example.com/", "http://[::1]/", "http://example.com/\\x",
        "http://" + "a".repeat(64) + ".example/", " http://example.com/")) {
      assertThat(PlainUrl.host(url)).as(url).isNull();
    }
  }

  @Test
  void host_whenFound_agreesWithUrlParse_onRandomUrls() {
    SplittableRandom random = new SplittableRandom(16);
    String plainHost = "abcz09-_.";
    String plainPath = "aZ09-._~/?=&+,;:!*()@$";
    String oddHost = plainHost + "A:@%[]";
    String oddPath = plainPath + "%# \\\"<>{}|^`'é";
    List<String> plain = new ArrayList<>();
    for (int i = 0; i < 50_000; i++) {
      String url = (random.nextInt(8) == 0 ? "https://" : "http://")
          + pick(random, random.nextBoolean() ? plainHost : oddHost, 1 + random.nextInt(12))
          + (random.nextBoolean() ? "/" : "")
          + pick(random, random.nextBoolean() ? plainPath : oddPath, random.nextInt(16));
      String host = PlainUrl.host(url);
      if (host != null) {
        Optional<Url> parsed = Url.parse(url);
        assertThat(parsed).as(url).isPresent();
        assertThat(parsed.get().host()).as(url).isEqualTo(host);
        plain.add(url);
      }
    }
    assertThat(plain).hasSizeGreaterThan(1_000);
  }

  private static String pick(SplittableRandom random, String chars, int length) {
    StringBuilder out = new StringBuilder(length);
    for (int i = 0; i < length; i++) {
      out.append(chars.charAt(random.nextInt(chars.length())));
    }
    return out.toString();
  }
}
