package dev.sieve.crawl;

import java.time.Duration;
import java.util.Map;

/**
 * A snapshot of a crawl's counters, for progress lines and the final summary.
 *
 * @param elapsed time since the crawl started
 * @param pages URLs done (one record each)
 * @param bytes body bytes kept
 * @param pending URLs waiting in the frontier
 * @param inFlight URLs being fetched
 * @param hosts politeness keys seen
 * @param errors records with an error, by kind ({@code http-404}, {@code timeout}…)
 * @param skipped URLs not fetched, by reason ({@code robots-denied}, {@code host-budget}, {@code
 *     host-skipped}, {@code filter-full}, and a redirect's target refused by the link filter:
 *     {@code out-of-scope}…); the links of pages are counted in {@code links}
 * @param retries fetches retried
 * @param linksFound links seen on pages
 * @param newLinks links the Sieve let through
 * @param sieveEstimate the Sieve's estimate of distinct URLs seen
 * @param sieveFpp the Sieve's estimated current false-positive rate
 * @param sieveLayers the Sieve's filter layers (more than 1 once a growing filter has grown)
 * @param capacityWarnings capacity warnings logged
 * @param links the fates of the links found on parsed pages: {@code found} first, then each
 *     {@link LinkFate} that occurred by its label ({@code new}, {@code seen}, {@code nofollow}…);
 *     the fates add up to {@code found}; they include the URLs listed in sitemaps
 * @param sitemaps sitemap files and what they listed: {@code fetched}, {@code failed}, {@code
 *     cut}, {@code from-sitemap} (URLs listed, each with its fate in {@code links}), {@code
 *     over-url-cap}, {@code cross-authority}, {@code over-authority-cap} (only those above 0)
 * @param connections fetches in flight and the connections they used
 * @param session what the crawl did as a browser does: {@code meta-refresh} (pages whose refresh
 *     was followed as their redirect), {@code cookie-refetch} (URLs fetched again with the cookie
 *     a redirect back to them set), {@code cookie-rejected} and {@code cookie-over-cap} (cookies
 *     not kept); only those above 0
 * @param refetches records of refetches in a recrawl ({@code pages} includes them)
 * @param notModified refetches answered {@code 304 Not Modified}
 * @param frontierOutages times the shared frontier (Redis) could not be reached and the crawl
 *     waited for it
 */
public record CrawlProgress(
    Duration elapsed,
    long pages,
    long bytes,
    long pending,
    long inFlight,
    int hosts,
    Map<String, Long> errors,
    Map<String, Long> skipped,
    long retries,
    long linksFound,
    long newLinks,
    long sieveEstimate,
    double sieveFpp,
    int sieveLayers,
    int capacityWarnings,
    Map<String, Long> links,
    Map<String, Long> sitemaps,
    Connections connections,
    Map<String, Long> session,
    long refetches,
    long notModified,
    long frontierOutages) {

  /**
   * Fetches in flight (now and at most) and the connections opened and reused for them.
   *
   * @param fetching fetches in flight now
   * @param mostFetching the most fetches in flight at once so far
   * @param opened connections opened (each a TCP, and for https a TLS, handshake)
   * @param reused requests sent on a connection kept open from an earlier one
   * @param stale requests sent again at once on a new connection because the kept one they were
   *     sent on had been closed by its peer (not retries)
   */
  public record Connections(int fetching, int mostFetching, long opened, long reused, long stale) {
    /** None yet. */
    public static final Connections NONE = new Connections(0, 0, 0, 0, 0);
  }

  /** Records with an error of any kind. */
  public long errorTotal() {
    return errors.values().stream().mapToLong(Long::longValue).sum();
  }

  /** Average pages per second since the start. */
  public double pagesPerSecond() {
    double seconds = elapsed.toNanos() / 1e9;
    return seconds <= 0 ? 0 : pages / seconds;
  }
}
