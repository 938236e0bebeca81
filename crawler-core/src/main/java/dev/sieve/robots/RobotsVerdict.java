package dev.sieve.robots;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What robots.txt says about fetching one URL, as returned by {@link RobotsPolicy#check}.
 * Immutable and thread-safe.
 */
public final class RobotsVerdict {

  /** The decision and, when the URL is denied, why. */
  public enum Decision {
    /** The URL may be fetched, waiting {@link #crawlDelay()} between requests if present. */
    ALLOWED,
    /** A {@code Disallow} rule of the group that applies to this crawler matches the URL. */
    DISALLOWED_BY_RULE,
    /**
     * The robots.txt could not be fetched (5xx, 429 or network failure), so RFC 9309 requires
     * assuming complete disallow. Host-wide and temporary: the rules are fetched again from
     * {@link #retryAt()} on, so the URL may be retried then; {@link #failure()} names the cause.
     */
    ROBOTS_UNREACHABLE,
    /**
     * The robots.txt asks for a {@code Crawl-delay} above the policy's maximum: the whole host is
     * skipped until its rules expire (see {@link #skipHost()}).
     */
    CRAWL_DELAY_TOO_LONG
  }

  private final Decision decision;
  private final Duration crawlDelay;
  /** The unreachable rules behind a {@link Decision#ROBOTS_UNREACHABLE}; else null. */
  private final RobotsRules unreachable;
  /** The {@code Sitemap:} lines of the robots.txt behind this verdict. */
  private final List<String> sitemaps;

  private RobotsVerdict(Decision decision, Duration crawlDelay, RobotsRules unreachable,
      List<String> sitemaps) {
    this.decision = decision;
    this.crawlDelay = crawlDelay;
    this.unreachable = unreachable;
    this.sitemaps = sitemaps;
  }

  static RobotsVerdict of(Decision decision, Optional<Duration> crawlDelay) {
    return of(decision, crawlDelay, List.of());
  }

  static RobotsVerdict of(Decision decision, Optional<Duration> crawlDelay, List<String> sitemaps) {
    if (decision == Decision.ROBOTS_UNREACHABLE) {
      throw new IllegalArgumentException("an unreachable verdict needs its rules");
    }
    return new RobotsVerdict(decision, crawlDelay.orElse(null), null, List.copyOf(sitemaps));
  }

  /** The verdict of disallow-all {@code rules} whose robots.txt could not be fetched. */
  static RobotsVerdict unreachable(RobotsRules rules) {
    return new RobotsVerdict(Decision.ROBOTS_UNREACHABLE, null, rules, List.of());
  }

  /**
   * The sitemaps the origin's robots.txt names ({@code Sitemap:} lines, as written), whatever the
   * decision; empty when it has none or could not be fetched.
   */
  public List<String> sitemaps() {
    return sitemaps;
  }

  /**
   * Why the robots.txt could not be fetched, e.g. {@code connection refused} or {@code
   * http-503}; empty unless the decision is {@link Decision#ROBOTS_UNREACHABLE}.
   */
  public Optional<String> failure() {
    return unreachable == null ? Optional.empty() : unreachable.failure();
  }

  /** How many fetches of the robots.txt failed in a row; 0 unless unreachable. */
  public int failuresInARow() {
    return unreachable == null ? 0 : unreachable.failuresInARow();
  }

  /** When an unreachable robots.txt will be fetched again; empty unless unreachable. */
  public Optional<java.time.Instant> retryAt() {
    return unreachable == null ? Optional.empty() : Optional.of(unreachable.expiresAt());
  }

  /** The decision. */
  public Decision decision() {
    return decision;
  }

  /** Whether the URL may be fetched, i.e. {@code decision() == ALLOWED}. */
  public boolean allowed() {
    return decision == Decision.ALLOWED;
  }

  /**
   * The {@code Crawl-delay} the host's robots.txt asks of this crawler; empty when it sets none
   * or could not be fetched. Present also on denials, for logging.
   */
  public Optional<Duration> crawlDelay() {
    return Optional.ofNullable(crawlDelay);
  }

  /**
   * Whether every URL of the host is to be skipped because its {@code Crawl-delay} exceeds the
   * policy's maximum; the same as {@code decision() == CRAWL_DELAY_TOO_LONG}.
   */
  public boolean skipHost() {
    return decision == Decision.CRAWL_DELAY_TOO_LONG;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof RobotsVerdict
        && ((RobotsVerdict) o).decision == decision
        && Objects.equals(((RobotsVerdict) o).crawlDelay, crawlDelay)
        && Objects.equals(((RobotsVerdict) o).unreachable, unreachable);
  }

  @Override
  public int hashCode() {
    return Objects.hash(decision, crawlDelay);
  }

  @Override
  public String toString() {
    if (unreachable != null) {
      return "RobotsVerdict{" + decision + ", " + unreachable.failure().orElse("?") + "}";
    }
    return crawlDelay == null
        ? "RobotsVerdict{" + decision + "}"
        : "RobotsVerdict{" + decision + ", crawl-delay " + crawlDelay + "}";
  }
}
