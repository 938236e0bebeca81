package dev.sieve.scope;

import dev.sieve.parse.LinkExtractor;
import dev.sieve.settings.Check;
import dev.sieve.url.Scope;
import java.util.Objects;

/**
 * Which links a crawl follows: its scope relative to the seeds and the limits that keep it out of
 * traps. Immutable; built with {@link #builder()} and validated once in {@link Builder#build()}.
 * Each default is a constant here, read by the builder and by the command line's option defaults.
 */
public final class ScopeSettings {
  /** Default {@link Builder#scope}, as {@link Scope#fromString} reads it. */
  public static final String DEFAULT_SCOPE = "host";
  /** Default {@link Builder#maxUrlLength}. */
  public static final int DEFAULT_MAX_URL_LENGTH = 2048;
  /** Default {@link Builder#maxOutlinks}. */
  public static final int DEFAULT_MAX_OUTLINKS = LinkExtractor.DEFAULT_MAX_OUTLINKS;
  /** Default {@link Builder#maxQueryVariants}. */
  public static final int DEFAULT_MAX_QUERY_VARIANTS = 100;
  /** Default {@link Builder#maxPathDepth}. */
  public static final int DEFAULT_MAX_PATH_DEPTH = 20;
  /** Default {@link Builder#maxRepeatedSegments}. */
  public static final int DEFAULT_MAX_REPEATED_SEGMENTS = 3;

  private final Scope scope;
  private final int maxDepth;
  private final int maxUrlLength;
  private final int maxOutlinks;
  private final int maxQueryVariants;
  private final int maxPathDepth;
  private final int maxRepeatedSegments;
  private final boolean followNofollow;
  private final boolean allowPrivate;
  private final UrlRules rules;
  private final boolean followRefresh;
  private final boolean followFrames;
  private final boolean followLinkRel;

  private ScopeSettings(Builder b) {
    this.scope = b.scope;
    this.maxDepth = b.maxDepth;
    this.maxUrlLength = b.maxUrlLength;
    this.maxOutlinks = b.maxOutlinks;
    this.maxQueryVariants = b.maxQueryVariants;
    this.maxPathDepth = b.maxPathDepth;
    this.maxRepeatedSegments = b.maxRepeatedSegments;
    this.followNofollow = b.followNofollow;
    this.allowPrivate = b.allowPrivate;
    this.rules = b.rules;
    this.followRefresh = b.followRefresh;
    this.followFrames = b.followFrames;
    this.followLinkRel = b.followLinkRel;
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Every setting at its default. */
  public static ScopeSettings defaults() {
    return builder().build();
  }

  public Scope scope() {
    return scope;
  }

  public int maxDepth() {
    return maxDepth;
  }

  public int maxUrlLength() {
    return maxUrlLength;
  }

  public int maxOutlinks() {
    return maxOutlinks;
  }

  public int maxQueryVariants() {
    return maxQueryVariants;
  }

  public int maxPathDepth() {
    return maxPathDepth;
  }

  public int maxRepeatedSegments() {
    return maxRepeatedSegments;
  }

  public boolean followNofollow() {
    return followNofollow;
  }

  public boolean allowPrivate() {
    return allowPrivate;
  }

  /** The {@code --include}/{@code --exclude} rules links must pass (default none). */
  public UrlRules rules() {
    return rules;
  }

  /** Whether a page's {@code <meta http-equiv=refresh>} target is followed as its redirect. */
  public boolean followRefresh() {
    return followRefresh;
  }

  /** Whether {@code frame} and {@code iframe} {@code src} are followed. */
  public boolean followFrames() {
    return followFrames;
  }

  /** Whether {@code <link href>} is followed where its {@code rel} names a page. */
  public boolean followLinkRel() {
    return followLinkRel;
  }

  /** A link extractor that follows what these settings say: nofollow, the caps, the kinds. */
  public LinkExtractor extractor() {
    return LinkExtractor.builder()
        .maxOutlinks(maxOutlinks)
        .followNofollow(followNofollow)
        .followRefresh(followRefresh)
        .followFrames(followFrames)
        .followLinkRel(followLinkRel)
        .build();
  }

  /** Scope and link limits; every value has a default. */
  public static final class Builder {
    private Scope scope = Scope.fromString(DEFAULT_SCOPE).orElseThrow();
    private int maxDepth = Integer.MAX_VALUE;
    private int maxUrlLength = DEFAULT_MAX_URL_LENGTH;
    private int maxOutlinks = DEFAULT_MAX_OUTLINKS;
    private int maxQueryVariants = DEFAULT_MAX_QUERY_VARIANTS;
    private int maxPathDepth = DEFAULT_MAX_PATH_DEPTH;
    private int maxRepeatedSegments = DEFAULT_MAX_REPEATED_SEGMENTS;
    private boolean followNofollow;
    private boolean allowPrivate;
    private java.util.List<String> include = java.util.List.of();
    private java.util.List<String> exclude = java.util.List.of();
    private UrlRules rules;
    private boolean followRefresh = true;
    private boolean followFrames = true;
    private boolean followLinkRel = true;

    private Builder() {}

    /**
     * Follow a page's {@code <meta http-equiv=refresh>} target as a redirect of the page, whatever
     * its delay (default true).
     */
    public Builder followRefresh(boolean follow) {
      this.followRefresh = follow;
      return this;
    }

    /** Follow {@code frame} and {@code iframe} {@code src} (default true). */
    public Builder followFrames(boolean follow) {
      this.followFrames = follow;
      return this;
    }

    /**
     * Follow {@code <link href>} where its {@code rel} names a page ({@code alternate}, {@code
     * next}, {@code prev}, {@code canonical}…), never style sheets, icons or preloads (default
     * true).
     */
    public Builder followLinkRel(boolean follow) {
      this.followLinkRel = follow;
      return this;
    }

    /** Which links are followed, relative to the seeds (default {@link Scope#HOST}). */
    public Builder scope(Scope scope) {
      this.scope = Objects.requireNonNull(scope, "scope");
      return this;
    }

    /** Follow links at most this deep; seeds are depth 0 (default unlimited). */
    public Builder maxDepth(int maxDepth) {
      this.maxDepth = maxDepth;
      return this;
    }

    /** Longer links are not followed (default 2,048). */
    public Builder maxUrlLength(int max) {
      this.maxUrlLength = max;
      return this;
    }

    /**
     * Distinct links taken from one page at most (default 100,000, see {@link
     * LinkExtractor.Builder#maxOutlinks}); the rest are counted {@code over-outlinks-cap} with a
     * WARN naming the page.
     */
    public Builder maxOutlinks(int max) {
      this.maxOutlinks = max;
      return this;
    }

    /**
     * Distinct query strings followed per (authority, path) at most (default 100); links with
     * further ones are counted {@code query-trap}, with one WARN per path.
     */
    public Builder maxQueryVariants(int max) {
      this.maxQueryVariants = max;
      return this;
    }

    /** Links with more path segments are not followed (default 20). */
    public Builder maxPathDepth(int max) {
      this.maxPathDepth = max;
      return this;
    }

    /** Links repeating one path segment more often are not followed (default 3). */
    public Builder maxRepeatedSegments(int max) {
      this.maxRepeatedSegments = max;
      return this;
    }

    /** Follow {@code rel=nofollow} links and links of {@code nofollow} pages (default false). */
    public Builder followNofollow(boolean follow) {
      this.followNofollow = follow;
      return this;
    }

    /**
     * Follow links to loopback, private, link-local and metadata addresses that are not a seed's
     * host (default false).
     */
    public Builder allowPrivate(boolean allow) {
      this.allowPrivate = allow;
      return this;
    }

    /**
     * Regular expressions a link, redirect target or sitemap-listed URL must match (with {@code
     * find()}, normalized) at least one of, if any is given (default none); see {@link UrlRules}.
     */
    public Builder include(java.util.List<String> regexes) {
      this.include = java.util.List.copyOf(regexes);
      return this;
    }

    /** Regular expressions no followed URL may match; an exclude wins (default none). */
    public Builder exclude(java.util.List<String> regexes) {
      this.exclude = java.util.List.copyOf(regexes);
      return this;
    }

    public ScopeSettings build() {
      rules = UrlRules.of(include, exclude);
      Check.atLeast("maxDepth", maxDepth, 0);
      Check.positive("maxUrlLength", maxUrlLength);
      Check.atLeast("maxOutlinks", maxOutlinks, 0);
      Check.positive("maxQueryVariants", maxQueryVariants);
      Check.positive("maxPathDepth", maxPathDepth);
      Check.positive("maxRepeatedSegments", maxRepeatedSegments);
      return new ScopeSettings(this);
    }
  }
}
