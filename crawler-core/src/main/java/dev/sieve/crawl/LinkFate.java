package dev.sieve.crawl;

import java.util.Locale;

/**
 * What became of one link found on a page. Each link found gets exactly one fate, so a page's
 * fates add up to the links found on it ({@link LinkCounts}).
 */
public enum LinkFate {
  /** Let through by the Sieve and queued. */
  NEW,
  /**
   * Not queued because already known: earlier on the same page, or seen by the Sieve. Also the
   * few new URLs the frontier itself did not queue (host budget, skipped host, full filter), which
   * the frontier counts under {@code skipped}.
   */
  SEEN,
  /** Outside the crawl's {@code --scope}. */
  OUT_OF_SCOPE,
  /** Refused by the {@code --include}/{@code --exclude} rules. */
  EXCLUDED,
  /** Disallowed by the target's robots.txt, already fetched and cached when the link was found. */
  ROBOTS_DENIED,
  /** Marked {@code rel=nofollow}, or on a page whose robots meta tag says nofollow. */
  NOFOLLOW,
  /** An href that does not resolve to an http(s) URL. */
  INVALID,
  /** Longer than {@code --max-url-length}. */
  TOO_LONG,
  /** Past the page's {@code --max-outlinks} distinct links (a WARN names the page). */
  OVER_OUTLINKS_CAP,
  /** Deeper than {@code --max-depth}. */
  OVER_DEPTH,
  /** Too many path segments, or one segment repeated too often. */
  PATH_TRAP,
  /** A new query string past {@code --max-query-variants} for its (authority, path). */
  QUERY_TRAP,
  /** A loopback, private or link-local address other than a seed's host. */
  PRIVATE_ADDRESS;

  private final String label = name().toLowerCase(Locale.ROOT).replace('_', '-');

  /** The name in counters and output: {@code new}, {@code out-of-scope}, … */
  public String label() {
    return label;
  }
}
