package dev.sieve.app;

import dev.sieve.scope.ScopeSettings;
import picocli.CommandLine.Option;

/**
 * {@code crawl}'s options for which links are followed: the caps against long, many, deep and
 * repeating links (crawler traps), nofollow, the kinds followed beyond a and area (meta refresh,
 * frames, link rel), and private addresses.
 */
final class LinkOptions {
  @Setting("maxUrlLength")
  @Option(names = "--max-url-length", defaultValue = "" + ScopeSettings.DEFAULT_MAX_URL_LENGTH, paramLabel = "N",
      description = "Longer links are not followed (default ${DEFAULT-VALUE}).")
  int maxUrlLength;

  @Setting("maxOutlinks")
  @Option(names = "--max-outlinks", defaultValue = "" + ScopeSettings.DEFAULT_MAX_OUTLINKS, paramLabel = "N",
      description = "Distinct links taken from one page at most; the rest are counted"
          + " over-outlinks-cap, with a WARN (default ${DEFAULT-VALUE}).")
  int maxOutlinks;

  @Setting("maxQueryVariants")
  @Option(names = "--max-query-variants", defaultValue = "" + ScopeSettings.DEFAULT_MAX_QUERY_VARIANTS, paramLabel = "N",
      description = "Distinct query strings followed per (authority, path) at most; the rest are"
          + " counted query-trap, with one WARN per path (default ${DEFAULT-VALUE}).")
  int maxQueryVariants;

  @Setting("maxPathDepth")
  @Option(names = "--max-path-depth", defaultValue = "" + ScopeSettings.DEFAULT_MAX_PATH_DEPTH, paramLabel = "N",
      description = "Links with more path segments are not followed (default ${DEFAULT-VALUE}).")
  int maxPathDepth;

  @Setting("maxRepeatedSegments")
  @Option(names = "--max-repeated-segments", defaultValue = "" + ScopeSettings.DEFAULT_MAX_REPEATED_SEGMENTS, paramLabel = "N",
      description = "Links repeating one path segment more often are not followed: /a/a/a/a/… traps (default ${DEFAULT-VALUE}).")
  int maxRepeatedSegments;

  @Option(names = "--ignore-nofollow", description = "Follow rel=nofollow links and links of nofollow pages.")
  boolean ignoreNofollow;

  @Option(names = "--no-meta-refresh",
      description = "Do not follow a page's <meta http-equiv=refresh> target (followed by default as"
          + " the page's redirect, whatever its delay, counted meta-refresh).")
  boolean noMetaRefresh;

  @Option(names = "--no-frames", description = "Do not follow frame and iframe src (followed by default).")
  boolean noFrames;

  @Option(names = "--no-link-rel",
      description = "Do not follow <link href> whose rel names a page: alternate, next, prev,"
          + " canonical… (followed by default; style sheets, icons and preloads never are).")
  boolean noLinkRel;

  @Option(names = "--allow-private",
      description = "Follow links to loopback/private/link-local addresses other than the seeds' hosts.")
  boolean allowPrivate;

  /** Sets the link limits of {@code links}; the builder validates them. */
  ScopeSettings.Builder applyTo(ScopeSettings.Builder links) {
    return links.maxUrlLength(maxUrlLength)
        .maxOutlinks(maxOutlinks)
        .maxQueryVariants(maxQueryVariants)
        .maxPathDepth(maxPathDepth)
        .maxRepeatedSegments(maxRepeatedSegments)
        .followNofollow(ignoreNofollow)
        .followRefresh(!noMetaRefresh)
        .followFrames(!noFrames)
        .followLinkRel(!noLinkRel)
        .allowPrivate(allowPrivate);
  }
}
