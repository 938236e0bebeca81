package dev.sieve.url;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sieve.bloom.Hash128;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The fast path of {@link Url#resolve} ({@link RelativeLink}) against the general path ({@link
 * Url#resolveGeneral}): the same URL, or the same refusal, for hand-made edge cases, links
 * sampled from real documentation pages and generated links.
 */
class RelativeLinkTest {

  @ParameterizedTest(name = "{0} + {1} by the {2} path")
  @MethodSource("handMade")
  void resolve_handMadeCase_sameAsGeneralPathByTheExpectedPath(String page, String href,
      String path) {
    Url base = Url.parse(page).orElseThrow();

    assertThat(resolved(base, href)).isEqualTo(general(base, href));
    assertThat(fast(base, href)).as("fast path taken").isEqualTo(path.equals("fast"));
  }

  static Stream<Arguments> handMade() throws IOException {
    return lines("relative-links.tsv").stream()
        .map(line -> line.split("\t", -1))
        .map(cells -> Arguments.of(cells[0], cells[1].replace("\\t", "\t"), cells[2]));
  }

  @Test
  void resolve_linksOfRealPages_sameAsGeneralPathAndMostTakeTheFastPath() throws IOException {
    List<String> lines = lines("real-links.tsv");
    int fast = 0;
    for (String line : lines) {
      String[] cells = line.split("\t", -1);
      Url page = Url.parse(cells[0]).orElseThrow();

      assertThat(resolved(page, cells[1])).as(line).isEqualTo(general(page, cells[1]));
      fast += fast(page, cells[1]) ? 1 : 0;
    }
    assertThat(lines).hasSizeGreaterThan(3000);
    assertThat(fast).as("links taking the fast path").isGreaterThan(lines.size() * 7 / 10);
  }

  @Test
  void resolve_generatedLinks_sameAsGeneralPath() {
    String[] pages = {
      "http://example.com/", "http://example.com/a/b/c.html", "https://example.com:8443/a/b/",
      "http://example.com/a/b?q=/x/y", "http://[::1]/deep/er/path/x",
    };
    String[] segments = {
      ".", "..", "", "a", "b.html", "x:y", "%41", "%2F", "q?r=1", "f#g", "~u", "!$&'()*+,;=@",
      "caf\u00e9", "sp ace", "...", "a.", ".b", "\\", "#",
    };
    SplittableRandom random = new SplittableRandom(17);
    int fast = 0;
    for (int i = 0; i < 50_000; i++) {
      Url page = Url.parse(pages[random.nextInt(pages.length)]).orElseThrow();
      StringBuilder href = new StringBuilder(random.nextInt(4) == 0 ? "/" : "");
      int count = 1 + random.nextInt(6);
      for (int s = 0; s < count; s++) {
        // Mostly plain segments, so that the fast path is exercised as often as refused.
        href.append(random.nextInt(3) == 0
            ? segments[random.nextInt(segments.length)]
            : segments[random.nextInt(5)]);
        if (s < count - 1 || random.nextBoolean()) {
          href.append('/');
        }
      }
      String link = href.toString();

      assertThat(resolved(page, link)).as("%s + %s", page, link).isEqualTo(general(page, link));
      fast += fast(page, link) ? 1 : 0;
    }
    assertThat(fast).as("generated links taking the fast path").isGreaterThan(5_000);
  }

  @Test
  void resolve_generatedLinksWithPercentEscapes_sameAsGeneralPath() {
    Url page = Url.parse("http://example.com/a/b/c.html").orElseThrow();
    String[] escapes = {
      "%3D", "%3d", "%2F", "%2f", "%20", "%25", "%41", "%7E", "%2E", "%2D", "%5F", "%C3%A9",
      "%E2%82%AC", "%FF", "%00", "%7F", "%", "%4", "%G0", "%0g",
    };
    String[] plain = {"a", "op", "..", ".", "x.html", ""};
    SplittableRandom random = new SplittableRandom(30);
    int fast = 0;
    for (int i = 0; i < 20_000; i++) {
      StringBuilder href = new StringBuilder();
      int count = 1 + random.nextInt(4);
      for (int s = 0; s < count; s++) {
        href.append(plain[random.nextInt(plain.length)]);
        if (random.nextBoolean()) {
          href.append(escapes[random.nextInt(escapes.length)]);
        }
        if (s < count - 1) {
          href.append('/');
        }
      }
      String link = href.toString();

      assertThat(resolved(page, link)).as("%s + %s", page, link).isEqualTo(general(page, link));
      fast += fast(page, link) ? 1 : 0;
    }
    assertThat(fast).as("generated links with escapes taking the fast path").isGreaterThan(2_000);
  }

  @Test
  void hash_ofFastPathResult_isTheHashOfItsString() {
    Url page = Url.parse("http://example.com/dir/sub/page.html").orElseThrow();
    Url link = page.resolve("../other/x.html#f").orElseThrow();

    assertThat(fast(page, "../other/x.html#f")).isTrue();
    assertThat(link.toString()).isEqualTo("http://example.com/dir/other/x.html");
    assertThat(link.hash()).isEqualTo(Hash128.of(link.toString()));
    assertThat(page.hash()).isEqualTo(Hash128.of(page.toString()));
  }

  private static Optional<String> resolved(Url page, String href) {
    return page.resolve(href).map(Url::toString);
  }

  private static Optional<String> general(Url page, String href) {
    return page.resolveGeneral(href).map(Url::toString);
  }

  /** Whether {@link RelativeLink} answers for this link itself. */
  private static boolean fast(Url page, String href) {
    String url = page.toString();
    int pathStart = page.origin().length();
    int directoryEnd = RelativeLink.directoryEnd(url, pathStart);
    return directoryEnd > 0 && RelativeLink.resolve(
        url.getBytes(StandardCharsets.UTF_8), pathStart, directoryEnd, href) >= 0;
  }

  private static List<String> lines(String resource) throws IOException {
    try (InputStream in = RelativeLinkTest.class.getResourceAsStream(resource)) {
      List<String> lines = new ArrayList<>();
      for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
        if (!line.isEmpty() && !line.startsWith("#")) {
          lines.add(line);
        }
      }
      return lines;
    }
  }
}
