package dev.sieve.robots;

import java.time.Duration;
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
     * assuming complete disallow. Host-wide and temporary: the rules are fetched again after the
     * policy's retry interval, so the URL may be retried later.
     */
    ROBOTS_UNREACHABLE,
    /**
     * The robots.txt asks for a {@code Crawl-delay} above the policy's maximum: the whole host is
     * skipped until its rules expire (see {@link #skipHost()}).
     */
    CRAWL_DELAY_TOO_LONG
  }

  private static final RobotsVerdict UNREACHABLE =
      new RobotsVerdict(Decision.ROBOTS_UNREACHABLE, null);

  private final Decision decision;
  private final Duration crawlDelay;

  private RobotsVerdict(Decision decision, Duration crawlDelay) {
    this.decision = decision;
    this.crawlDelay = crawlDelay;
  }

  static RobotsVerdict of(Decision decision, Optional<Duration> crawlDelay) {
    if (decision == Decision.ROBOTS_UNREACHABLE) {
      return UNREACHABLE;
    }
    return new RobotsVerdict(decision, crawlDelay.orElse(null));
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
        && Objects.equals(((RobotsVerdict) o).crawlDelay, crawlDelay);
  }

  @Override
  public int hashCode() {
    return Objects.hash(decision, crawlDelay);
  }

  @Override
  public String toString() {
    return crawlDelay == null
        ? "RobotsVerdict{" + decision + "}"
        : "RobotsVerdict{" + decision + ", crawl-delay " + crawlDelay + "}";
  }
}
