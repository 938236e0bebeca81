package dev.sieve.crawl;

import dev.sieve.fetch.ConnectionFailure;
import dev.sieve.fetch.FetchResult;
import dev.sieve.robots.RobotsPolicy;
import dev.sieve.robots.RobotsRules;
import dev.sieve.sitemap.ReadSitemaps;
import dev.sieve.sitemap.SitemapContent;
import dev.sieve.sitemap.SitemapQueue;
import dev.sieve.sitemap.SitemapReader;
import dev.sieve.sitemap.SitemapSettings;
import dev.sieve.url.Url;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the crawl's sitemaps: those given with {@code --sitemap} and those robots.txt names, and
 * the sitemaps their indexes list. A sitemap is read only from its own authority's politeness
 * slot, as robots.txt is: {@link #readNext} fetches the next sitemap of a leased URL's authority,
 * and the pipeline then puts the lease back. Each sitemap is fetched once per run and only if it
 * is on the authority of the robots.txt or index naming it (others are counted {@code
 * cross-authority}). The URLs it lists get a link fate each, like a page's links, at depth 1, and
 * the followable ones go to the frontier through {@link #pushListed}.
 *
 * <p>With a state directory, the sitemaps read are noted in {@link ReadSitemaps} with what their
 * reading counted ({@code sitemap.*} and the listed URLs' {@code link.*} fates), so a resumed
 * crawl does not read them again and adds those counts back: they are not journaled with a URL,
 * since a sitemap is read in a slot the URL then gives back. Thread-safe.
 */
final class SitemapStep {
  private static final Logger log = LoggerFactory.getLogger(SitemapStep.class);
  /** The depth of a URL listed in a sitemap: one step from a seed, as a seed's links are. */
  static final int LISTED_DEPTH = 1;

  private final SitemapQueue queue;
  private final SitemapReader reader;
  private final Function<String, FetchResult> fetch;
  /** Null when robots.txt is ignored. */
  private final RobotsPolicy robots;
  private final LinkClassifier linkFates;
  private final dev.sieve.frontier.Frontier frontier;
  /** Makes the frontier's changes so far durable (its journal). */
  private final Runnable flushLog;
  private final Consumer<Map<String, Long>> counters;
  private final ReadSitemaps memo;
  private final int maxPerAuthority;
  /** Authorities that hit the cap of sitemaps, each logged once. */
  private final java.util.Set<String> capped = java.util.concurrent.ConcurrentHashMap.newKeySet();

  /**
   * Reads {@code settings}' sitemaps and those found later, not those {@code memo} says were read
   * before a resume, through {@code fetch}; counts into {@code counters}.
   */
  SitemapStep(SitemapSettings settings, Function<String, FetchResult> fetch, RobotsPolicy robots,
      LinkClassifier linkFates, dev.sieve.frontier.Frontier frontier, Runnable flushLog,
      Consumer<Map<String, Long>> counters, ReadSitemaps memo) {
    this.queue = new SitemapQueue(settings.maxPerAuthority());
    this.reader = new SitemapReader(settings);
    this.fetch = fetch;
    this.robots = robots;
    this.linkFates = linkFates;
    this.frontier = frontier;
    this.flushLog = flushLog;
    this.counters = counters;
    this.memo = memo;
    this.maxPerAuthority = settings.maxPerAuthority();
    counters.accept(memo.countsBefore());
    for (String read : memo.before()) {
      Url.parse(read).ifPresent(sitemap -> queue.readBefore(sitemap.origin(), sitemap.toString()));
    }
    for (Url sitemap : settings.sitemaps()) {
      offer(sitemap.origin(), sitemap.toString(), "--sitemap");
    }
  }

  /** Queues the sitemaps of {@code origin}'s robots.txt (its {@code Sitemap:} lines). */
  void fromRobots(String origin, List<String> sitemaps) {
    for (String line : sitemaps) {
      offer(origin, line, "robots.txt of " + origin);
    }
  }

  /**
   * Fetches and reads the next sitemap of {@code url}'s authority, if one waits; returns whether
   * a request was made (then the caller's politeness slot is used up).
   */
  boolean readNext(Url url) {
    String next;
    while ((next = queue.next(url.origin())) != null) {
      Url sitemap = Url.parse(next).orElseThrow();
      if (robotsDenies(sitemap)) {
        failed(sitemap, "robots-denied");
        continue;
      }
      read(sitemap, fetch.apply(sitemap.toString()));
      return true;
    }
    return false;
  }

  /** Logs and counts the sitemaps never read because no URL of their authority came up. */
  void close() {
    memo.close();
    queue.waiting().forEach((origin, waiting) -> {
      log.warn("{} sitemap(s) of {} not read: no URL of {} was taken after they were found",
          waiting, origin, origin);
      count("unread", waiting);
    });
  }

  private void read(Url sitemap, FetchResult result) {
    if (result.error() != null) {
      failed(sitemap, ConnectionFailure.cause(result).orElse(result.error().label()));
      return;
    }
    if (result.isRedirect()) {
      Optional<Url> target = result.redirectLocation().flatMap(sitemap::resolve);
      if (target.isEmpty()) {
        failed(sitemap, "bad-redirect");
      } else {
        log.debug("Sitemap {} redirects to {}", sitemap, target.get());
        offer(sitemap.origin(), target.get().toString(), "the redirect of " + sitemap);
      }
      return;
    }
    if (!result.isSuccess()) {
      failed(sitemap, "http-" + result.status());
      return;
    }
    SitemapContent content = reader.read(sitemap, result.body(), result.truncated());
    Map<String, Long> delta = new HashMap<>();
    if (content.cut()) {
      delta.put(CrawlStats.SITEMAP + "cut", 1L);
      log.info("Sitemap {} is larger than the caps (--max-sitemap-bytes after gunzip,"
          + " --max-body-bytes as fetched): reading its first part only", sitemap);
    }
    if (content.failure() != null) {
      counters.accept(delta);
      failed(sitemap, content.failure());
      return;
    }
    delta.put(CrawlStats.SITEMAP + "fetched", 1L);
    for (SitemapContent.Entry nested : content.sitemaps()) {
      offer(sitemap.origin(), nested.url(), "sitemap index " + sitemap);
    }
    if (content.overCap() > 0) {
      delta.put(CrawlStats.SITEMAP + "over-url-cap", (long) content.overCap());
      log.info("Sitemap {} lists more URLs than --max-sitemap-urls: {} not followed,"
          + " counted over-url-cap", sitemap, content.overCap());
    }
    listed(sitemap, content.urls(), delta);
    // Its URLs durable first: a resume that skips this sitemap must find them in the frontier,
    // and counts what it counted from the memo.
    flushLog.run();
    memo.add(sitemap.toString(), delta);
    counters.accept(delta);
  }

  /** Gives each listed URL its fate, like a page's links, and counts them into {@code delta}. */
  private void listed(Url sitemap, List<SitemapContent.Entry> entries, Map<String, Long> delta) {
    LinkCounts.Tally tally = new LinkCounts.Tally();
    for (SitemapContent.Entry entry : entries) {
      Url url = Url.parse(entry.url()).orElse(null);
      LinkFate fate = url == null ? LinkFate.INVALID : linkFates.fate(url, LISTED_DEPTH);
      if (fate == null) {
        fate = pushListed(url, sitemap, entry.lastmod()) ? LinkFate.NEW : LinkFate.SEEN;
      }
      tally.add(fate);
    }
    LinkCounts fates = tally.counts();
    delta.put(CrawlStats.SITEMAP + "from-sitemap", (long) fates.found());
    for (LinkFate fate : LinkFate.values()) {
      if (fates.count(fate) > 0) {
        delta.put(CrawlStats.LINK + fate.label(), (long) fates.count(fate));
      }
    }
    log.debug("Sitemap {}: {}", sitemap, fates);
  }

  /**
   * The one place a URL listed in a sitemap enters the frontier: {@code sitemap} goes with it as
   * its referrer ({@code via}) and {@code lastmod} (nullable) as the date the sitemap gives it,
   * both ending up in the URL's record.
   *
   * @return whether the frontier queued it (false: already seen)
   */
  private boolean pushListed(Url url, Url sitemap, Instant lastmod) {
    return frontier.push(url, LISTED_DEPTH, sitemap.toString(), lastmod);
  }

  private void offer(String origin, String sitemapUrl, String namedBy) {
    Url sitemap = Url.parse(sitemapUrl).orElse(null);
    if (sitemap == null) {
      failed(sitemapUrl, "invalid-url", namedBy);
      return;
    }
    if (!sitemap.origin().equals(origin)) {
      count("cross-authority", 1);
      log.info("Sitemap {} named by {} is on another authority: not read, counted"
          + " cross-authority", sitemap, namedBy);
      return;
    }
    if (queue.offer(origin, sitemap.toString()) == SitemapQueue.Offer.OVER_CAP) {
      count("over-authority-cap", 1);
      if (capped.add(origin)) {
        log.info("{} names more than {} sitemaps (--max-sitemaps-per-authority): {} and further"
            + " ones are not read, counted over-authority-cap", origin, maxPerAuthority, sitemap);
      }
    }
  }

  private boolean robotsDenies(Url sitemap) {
    if (robots == null) {
      return false;
    }
    RobotsRules rules = robots.cached(sitemap).orElse(null);
    return rules != null && rules.source() == RobotsRules.Source.PARSED && !rules.isAllowed(sitemap);
  }

  private void failed(Url sitemap, String cause) {
    failed(sitemap.toString(), cause, null);
  }

  private void failed(String sitemap, String cause, String namedBy) {
    count("failed", 1);
    log.warn("Sitemap {}{} not read: {}", sitemap, namedBy == null ? "" : " named by " + namedBy,
        cause);
  }

  private void count(String name, long n) {
    counters.accept(Map.of(CrawlStats.SITEMAP + name, n));
  }
}
