package dev.sieve.parse;

import dev.sieve.url.Url;
import java.util.List;

/**
 * The outlinks of one HTML page and counts describing them. Immutable. Every link found is
 * accounted for once: {@code linksFound = linksInvalid + linksNofollowDropped + linksDuplicate +
 * linksOverCap + links().size()}, plus 1 when {@link #refresh()} is present.
 */
public final class ParsedPage {

  private static final ParsedPage EMPTY = new ParsedPage(List.of(), 0, 0, false, 0, 0, 0, 0, null);

  private final List<Url> links;
  private final int linksFound;
  private final int linksInvalid;
  private final boolean nofollowPage;
  private final int linksNofollow;
  private final int linksNofollowDropped;
  private final int linksDuplicate;
  private final int linksOverCap;
  /** The meta refresh target, or null. */
  private final Url refresh;

  ParsedPage(
      List<Url> links,
      int linksFound,
      int linksInvalid,
      boolean nofollowPage,
      int linksNofollow,
      int linksNofollowDropped,
      int linksDuplicate,
      int linksOverCap,
      Url refresh) {
    this.links = List.copyOf(links);
    this.linksFound = linksFound;
    this.linksInvalid = linksInvalid;
    this.nofollowPage = nofollowPage;
    this.linksNofollow = linksNofollow;
    this.linksNofollowDropped = linksNofollowDropped;
    this.linksDuplicate = linksDuplicate;
    this.linksOverCap = linksOverCap;
    this.refresh = refresh;
  }

  /**
   * The target of the page's {@code <meta http-equiv=refresh>}, resolved against its base, when
   * the extractor follows refreshes: a redirect of the page, not one of {@link #links()}.
   */
  public java.util.Optional<Url> refresh() {
    return java.util.Optional.ofNullable(refresh);
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

  /** Nofollow links not kept because the extractor does not follow them. */
  public int linksNofollowDropped() {
    return linksNofollowDropped;
  }

  /** Followable links repeating one kept earlier on the page. */
  public int linksDuplicate() {
    return linksDuplicate;
  }

  /** Followable links past the extractor's {@code maxOutlinks} distinct ones, not kept. */
  public int linksOverCap() {
    return linksOverCap;
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
        + ", nofollowDropped="
        + linksNofollowDropped
        + ", duplicate="
        + linksDuplicate
        + ", overCap="
        + linksOverCap
        + (refresh == null ? "" : ", refresh=" + refresh)
        + "}";
  }
}
