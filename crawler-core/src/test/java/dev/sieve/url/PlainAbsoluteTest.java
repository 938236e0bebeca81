package dev.sieve.url;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The fast path of {@link Url#parse} for plain absolute URLs ({@link PlainAbsolute}) against the
 * general path ({@link UrlParser#normalize}, crawler-commons' normalizer): the same URL for every
 * URL the fast path takes, for hand-made cases, the absolute links of real pages and generated
 * URLs.
 */
class PlainAbsoluteTest {

  @ParameterizedTest(name = "{0} -> {1} ({2})")
  @CsvSource(delimiter = '|', value = {
    "http://example.com/a/b.html | http://example.com/a/b.html | fast",
    "https://example.com | https://example.com/ | fast",
    "http://example.com?b=1&a=2 | http://example.com/?a=2&b=1 | fast",
    "http://en.example.org/w/index.php?title=c/io&oldid=76866 | http://en.example.org/w/index.php?oldid=76866&title=c/io | fast",
    "http://example.com/p?a=2&a=1&0=x | http://example.com/p?0=x&a=2&a=1 | fast",
    "http://example.com/p?x=a=b | http://example.com/p?x=a=b | fast",
    "http://example.com/w/Category:Todo_no_example | http://example.com/w/Category:Todo_no_example | fast",
    "http://example.com/a/./b | http://example.com/a/b | general",
    "http://example.com/a/../b | http://example.com/b | general",
    "http://example.com//a | http://example.com/a | general",
    "http://example.com/p? | http://example.com/p | general",
    "http://example.com/p?a&b=1 | http://example.com/p?a&b=1 | general",
    "http://Example.com/a | http://example.com/a | general",
    "http://example.com:8080/a | http://example.com:8080/a | fast",
    "http://127.0.0.1:28517/en/a.html | http://127.0.0.1:28517/en/a.html | fast",
    "http://example.com:8080 | http://example.com:8080/ | fast",
    "http://example.com:80/a | http://example.com/a | general",
    "https://example.com:443/a | https://example.com/a | general",
    "http://example.com:080/a | http://example.com/a | general",
    "http://example.com/%41 | http://example.com/A | general",
  })
  void parse_handMadeCase_sameAsGeneralPathByTheExpectedPath(String raw, String expected,
      String path) {
    assertThat(Url.parse(raw).map(Url::toString)).hasValue(expected);
    assertThat(general(raw)).hasValue(expected);
    assertThat(PlainAbsolute.parse(raw) != null).as("fast path taken").isEqualTo(path.equals("fast"));
  }

  @Test
  void parse_absoluteLinksOfRealPages_sameAsGeneralPath() throws IOException {
    int absolute = 0;
    int fast = 0;
    for (String line : lines("real-links.tsv")) {
      String href = line.split("\t", -1)[1];
      if (!href.startsWith("http")) {
        continue;
      }
      String raw = href.indexOf('#') >= 0 ? href.substring(0, href.indexOf('#')) : href;
      absolute++;
      Url url = PlainAbsolute.parse(raw);
      if (url != null) {
        fast++;
        assertThat(Optional.of(url.toString())).as(raw).isEqualTo(general(raw));
        assertThat(url.hash()).isEqualTo(UrlParser.normalize(raw).orElseThrow().hash());
      }
    }
    assertThat(absolute).isGreaterThan(100);
    assertThat(fast).as("absolute links taking the fast path").isGreaterThan(absolute * 8 / 10);
  }

  @Test
  void parse_generatedUrls_sameAsGeneralPathWhereTheFastPathAnswers() {
    String[] starts = {"http://", "https://", "HTTP://", "http:/", "ftp://"};
    String[] hosts = {
      "example.com", "a.b.c", "127.0.0.1", "-x.org", "x-.org", "a_b.com", "xn--caf-dma.fr",
      "Example.com", "a..b", "a.", "h", "1.2.3", "example.com:80", "u@example.com", "",
      "example.com:8080", "127.0.0.1:28517", "example.com:443", "example.com:0", "example.com:080",
      "example.com:", "example.com:65535", "example.com:99999", "example.com:8o",
    };
    String[] segments = {
      "a", "b.html", "x:y", "~u", "!$'()*+,;", "@", ".", "..", "", ".a", "a.", "...", "%41",
      "%2f", "caf\u00e9", "sp ace", "A-Z_0", "=&",
    };
    String[] queries = {
      "a=1", "b=2", "a=", "=1", "a", "x=y=z", "title=c/io", "oldid=7", "B=1", "a=1?", "", "%41=1",
      "q=~!$'()*+,;:@/",
    };
    SplittableRandom random = new SplittableRandom(30);
    int fast = 0;
    for (int i = 0; i < 50_000; i++) {
      StringBuilder url = new StringBuilder(starts[random.nextInt(8) < 6 ? random.nextInt(2)
          : random.nextInt(starts.length)]);
      url.append(hosts[random.nextInt(3) == 0 ? random.nextInt(hosts.length) : random.nextInt(3)]);
      int count = random.nextInt(5);
      for (int s = 0; s < count; s++) {
        url.append('/').append(segments[random.nextInt(3) == 0
            ? random.nextInt(segments.length) : random.nextInt(7)]);
      }
      if (random.nextBoolean()) {
        url.append('?');
        int pairs = random.nextInt(4);
        for (int p = 0; p < pairs; p++) {
          url.append(p == 0 ? "" : "&").append(queries[random.nextInt(3) == 0
              ? random.nextInt(queries.length) : random.nextInt(8)]);
        }
      }
      String raw = url.toString();

      Url parsed = PlainAbsolute.parse(raw);
      if (parsed != null) {
        fast++;
        assertThat(Optional.of(parsed.toString())).as(raw).isEqualTo(general(raw));
        Url general = UrlParser.normalize(raw).orElseThrow();
        assertThat(parsed.origin()).as(raw).isEqualTo(general.origin());
        assertThat(parsed.host()).as(raw).isEqualTo(general.host());
        assertThat(parsed.port()).as(raw).isEqualTo(general.port());
        assertThat(parsed.path()).as(raw).isEqualTo(general.path());
      }
    }
    assertThat(fast).as("generated URLs taking the fast path").isGreaterThan(10_000);
  }

  private static Optional<String> general(String raw) {
    return UrlParser.normalize(raw).map(Url::toString);
  }

  private static String[] lines(String resource) throws IOException {
    try (InputStream in = PlainAbsoluteTest.class.getResourceAsStream(resource)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines()
          .filter(line -> !line.isEmpty() && !line.startsWith("#"))
          .toArray(String[]::new);
    }
  }
}
