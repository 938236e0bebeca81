package dev.sieve.parse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sieve.url.Url;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullSource;
import org.junit.jupiter.params.provider.ValueSource;

class LinkExtractorTest {

  private static final Url PAGE = url("http://example.com/dir/page.html");
  private static final String HTML = "text/html; charset=UTF-8";

  private final LinkExtractor extractor = LinkExtractor.builder().build();

  private static Url url(String raw) {
    return Url.parse(raw).orElseThrow(() -> new AssertionError("rejected: " + raw));
  }

  private static List<String> strings(ParsedPage page) {
    return page.links().stream().map(Url::toString).toList();
  }

  private static byte[] fixture(String name) throws IOException {
    try (InputStream in = LinkExtractorTest.class.getResourceAsStream(name)) {
      assertThat(in).as("fixture %s", name).isNotNull();
      return in.readAllBytes();
    }
  }

  private static byte[] utf8(String html) {
    return html.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void extract_mixedLinks_resolvedDedupedInDocumentOrder() throws IOException {
    ParsedPage page = extractor.extract(fixture("links.html"), HTML, PAGE);

    assertThat(strings(page))
        .containsExactly(
            "http://example.com/dir/a.html",
            "http://example.com/root.html",
            "http://example.com/dir/page.html?page=2",
            "https://other.example.org/x",
            "http://example.com/up/b.html",
            "http://cdn.example.net/c",
            "http://example.com/dir/page.html",
            "http://example.com/dir/area.html");
    assertThat(page.linksFound()).isEqualTo(16);
    assertThat(page.linksInvalid()).isEqualTo(5);
    assertThat(page.linksNofollow()).isZero();
    assertThat(page.nofollowPage()).isFalse();
    assertThat(page.linksOverCap()).isZero();
  }

  @Test
  void extract_baseHref_relativeLinksResolvedAgainstFirstBase() throws IOException {
    ParsedPage page = extractor.extract(fixture("base-href.html"), HTML, PAGE);

    assertThat(strings(page))
        .containsExactly(
            "http://example.com/static/v2/img/logo.html",
            "http://example.com/static/shared.html",
            "http://example.com/absolute-path.html",
            "https://elsewhere.example.com/",
            "http://example.com/static/v2/map.html");
  }

  @Test
  void extract_unusableBaseHref_fallsBackToPageUrl() {
    byte[] body = utf8("<base href='javascript:void(0)'><a href='x.html'>x</a>");

    ParsedPage page = extractor.extract(body, HTML, PAGE);

    assertThat(strings(page)).containsExactly("http://example.com/dir/x.html");
  }

  @Test
  void extract_relNofollow_skippedAndCounted() throws IOException {
    ParsedPage page = extractor.extract(fixture("nofollow-rel.html"), HTML, PAGE);

    assertThat(strings(page))
        .containsExactly(
            "http://example.com/followed",
            "http://example.com/noopener",
            "http://example.com/nofollowish");
    assertThat(page.linksNofollow()).isEqualTo(2);
    assertThat(page.linksInvalid()).isEqualTo(1);
    assertThat(page.linksFound()).isEqualTo(6);
    assertThat(page.nofollowPage()).isFalse();
  }

  @Test
  void extract_relNofollowWithFollowNofollow_kept() throws IOException {
    LinkExtractor following = LinkExtractor.builder().followNofollow(true).build();

    ParsedPage page = following.extract(fixture("nofollow-rel.html"), HTML, PAGE);

    assertThat(strings(page)).contains("http://example.com/sponsored", "http://example.com/ugc");
    assertThat(page.links()).hasSize(5);
    assertThat(page.linksNofollow()).isEqualTo(2);
  }

  @Test
  void extract_robotsMetaNofollow_noLinksButCounts() throws IOException {
    ParsedPage page = extractor.extract(fixture("nofollow-meta.html"), HTML, PAGE);

    assertThat(page.nofollowPage()).isTrue();
    assertThat(page.links()).isEmpty();
    assertThat(page.linksFound()).isEqualTo(3);
    assertThat(page.linksNofollow()).isEqualTo(2);
    assertThat(page.linksInvalid()).isEqualTo(1);
  }

  @Test
  void extract_robotsMetaNone_treatedAsNofollow() {
    byte[] body = utf8("<meta name=robots content=' NONE '><a href='/x'>x</a>");

    ParsedPage page = extractor.extract(body, HTML, PAGE);

    assertThat(page.nofollowPage()).isTrue();
    assertThat(page.links()).isEmpty();
  }

  @Test
  void extract_robotsMetaNofollowWithFollowNofollow_linksKept() throws IOException {
    LinkExtractor following = LinkExtractor.builder().followNofollow(true).build();

    ParsedPage page = following.extract(fixture("nofollow-meta.html"), HTML, PAGE);

    assertThat(page.nofollowPage()).isTrue();
    assertThat(strings(page)).containsExactly("http://example.com/one", "http://example.com/two");
  }

  @Test
  void extract_robotsMetaNoindexOnly_linksFollowed() throws IOException {
    ParsedPage page = extractor.extract(fixture("noindex-meta.html"), HTML, PAGE);

    assertThat(page.nofollowPage()).isFalse();
    assertThat(strings(page)).containsExactly("http://example.com/one");
  }

  @Test
  void extract_moreDistinctLinksThanCap_truncatedAndFlagged() {
    StringBuilder html = new StringBuilder();
    for (int i = 0; i < 10; i++) {
      html.append("<a href='/p").append(i).append("'>p</a><a href='/p0'>dup</a>");
    }
    LinkExtractor capped = LinkExtractor.builder().maxOutlinks(3).build();

    ParsedPage page = capped.extract(utf8(html.toString()), HTML, PAGE);

    assertThat(strings(page))
        .containsExactly("http://example.com/p0", "http://example.com/p1", "http://example.com/p2");
    assertThat(page.linksOverCap()).isPositive();
    assertThat(page.linksFound()).isEqualTo(20);
    assertThat(page.linksDuplicate()).isEqualTo(10);
    assertThat(page.linksOverCap()).isEqualTo(7);
  }

  @Test
  void extract_mixedLinks_eachCountedOnceAndTheCountsAddUpToFound() {
    byte[] body = utf8("<a href='/a'></a><a href='/a'></a><a href='mailto:x@example.com'></a>"
        + "<a rel='nofollow' href='/n'></a><a href='/b'></a><a href='/c'></a><a href='/c'></a>"
        + "<a href='javascript:void(0)'></a><a href='/d'></a>");
    LinkExtractor capped = LinkExtractor.builder().maxOutlinks(2).build();

    ParsedPage page = capped.extract(body, HTML, PAGE);

    assertThat(strings(page)).containsExactly("http://example.com/a", "http://example.com/b");
    assertThat(page.linksInvalid()).isEqualTo(2);
    assertThat(page.linksNofollowDropped()).isEqualTo(1);
    assertThat(page.linksDuplicate()).isEqualTo(1);
    assertThat(page.linksOverCap()).isEqualTo(3);
    assertThat(page.linksInvalid() + page.linksNofollowDropped() + page.linksDuplicate()
        + page.linksOverCap() + page.links().size()).isEqualTo(page.linksFound()).isEqualTo(9);
  }

  @Test
  void extract_nofollowFollowedWhenAsked_notCountedDropped() {
    byte[] body = utf8("<a rel='nofollow' href='/n'></a>");

    ParsedPage page = LinkExtractor.builder().followNofollow(true).build().extract(body, HTML, PAGE);

    assertThat(page.links()).hasSize(1);
    assertThat(page.linksNofollow()).isEqualTo(1);
    assertThat(page.linksNofollowDropped()).isZero();
  }

  @Test
  void extract_duplicatesBeyondCapOfDistinctLinks_notFlagged() {
    byte[] body = utf8("<a href='/a'></a><a href='/b'></a><a href='/a#x'></a><a href='/b'></a>");
    LinkExtractor capped = LinkExtractor.builder().maxOutlinks(2).build();

    ParsedPage page = capped.extract(body, HTML, PAGE);

    assertThat(page.links()).hasSize(2);
    assertThat(page.linksOverCap()).isZero();
    assertThat(page.linksDuplicate()).isEqualTo(2);
  }

  @Test
  void builder_negativeMaxOutlinks_rejected() {
    assertThatThrownBy(() -> LinkExtractor.builder().maxOutlinks(-1))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void extract_charsetFromHeader_decodesBody() {
    byte[] body = "<a href='/caf\u00e9'>x</a>".getBytes(StandardCharsets.ISO_8859_1);

    ParsedPage page = extractor.extract(body, "text/html; charset=ISO-8859-1", PAGE);

    assertThat(strings(page)).containsExactly("http://example.com/caf%C3%A9");
  }

  @Test
  void extract_quotedCharsetInHeader_used() {
    byte[] body = "<a href='/caf\u00e9'>x</a>".getBytes(StandardCharsets.ISO_8859_1);

    ParsedPage page = extractor.extract(body, "text/html;Charset=\"latin1\"", PAGE);

    assertThat(strings(page)).containsExactly("http://example.com/caf%C3%A9");
  }

  @Test
  void extract_noHeaderCharset_metaCharsetDetected() {
    byte[] body =
        "<meta charset='ISO-8859-1'><a href='/caf\u00e9'>x</a>"
            .getBytes(StandardCharsets.ISO_8859_1);

    ParsedPage page = extractor.extract(body, "text/html", PAGE);

    assertThat(strings(page)).containsExactly("http://example.com/caf%C3%A9");
  }

  @ParameterizedTest
  @NullSource
  @ValueSource(
      strings = {
        "text/html; charset=nope",
        "text/html; charset=",
        "text/html; charset=\"\"",
        "text/html; charset=bad name<>",
        "text/html; charset=x-no-such-charset-\u00e9",
        "garbage;;;=",
      })
  void extract_missingOrBadCharsetHeader_fallsBackToUtf8(String contentType) {
    byte[] body = utf8("<a href='/caf\u00e9'>x</a>");

    ParsedPage page = extractor.extract(body, contentType, PAGE);

    assertThat(strings(page)).containsExactly("http://example.com/caf%C3%A9");
  }

  @Test
  void extract_binaryGarbage_noExceptionAndNoJunkLinks() {
    byte[] garbage = new byte[64 * 1024];
    new Random(42).nextBytes(garbage);

    ParsedPage page = extractor.extract(garbage, "text/html; charset=nope", PAGE);

    assertThat(page.links()).hasSizeLessThanOrEqualTo(page.linksFound());
    assertThat(page.linksInvalid()).isLessThanOrEqualTo(page.linksFound());
  }

  @Test
  void extract_malformedHtml_linksStillFound() throws IOException {
    ParsedPage page = extractor.extract(fixture("malformed.html"), HTML, PAGE);

    assertThat(strings(page))
        .contains("http://example.com/unclosed", "http://example.com/no-quotes")
        .doesNotContain("http://example.com/in-script");
  }

  @Test
  void extract_emptyOrNullBody_emptyPage() {
    for (byte[] body : new byte[][] {new byte[0], null}) {
      ParsedPage page = extractor.extract(body, HTML, PAGE);

      assertThat(page.links()).isEmpty();
      assertThat(page.linksFound()).isZero();
      assertThat(page.linksOverCap()).isZero();
    }
  }

  @Test
  void extract_whitespaceOnlyBody_emptyPage() {
    ParsedPage page = extractor.extract(utf8(" \n\t "), null, PAGE);

    assertThat(page.links()).isEmpty();
  }

  @Test
  void links_returnedList_isImmutable() throws IOException {
    ParsedPage page = extractor.extract(fixture("links.html"), HTML, PAGE);

    assertThatThrownBy(() -> page.links().clear())
        .isInstanceOf(UnsupportedOperationException.class);
  }

  @ParameterizedTest
  @ValueSource(strings = {"links.html", "base-href.html", "nofollow-rel.html", "nofollow-meta.html",
      "noindex-meta.html", "malformed.html"})
  void extract_domScanner_sameParsedPageAsStreaming(String fixture) throws IOException {
    LinkExtractor dom = LinkExtractor.builder().scanner(LinkScanner.dom()).build();

    ParsedPage expected = dom.extract(fixture(fixture), HTML, PAGE);
    ParsedPage actual = extractor.extract(fixture(fixture), HTML, PAGE);

    assertThat(strings(actual)).containsExactlyElementsOf(strings(expected));
    assertThat(actual).hasToString(expected.toString());
  }

  @Test
  void extract_linkFrameAndRefreshElements_notFollowed() {
    byte[] body = utf8("<link href='/style.css'><iframe src='/frame.html'></iframe>"
        + "<meta http-equiv=refresh content='0; url=/next.html'><a href='/a.html'>a</a>");

    ParsedPage page = extractor.extract(body, HTML, PAGE);

    assertThat(strings(page)).containsExactly("http://example.com/a.html");
    assertThat(page.linksFound()).isEqualTo(1);
  }
}
