package dev.sieve.robots;

import crawlercommons.robots.BaseRobotRules;
import dev.sieve.url.Url;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * The robots.txt rules of one origin as fetched at one moment, already narrowed to this crawler's
 * agent token. Immutable and thread-safe; obtained from {@link RobotsPolicy}.
 */
public final class RobotsRules {

  /** How the rules were obtained, following RFC 9309 section 2.3.1. */
  public enum Source {
    /** A robots.txt was fetched (2xx, possibly after redirects) and parsed. */
    PARSED,
    /**
     * There is no robots.txt: a 4xx (other than 429), or no robots.txt reached within the
     * redirect limit. Everything is allowed.
     */
    UNAVAILABLE,
    /**
     * The robots.txt could not be fetched: a 5xx, a 429 or a network failure. Everything is
     * disallowed until the rules expire, which happens after the policy's retry interval.
     */
    UNREACHABLE
  }

  private final String origin;
  private final Source source;
  /** The parsed rules; null unless {@link #source} is {@link Source#PARSED}. */
  private final BaseRobotRules rules;
  private final Duration crawlDelay;
  private final Instant fetchedAt;
  private final Instant expiresAt;
  /** The number of robots.txt bytes parsed, for the cache's weigher. */
  private final int parsedBytes;
  /** Why the robots.txt could not be fetched; null unless {@link Source#UNREACHABLE}. */
  private final String failure;
  /** Fetches of this origin's robots.txt in a row that failed, this one included. */
  private final int failuresInARow;
  private final java.util.List<String> sitemaps;

  private RobotsRules(
      String origin,
      Source source,
      BaseRobotRules rules,
      Duration crawlDelay,
      Instant fetchedAt,
      Instant expiresAt,
      int parsedBytes,
      String failure,
      int failuresInARow) {
    this.origin = origin;
    this.source = source;
    this.rules = rules;
    this.crawlDelay = crawlDelay;
    this.fetchedAt = fetchedAt;
    this.expiresAt = expiresAt;
    this.parsedBytes = parsedBytes;
    this.failure = failure;
    this.failuresInARow = failuresInARow;
    this.sitemaps = rules == null ? java.util.List.of() : java.util.List.copyOf(rules.getSitemaps());
  }

  /**
   * Rules parsed from a robots.txt. A negative or unset crawler-commons crawl delay means none.
   * Callers must not modify {@code rules} afterwards.
   */
  static RobotsRules parsed(
      String origin, BaseRobotRules rules, Instant fetchedAt, Instant expiresAt, int parsedBytes) {
    long delayMs = rules.getCrawlDelay();
    Duration delay = delayMs >= 0 ? Duration.ofMillis(delayMs) : null;
    return new RobotsRules(
        origin, Source.PARSED, rules, delay, fetchedAt, expiresAt, parsedBytes, null, 0);
  }

  /** Allow-all or disallow-all rules without a robots.txt body. */
  static RobotsRules without(
      String origin, Source source, Instant fetchedAt, Instant expiresAt) {
    if (source == Source.PARSED) {
      throw new IllegalArgumentException("source (PARSED) needs parsed rules");
    }
    return new RobotsRules(origin, source, null, null, fetchedAt, expiresAt, 0, null, 0);
  }

  /**
   * Disallow-all rules after a failed fetch: {@code failure} names the cause ({@code connection
   * refused}, {@code http-503}…), the {@code failuresInARow}-th in a row for this origin.
   */
  static RobotsRules unreachable(
      String origin, String failure, int failuresInARow, Instant fetchedAt, Instant expiresAt) {
    return new RobotsRules(origin, Source.UNREACHABLE, null, null, fetchedAt, expiresAt, 0,
        failure, failuresInARow);
  }

  /** Why the robots.txt could not be fetched; empty unless {@link Source#UNREACHABLE}. */
  public Optional<String> failure() {
    return Optional.ofNullable(failure);
  }

  /** For unreachable rules, how many fetches of this origin's robots.txt failed in a row; else 0. */
  public int failuresInARow() {
    return failuresInARow;
  }

  /** The origin these rules govern, as {@link Url#origin()} spells it. */
  public String origin() {
    return origin;
  }

  /** How the rules were obtained. */
  public Source source() {
    return source;
  }

  /**
   * Whether the path rules let this crawler fetch {@code url}; only its path and query are
   * matched, so {@code url} is expected to belong to {@link #origin()}. Ignores the crawl delay:
   * {@link RobotsPolicy#check(Url)} is what also weighs that.
   */
  public boolean isAllowed(Url url) {
    return switch (source) {
      case PARSED -> rules.isAllowed(url.toString());
      case UNAVAILABLE -> true;
      case UNREACHABLE -> false;
    };
  }

  /**
   * The {@code Sitemap:} URLs the robots.txt names, as written there (they apply to every agent);
   * empty without a parsed robots.txt.
   */
  public java.util.List<String> sitemaps() {
    return sitemaps;
  }

  /** The {@code Crawl-delay} that applies to this crawler, if the robots.txt sets one. */
  public Optional<Duration> crawlDelay() {
    return Optional.ofNullable(crawlDelay);
  }

  /** When the robots.txt fetch finished, by the policy's clock. */
  public Instant fetchedAt() {
    return fetchedAt;
  }

  /** From this instant on the rules are stale and the next check fetches them again. */
  public Instant expiresAt() {
    return expiresAt;
  }

  boolean isExpired(Instant now) {
    return !now.isBefore(expiresAt);
  }

  int parsedBytes() {
    return parsedBytes;
  }

  @Override
  public String toString() {
    StringBuilder s = new StringBuilder("RobotsRules{").append(origin).append(' ').append(source);
    if (crawlDelay != null) {
      s.append(", crawl-delay ").append(crawlDelay);
    }
    if (failure != null) {
      s.append(", ").append(failure).append(" x").append(failuresInARow);
    }
    return s.append(", expires ").append(expiresAt).append('}').toString();
  }
}
