package dev.sieve.parse;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * What an HTML page says about where to go next, before any URL is resolved: every link-bearing
 * attribute found, in document order, with raw (character-reference-decoded) values, the first
 * {@code <base href>}, and the robots meta flags. Immutable. Two scans of a page agree when {@link
 * #sameAs} holds: the same link set, base and flags (document order is not compared: a DOM may move
 * an element misplaced in a table ahead of the table).
 */
public final class PageLinks {

  /** Which element and attribute a link came from. */
  public enum Kind {
    /** {@code a href} or {@code area href}: the links a crawler follows. */
    ANCHOR,
    /**
     * {@code link href} (style sheets, icons, alternates): {@link Link#namesPage()} tells the ones
     * whose {@code rel} names a page.
     */
    LINK,
    /** {@code frame src} or {@code iframe src}. */
    FRAME,
    /** The URL of {@code <meta http-equiv="refresh" content="N; url=...">}. */
    REFRESH
  }

  /**
   * One link: its kind, its raw target, whether its {@code rel} says nofollow, and, for a {@link
   * Kind#LINK}, whether its {@code rel} names a page ({@code next}, {@code alternate}…: see {@link
   * LinkRules#namesPage}) rather than a resource of this one (a style sheet, an icon…).
   */
  public record Link(Kind kind, String target, boolean relNofollow, boolean namesPage) {
    public Link {
      Objects.requireNonNull(kind, "kind");
      Objects.requireNonNull(target, "target");
    }

    /** A link that names no page by its {@code rel}. */
    public Link(Kind kind, String target, boolean relNofollow) {
      this(kind, target, relNofollow, false);
    }
  }

  private static final PageLinks EMPTY = new Builder().build();

  private final List<Link> links;
  private final String base;
  private final boolean robotsNofollow;
  private final boolean robotsNoindex;

  private PageLinks(Builder builder) {
    this.links = List.copyOf(builder.links);
    this.base = builder.base;
    this.robotsNofollow = builder.robotsNofollow;
    this.robotsNoindex = builder.robotsNoindex;
  }

  /** A page without links or flags. */
  public static PageLinks empty() {
    return EMPTY;
  }

  static Builder builder() {
    return new Builder();
  }

  /** Every link, in the order the scan met it, duplicates included. */
  public List<Link> links() {
    return links;
  }

  /** The raw href of the first {@code <base>} that has one, or null. */
  public String base() {
    return base;
  }

  /** True if a robots meta tag says {@code nofollow} or {@code none}. */
  public boolean robotsNofollow() {
    return robotsNofollow;
  }

  /** True if a robots meta tag says {@code noindex} or {@code none}. */
  public boolean robotsNoindex() {
    return robotsNoindex;
  }

  /** True if {@code other} has the same set of links, the same base and the same robots flags. */
  public boolean sameAs(PageLinks other) {
    return difference(other).isEmpty();
  }

  /**
   * What differs from {@code other}, one line per difference ("only here: ...", "only there: ...",
   * "base: ..."), empty if they agree.
   */
  public List<String> difference(PageLinks other) {
    List<String> lines = new ArrayList<>();
    if (!Objects.equals(base, other.base)) {
      lines.add("base: " + quote(base) + " vs " + quote(other.base));
    }
    if (robotsNofollow != other.robotsNofollow || robotsNoindex != other.robotsNoindex) {
      lines.add("robots nofollow/noindex: " + robotsNofollow + "/" + robotsNoindex + " vs "
          + other.robotsNofollow + "/" + other.robotsNoindex);
    }
    Set<Link> here = new LinkedHashSet<>(links);
    Set<Link> there = new LinkedHashSet<>(other.links);
    for (Link link : here) {
      if (!there.contains(link)) {
        lines.add("only here: " + describe(link));
      }
    }
    for (Link link : there) {
      if (!here.contains(link)) {
        lines.add("only there: " + describe(link));
      }
    }
    return lines;
  }

  private static String describe(Link link) {
    return link.kind() + " " + quote(link.target()) + (link.relNofollow() ? " rel=nofollow" : "")
        + (link.namesPage() ? " names-page" : "");
  }

  private static String quote(String s) {
    return s == null ? "null" : '"' + s + '"';
  }

  @Override
  public String toString() {
    return "PageLinks{links=" + links.size() + ", base=" + quote(base) + ", robotsNofollow="
        + robotsNofollow + ", robotsNoindex=" + robotsNoindex + "}";
  }

  /** Gathers a page's links as a scan meets them. */
  static final class Builder {
    private final List<Link> links = new ArrayList<>();
    private String base;
    private boolean robotsNofollow;
    private boolean robotsNoindex;

    private Builder() {}

    void link(Kind kind, String target, boolean relNofollow) {
      links.add(new Link(kind, target, relNofollow));
    }

    void link(Kind kind, String target, boolean relNofollow, boolean namesPage) {
      links.add(new Link(kind, target, relNofollow, namesPage));
    }

    /** Records {@code href} as the base unless an earlier one was. */
    void base(String href) {
      if (base == null) {
        base = href;
      }
    }

    void robots(boolean nofollow, boolean noindex) {
      robotsNofollow |= nofollow;
      robotsNoindex |= noindex;
    }

    PageLinks build() {
      return new PageLinks(this);
    }
  }
}
