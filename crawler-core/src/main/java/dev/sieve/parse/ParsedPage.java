package dev.sieve.parse;

import dev.sieve.url.Url;
import java.util.List;

/** The outlinks of one HTML page and counts describing them. Immutable. */
public final class ParsedPage {

  private static final ParsedPage EMPTY = new ParsedPage(List.of(), 0, 0, false, 0, false);

  private final List<Url> links;
  private final int linksFound;
  private final int linksInvalid;
  private final boolean nofollowPage;
  private final int linksNofollow;
  private final boolean linksCapped;

  ParsedPage(
      List<Url> links,
      int linksFound,
      int linksInvalid,
      boolean nofollowPage,
      int linksNofollow,
      boolean linksCapped) {
    this.links = List.copyOf(links);
    this.linksFound = linksFound;
    this.linksInvalid = linksInvalid;
    this.nofollowPage = nofollowPage;
    this.linksNofollow = linksNofollow;
    this.linksCapped = linksCapped;
  }

  /** A page with no links, for responses that are not parsed. */
  public static ParsedPage empty() {
    return EMPTY;
  }

  /**
   * The links to follow, in document order, each once (first occurrence kept), at most the
   * extractor's {@code maxOutlinks}.
   */
  public List<Url> links() {
    return links;
  }

  /** Every link href seen, including junk, duplicates and nofollow ones. */
  public int linksFound() {
    return linksFound;
  }

  /** Hrefs that did not resolve to an http(s) URL. */
  public int linksInvalid() {
    return linksInvalid;
  }

  /** True if a robots meta tag says {@code nofollow} or {@code none}. */
  public boolean nofollowPage() {
    return nofollowPage;
  }

  /**
   * Valid links marked nofollow, by their {@code rel} or by the page's robots meta tag, whether or
   * not the extractor was told to follow them anyway.
   */
  public int linksNofollow() {
    return linksNofollow;
  }

  /** True if the page had more distinct followable links than {@link #links()} holds. */
  public boolean linksCapped() {
    return linksCapped;
  }

  @Override
  public String toString() {
    return "ParsedPage{links="
        + links.size()
        + ", found="
        + linksFound
        + ", invalid="
        + linksInvalid
        + ", nofollowPage="
        + nofollowPage
        + ", nofollow="
        + linksNofollow
        + ", capped="
        + linksCapped
        + "}";
  }
}
