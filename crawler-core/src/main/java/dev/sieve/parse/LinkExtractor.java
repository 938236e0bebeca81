package dev.sieve.parse;

import dev.sieve.url.Url;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.Charset;
import java.nio.charset.IllegalCharsetNameException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.jsoup.nodes.Node;
import org.jsoup.select.NodeVisitor;

/**
 * Extracts the followable links of an HTML page from {@code a[href]} and {@code area[href]},
 * honouring {@code <base href>}, {@code rel="nofollow"} and robots meta tags. Immutable, so
 * thread-safe and reusable. Never throws for web input: malformed or non-HTML bodies yield a
 * possibly empty {@link ParsedPage}.
 */
public final class LinkExtractor {

  private final int maxOutlinks;
  private final boolean followNofollow;

  private LinkExtractor(Builder builder) {
    this.maxOutlinks = builder.maxOutlinks;
    this.followNofollow = builder.followNofollow;
  }

  /** The default {@code maxOutlinks}; see {@link Builder#maxOutlinks}. */
  public static final int DEFAULT_MAX_OUTLINKS = 100_000;

  /** A builder with {@code maxOutlinks} {@value #DEFAULT_MAX_OUTLINKS} and {@code followNofollow} false. */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Parses {@code body} and returns its links resolved against the page's base URL. The charset
   * comes from {@code contentType} (nullable, e.g. {@code "text/html; charset=ISO-8859-1"}) if it
   * names a supported one, else from a BOM or meta tag, else UTF-8.
   */
  public ParsedPage extract(byte[] body, String contentType, Url pageUrl) {
    Objects.requireNonNull(pageUrl, "pageUrl");
    if (body == null || body.length == 0) {
      return ParsedPage.empty();
    }
    Document doc;
    try {
      doc = Jsoup.parse(new ByteArrayInputStream(body), charsetOf(contentType), pageUrl.toString());
    } catch (IOException | UncheckedIOException | IllegalArgumentException e) {
      // Not expected from an in-memory stream; a bad charset is the likeliest cause.
      return ParsedPage.empty();
    }

    PageElements page = PageElements.of(doc);
    boolean nofollowPage = page.robotsNofollow;
    Url base = page.base == null ? pageUrl : pageUrl.resolve(page.base).orElse(pageUrl);
    Set<Url> links = new LinkedHashSet<>();
    int found = 0;
    int invalid = 0;
    int nofollow = 0;
    int duplicates = 0;
    int overCap = 0;
    for (Element link : page.links) {
      found++;
      Optional<Url> url = base.resolve(link.attr("href"));
      if (url.isEmpty()) {
        invalid++;
        continue;
      }
      if (nofollowPage || hasRelNofollow(link)) {
        nofollow++;
        if (!followNofollow) {
          continue;
        }
      }
      if (links.contains(url.get())) {
        duplicates++;
      } else if (links.size() < maxOutlinks) {
        links.add(url.get());
      } else {
        overCap++;
      }
    }
    int nofollowDropped = followNofollow ? 0 : nofollow;
    return new ParsedPage(new ArrayList<>(links), found, invalid, nofollowPage, nofollow,
        nofollowDropped, duplicates, overCap);
  }

  /** The supported charset named by a Content-Type header, or null to let Jsoup detect it. */
  static String charsetOf(String contentType) {
    if (contentType == null) {
      return null;
    }
    int start = contentType.toLowerCase(Locale.ROOT).indexOf("charset=");
    if (start < 0) {
      return null;
    }
    start += "charset=".length();
    int end = contentType.indexOf(';', start);
    String name = contentType.substring(start, end < 0 ? contentType.length() : end).trim();
    name = stripQuotes(name);
    try {
      return Charset.isSupported(name) ? Charset.forName(name).name() : null;
    } catch (IllegalCharsetNameException e) {
      return null;
    }
  }

  private static String stripQuotes(String s) {
    int start = 0;
    int end = s.length();
    if (start < end && (s.charAt(start) == '"' || s.charAt(start) == '\'')) {
      start++;
    }
    if (end > start && (s.charAt(end - 1) == '"' || s.charAt(end - 1) == '\'')) {
      end--;
    }
    return s.substring(start, end).trim();
  }

  /**
   * What the extractor reads from a parsed page, gathered in one walk of the tree (a CSS {@code
   * select} per question would walk it once each and parse its query every time): the {@code
   * a[href]} and {@code area[href]} elements in document order, the first {@code <base href>},
   * and whether a robots meta tag says nofollow or none.
   */
  private static final class PageElements implements NodeVisitor {
    final List<Element> links = new ArrayList<>();
    String base;
    boolean robotsNofollow;

    static PageElements of(Document doc) {
      PageElements page = new PageElements();
      doc.traverse(page);
      return page;
    }

    @Override
    public void head(Node node, int depth) {
      if (!(node instanceof Element)) {
        return;
      }
      Element element = (Element) node;
      if (element.nameIs("a") || element.nameIs("area")) {
        if (element.hasAttr("href")) {
          links.add(element);
        }
      } else if (element.nameIs("base")) {
        if (base == null && element.hasAttr("href")) {
          base = element.attr("href");
        }
      } else if (element.nameIs("meta")) {
        robotsNofollow |= isRobotsNofollow(element);
      }
    }

    private static boolean isRobotsNofollow(Element meta) {
      String content = meta.attr("content");
      return meta.attr("name").trim().equalsIgnoreCase("robots")
          && (hasToken(content, "nofollow") || hasToken(content, "none"));
    }
  }

  private static boolean hasRelNofollow(Element link) {
    return hasToken(link.attr("rel"), "nofollow");
  }

  /** True if {@code list}, separated by commas or whitespace, holds {@code token} in any case. */
  static boolean hasToken(String list, String token) {
    int length = list.length();
    int i = 0;
    while (i < length) {
      while (i < length && isSeparator(list.charAt(i))) {
        i++;
      }
      int start = i;
      while (i < length && !isSeparator(list.charAt(i))) {
        i++;
      }
      if (i - start == token.length() && list.regionMatches(true, start, token, 0, token.length())) {
        return true;
      }
    }
    return false;
  }

  private static boolean isSeparator(char c) {
    return c == ',' || Character.isWhitespace(c);
  }

  /** Configures a {@link LinkExtractor}. */
  public static final class Builder {
    private int maxOutlinks = DEFAULT_MAX_OUTLINKS;
    private boolean followNofollow;

    private Builder() {}

    /**
     * The most distinct links kept per page; must not be negative. Later distinct links are
     * counted ({@link ParsedPage#linksOverCap()}), not kept. The default, 100,000, is above any
     * page of real documentation sites (the largest index page of the Rust docs has about 5,000
     * distinct links) and costs at most some tens of MiB per page being parsed: about 300 bytes per
     * kept link, while the parsed tree of a page that big already takes more.
     */
    public Builder maxOutlinks(int maxOutlinks) {
      if (maxOutlinks < 0) {
        throw new IllegalArgumentException("maxOutlinks < 0: " + maxOutlinks);
      }
      this.maxOutlinks = maxOutlinks;
      return this;
    }

    /** Whether to keep links marked nofollow by {@code rel} or the robots meta tag. */
    public Builder followNofollow(boolean followNofollow) {
      this.followNofollow = followNofollow;
      return this;
    }

    public LinkExtractor build() {
      return new LinkExtractor(this);
    }
  }
}
