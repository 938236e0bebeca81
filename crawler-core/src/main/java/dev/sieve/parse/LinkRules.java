package dev.sieve.parse;

import java.util.Locale;
import java.util.Set;

/**
 * Which elements and attributes carry links, shared by every scanner so that they differ only in
 * how they find elements: {@code a/area/link href}, {@code frame/iframe src}, the first {@code
 * <base href>}, {@code <meta name=robots>} and {@code <meta http-equiv=refresh>}.
 */
final class LinkRules {

  /** An element's attributes: names are lower case, the first of duplicates wins. */
  interface Attributes {
    /** The value of attribute {@code name}, "" if it has none, null if absent. */
    String get(String name);
  }

  /** The attributes {@link #attributeMatters}. */
  static final Set<String> ATTRIBUTES = Set.of("href", "rel", "src", "name", "content",
      "http-equiv", "charset", "color", "face", "size", "encoding");

  private LinkRules() {}

  /** True if elements named {@code name} (lower case) can carry a link or a flag. */
  static boolean matters(String name) {
    switch (name) {
      case "a", "area", "link", "base", "meta", "frame", "iframe":
        return true;
      default:
        return false;
    }
  }

  /**
   * True if an attribute named {@code name} (lower case) is read by these rules or by the tree
   * rules (font colour, face and size; annotation-xml encoding).
   */
  static boolean attributeMatters(String name) {
    return ATTRIBUTES.contains(name);
  }

  /** Adds what element {@code name} with {@code attributes} says to {@code page}. */
  static void apply(String name, Attributes attributes, PageLinks.Builder page) {
    switch (name) {
      case "a", "area" -> href(PageLinks.Kind.ANCHOR, attributes, page);
      case "link" -> href(PageLinks.Kind.LINK, attributes, page);
      case "frame", "iframe" -> {
        String src = attributes.get("src");
        if (src != null) {
          page.link(PageLinks.Kind.FRAME, src, false);
        }
      }
      case "base" -> {
        String href = attributes.get("href");
        if (href != null) {
          page.base(href);
        }
      }
      case "meta" -> meta(attributes, page);
      default -> { }
    }
  }

  private static void href(PageLinks.Kind kind, LinkRules.Attributes attributes,
      PageLinks.Builder page) {
    String href = attributes.get("href");
    if (href != null) {
      String rel = attributes.get("rel");
      page.link(kind, href, rel != null && hasToken(rel, "nofollow"),
          kind == PageLinks.Kind.LINK && rel != null && namesPage(rel));
    }
  }

  /**
   * The {@code rel} values of a {@code <link>} that name another page a reader could go to (HTML's
   * and the IANA registry's navigation relations), as opposed to a resource of this page.
   */
  private static final Set<String> PAGE_RELS = Set.of("alternate", "next", "prev", "previous",
      "canonical", "first", "last", "up", "index", "contents", "toc", "start", "home", "top",
      "help", "glossary", "chapter", "section", "subsection", "appendix", "copyright", "license",
      "author", "bookmark");
  /** Relations that make a {@code <link>} a resource even beside a page relation. */
  private static final Set<String> RESOURCE_RELS = Set.of("stylesheet", "icon", "shortcut",
      "apple-touch-icon", "mask-icon", "manifest", "preload", "prefetch", "modulepreload",
      "dns-prefetch", "preconnect", "prerender", "pingback", "search", "edituri", "wlwmanifest");

  /**
   * True if a {@code <link>}'s {@code rel} names a page: one of its tokens is a page relation
   * ({@code alternate}, {@code next}, {@code prev}, {@code canonical}…) and none a resource one
   * ({@code stylesheet}, {@code icon}, {@code preload}…), so {@code "alternate stylesheet"} does
   * not.
   */
  static boolean namesPage(String rel) {
    String lower = lowerCase(rel);
    boolean page = false;
    int start = 0;
    // Tokens between runs of commas and the whitespace regex \s matches (space, tab to carriage
    // return), found by hand: String.split would compile a regex for every <link> of every page.
    for (int i = 0; i <= lower.length(); i++) {
      if (i < lower.length() && !isSpaceOrComma(lower.charAt(i))) {
        continue;
      }
      if (i > start) {
        String token = lower.substring(start, i);
        if (RESOURCE_RELS.contains(token)) {
          return false;
        }
        page |= PAGE_RELS.contains(token);
      }
      start = i + 1;
    }
    return page;
  }

  /** What the regex {@code [\s,]} matches: narrower than {@link #isSeparator}. */
  private static boolean isSpaceOrComma(char c) {
    return c == ' ' || c == ',' || (c >= '\t' && c <= '\r');
  }

  private static void meta(Attributes attributes, PageLinks.Builder page) {
    String content = attributes.get("content");
    if (content == null) {
      content = "";
    }
    String metaName = attributes.get("name");
    if (metaName != null && metaName.trim().equalsIgnoreCase("robots")) {
      boolean none = hasToken(content, "none");
      page.robots(none || hasToken(content, "nofollow"), none || hasToken(content, "noindex"));
    }
    String equiv = attributes.get("http-equiv");
    if (equiv != null && equiv.trim().equalsIgnoreCase("refresh")) {
      String url = refreshUrl(content);
      if (url != null) {
        page.link(PageLinks.Kind.REFRESH, url, false);
      }
    }
  }

  /**
   * The URL of a refresh {@code content} such as {@code "5; url='next.html'"}, or null if it has
   * none: after the delay and a {@code ;} or {@code ,}, an optional {@code url=}, quotes removed.
   */
  static String refreshUrl(String content) {
    int i = 0;
    int n = content.length();
    while (i < n && (Character.isWhitespace(content.charAt(i)) || isDelayChar(content.charAt(i)))) {
      i++;
    }
    if (i < n && (content.charAt(i) == ';' || content.charAt(i) == ',')) {
      i++;
    }
    while (i < n && Character.isWhitespace(content.charAt(i))) {
      i++;
    }
    if (content.regionMatches(true, i, "url", 0, 3)) {
      int j = i + 3;
      while (j < n && Character.isWhitespace(content.charAt(j))) {
        j++;
      }
      if (j < n && content.charAt(j) == '=') {
        i = j + 1;
        while (i < n && Character.isWhitespace(content.charAt(i))) {
          i++;
        }
      }
    }
    String url = content.substring(i).trim();
    if (!url.isEmpty() && (url.charAt(0) == '"' || url.charAt(0) == '\'')) {
      int close = url.indexOf(url.charAt(0), 1);
      url = url.substring(1, close < 0 ? url.length() : close).trim();
    }
    return url.isEmpty() ? null : url;
  }

  private static boolean isDelayChar(char c) {
    return (c >= '0' && c <= '9') || c == '.';
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
      if (i - start == token.length()
          && list.regionMatches(true, start, token, 0, token.length())) {
        return true;
      }
    }
    return false;
  }

  private static boolean isSeparator(char c) {
    return c == ',' || Character.isWhitespace(c);
  }

  static String lowerCase(String s) {
    return s.toLowerCase(Locale.ENGLISH);
  }
}
