package dev.sieve.frontier;

import dev.sieve.url.Url;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * A URL handed to a worker by the {@link Frontier}: it must be given back exactly once, with
 * {@link Frontier#complete} or {@link Frontier#retry}.
 *
 * @param url the URL to fetch, parsed once when it was found
 * @param depth links followed from a seed to reach it (seeds are 0)
 * @param hostKey the politeness key it is scheduled under
 * @param attempt 0 for the first try, then 1, 2… for retries
 * @param redirectChain the URLs whose redirects led here, oldest first (empty for a link)
 * @param via the URL it was found through: the page whose link it was, the redirect's source, or
 *     the sitemap that listed it; null for a seed
 * @param lastmod when its sitemap says it last changed; null when it came from no sitemap or the
 *     sitemap gave no date
 * @param last what a recrawling frontier kept of the URL's last fetch; null before its first
 *     (and in a frontier that does not recrawl)
 */
public record Lease(
    Url url, int depth, String hostKey, int attempt, List<String> redirectChain, String via,
    Instant lastmod, LastFetch last) {
  public Lease {
    Objects.requireNonNull(url, "url");
    Objects.requireNonNull(hostKey, "hostKey");
    redirectChain = List.copyOf(redirectChain);
  }

  /** A lease of a URL never fetched before. */
  public Lease(Url url, int depth, String hostKey, int attempt, List<String> redirectChain,
      String via, Instant lastmod) {
    this(url, depth, hostKey, attempt, redirectChain, via, lastmod, null);
  }

  /** A lease with no referrer and no lastmod (a seed's). */
  public Lease(Url url, int depth, String hostKey, int attempt, List<String> redirectChain) {
    this(url, depth, hostKey, attempt, redirectChain, null, null);
  }

  /**
   * Reads back a URL this program stored (spilled, journaled, queued in Redis), as {@link
   * Url#toString()} wrote it: the frontier's own records hold only URLs it parsed.
   *
   * @throws IllegalStateException naming the text when it is not an http(s) URL
   */
  public static Url stored(String url) {
    return Url.parse(url).orElseThrow(
        () -> new IllegalStateException("stored URL is not an http(s) URL: " + url));
  }

  /**
   * The URL's hash (cached by its String) and the attempt: consistent with the record's equals, and
   * cheaper than the generated hash of every component, which the frontier pays on each take and
   * completion.
   */
  @Override
  public int hashCode() {
    return 31 * url.hashCode() + attempt;
  }

  /**
   * Equal when every component but {@link #last} is: what a worker learnt of the fetch ({@link
   * #fetched}) does not make it another lease.
   */
  @Override
  public boolean equals(Object other) {
    return other instanceof Lease that && url.equals(that.url) && attempt == that.attempt
        && depth == that.depth && hostKey.equals(that.hostKey)
        && redirectChain.equals(that.redirectChain) && Objects.equals(via, that.via)
        && Objects.equals(lastmod, that.lastmod);
  }

  /** This lease given back with {@code last}, what its fetch left for a recrawl to use. */
  public Lease fetched(LastFetch last) {
    return new Lease(url, depth, hostKey, attempt, redirectChain, via, lastmod, last);
  }

  /** The URL's next fetch in a recrawl: a first attempt again, remembering its last fetch. */
  public Lease refetch() {
    return new Lease(url, depth, hostKey, 0, redirectChain, via, lastmod, last);
  }

  /** 0 for a URL's first fetch, then 1, 2… for each refetch. */
  public int refetchNumber() {
    return last == null ? 0 : last.fetches();
  }

  /** This URL again, one attempt later. */
  public Lease nextAttempt() {
    return new Lease(url, depth, hostKey, attempt + 1, redirectChain, via, lastmod, last);
  }
}
