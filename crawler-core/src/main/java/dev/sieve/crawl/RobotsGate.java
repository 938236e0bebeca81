package dev.sieve.crawl;

import dev.sieve.fetch.FetchResult;
import dev.sieve.frontier.Frontier;
import dev.sieve.frontier.Lease;
import dev.sieve.robots.RobotsPolicy;
import dev.sieve.robots.RobotsVerdict;
import dev.sieve.url.Url;
import java.time.Duration;
import java.util.concurrent.Semaphore;
import java.util.function.Function;

/**
 * The robots.txt step of a URL's pipeline ({@link #allows}): applies the host's robots.txt,
 * fetching it first if needed, and ends or puts back the lease when the URL is not to be fetched
 * now. Thread-safe.
 */
final class RobotsGate {
  /** Null when robots.txt is ignored. */
  private final RobotsPolicy robots;
  private final Duration maxCrawlDelay;
  private final SitemapStep sitemaps;
  private final Frontier frontier;
  private final UnreachableHosts hosts;
  /** Permits for URLs still to be done under --max-pages; a URL put back gives its back. */
  private final Semaphore pageBudget;
  private final CrawlListener listener;

  RobotsGate(RobotsPolicy robots, CrawlConfig config, SitemapStep sitemaps, Frontier frontier,
      UnreachableHosts hosts, Semaphore pageBudget, CrawlListener listener) {
    this.robots = robots;
    this.maxCrawlDelay = config.robots.maxCrawlDelay();
    this.sitemaps = sitemaps;
    this.frontier = frontier;
    this.hosts = hosts;
    this.pageBudget = pageBudget;
    this.listener = listener;
  }

  /** The crawl's robots.txt policy fetching with {@code fetch}, or null when it is ignored. */
  static RobotsPolicy policy(CrawlConfig config, Function<String, FetchResult> fetch) {
    if (!config.robots.respect()) {
      return null;
    }
    Duration backoff = config.fetch.retryBackoff();
    return RobotsPolicy.builder()
        .settings(config.robots)
        .userAgent(config.fetch.userAgent())
        .fetch(fetch)
        .connectionRetryInterval(backoff.isZero() ? Duration.ofMillis(1) : backoff)
        .maxRedirects(config.fetch.maxRedirects())
        .clock(config.clock)
        .build();
  }

  /**
   * Applies the host's robots.txt, fetching it first if needed. A robots.txt fetch takes this
   * lease's politeness slot, so the URL goes back to wait for the next one. Returns whether to
   * fetch the URL now; otherwise the lease has been given back.
   */
  boolean allows(Recorder.Outcome outcome, Url url) {
    if (robots == null) {
      return true;
    }
    Lease lease = outcome.lease();
    boolean fetchesRobots = robots.cached(url).isEmpty();
    RobotsVerdict verdict = robots.check(url);
    if (fetchesRobots && !verdict.skipHost()) {
      sitemaps.fromRobots(url.origin(), verdict.sitemaps());
    }
    verdict.crawlDelay().ifPresent(delay -> frontier.setHostDelay(lease.hostKey(), delay));
    if (verdict.skipHost()) {
      int dropped = frontier.skipHost(lease.hostKey());
      outcome.count("skipped.host-skipped");
      pageBudget.release();
      outcome.finish();
      listener.onHostSkipped(lease.hostKey(),
          "robots.txt Crawl-delay " + verdict.crawlDelay().map(Duration::toString).orElse("?")
              + " is above the maximum " + maxCrawlDelay + "; " + (dropped + 1)
              + " URL(s) skipped");
      return false;
    }
    switch (verdict.decision()) {
      case ALLOWED:
        if (fetchesRobots) {
          pageBudget.release();
          frontier.putBack(lease);
          return false;
        }
        return true;
      case ROBOTS_UNREACHABLE:
        hosts.robotsUnreachable(outcome, url, verdict);
        return false;
      default:
        outcome.count("skipped.robots-denied");
        pageBudget.release();
        outcome.finish();
        return false;
    }
  }
}
