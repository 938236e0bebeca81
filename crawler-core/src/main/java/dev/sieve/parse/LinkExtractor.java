package dev.sieve.parse;

import dev.sieve.url.Url;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Extracts the followable links of an HTML page from {@code a[href]} and {@code area[href]}, and
 * as the builder asks from {@code frame/iframe[src]}, {@code link[href]} whose {@code rel} names a
 * page, and the target of a {@code <meta http-equiv=refresh>} (kept apart: {@link
 * ParsedPage#refresh()}), honouring {@code <base href>}, {@code rel="nofollow"} and robots meta
 * tags. The page is read by a
 * {@link LinkScanner}: by default the streaming one, which builds no DOM. Immutable, so thread-safe
 * and reusable. Never throws for web input: malformed or non-HTML bodies yield a possibly empty
 * {@link ParsedPage}.
 */
public final class LinkExtractor {

  private final int maxOutlinks;
  private final boolean followNofollow;
  private final LinkScanner scanner;
  private final boolean followFrames;
  private final boolean followLinkRel;
  private final boolean followRefresh;

  private LinkExtractor(Builder builder) {
    this.maxOutlinks = builder.maxOutlinks;
    this.followNofollow = builder.followNofollow;
    this.scanner = builder.scanner;
    this.followFrames = builder.followFrames;
    this.followLinkRel = builder.followLinkRel;
    this.followRefresh = builder.followRefresh;
  }

  /** The default {@code maxOutlinks}; see {@link Builder#maxOutlinks}. */
  public static final int DEFAULT_MAX_OUTLINKS = 100_000;

  /**
   * A builder with {@code maxOutlinks} {@value #DEFAULT_MAX_OUTLINKS}, {@code followNofollow}
   * false, the streaming scanner, and only {@code a} and {@code area} followed.
   */
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
    PageLinks page = scanner.scan(body, contentType);
    boolean nofollowPage = page.robotsNofollow();
    Url base = page.base() == null ? pageUrl : pageUrl.resolve(page.base()).orElse(pageUrl);
    Set<Url> links = new LinkedHashSet<>();
    int found = 0;
    int invalid = 0;
    int nofollow = 0;
    int duplicates = 0;
    int overCap = 0;
    Url refresh = null;
    for (PageLinks.Link link : page.links()) {
      if (link.kind() == PageLinks.Kind.REFRESH && followRefresh && refresh == null) {
        // A redirect of the page rather than a link on it: nofollow does not apply.
        found++;
        Optional<Url> target = base.resolve(link.target());
        refresh = target.orElse(null);
        invalid += target.isEmpty() ? 1 : 0;
        continue;
      }
      if (!follows(link)) {
        continue;
      }
      found++;
      Optional<Url> url = base.resolve(link.target());
      if (url.isEmpty()) {
        invalid++;
        continue;
      }
      if (nofollowPage || link.relNofollow()) {
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
        nofollowDropped, duplicates, overCap, refresh);
  }

  /** Whether {@code link} is one of the kinds followed as a link of the page. */
  private boolean follows(PageLinks.Link link) {
    return switch (link.kind()) {
      case ANCHOR -> true;
      case FRAME -> followFrames;
      case LINK -> followLinkRel && link.namesPage();
      case REFRESH -> false;
    };
  }

  /** Configures a {@link LinkExtractor}. */
  public static final class Builder {
    private int maxOutlinks = DEFAULT_MAX_OUTLINKS;
    private boolean followNofollow;
    private LinkScanner scanner = LinkScanner.streaming();
    private boolean followFrames;
    private boolean followLinkRel;
    private boolean followRefresh;

    private Builder() {}

    /** Whether {@code frame} and {@code iframe} {@code src} are links of the page (default no). */
    public Builder followFrames(boolean follow) {
      this.followFrames = follow;
      return this;
    }

    /**
     * Whether a {@code <link href>} whose {@code rel} names a page ({@code alternate}, {@code
     * next}, {@code prev}, {@code canonical}…; never a style sheet, icon or preload) is a link of
     * the page (default no).
     */
    public Builder followLinkRel(boolean follow) {
      this.followLinkRel = follow;
      return this;
    }

    /**
     * Whether the target of the page's first {@code <meta http-equiv=refresh>} is kept as {@link
     * ParsedPage#refresh()}, whatever its delay (default no).
     */
    public Builder followRefresh(boolean follow) {
      this.followRefresh = follow;
      return this;
    }

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

    /**
     * How pages are read: {@link LinkScanner#streaming()} (the default) or {@link
     * LinkScanner#dom()}, the Jsoup DOM it is tested against.
     */
    public Builder scanner(LinkScanner scanner) {
      this.scanner = Objects.requireNonNull(scanner, "scanner");
      return this;
    }

    public LinkExtractor build() {
      return new LinkExtractor(this);
    }
  }
}
