package dev.sieve.crawl;

import dev.sieve.frontier.Frontier;
import dev.sieve.frontier.Lease;
import dev.sieve.parse.ParsedPage;
import dev.sieve.robots.RobotsPolicy;
import dev.sieve.robots.RobotsRules;
import dev.sieve.url.Url;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Gives each link of a page its {@link LinkFate}, queues the followable ones and counts them all,
 * so that a page's fates add up to the links found on it. The order of the questions decides the
 * fate of a link that would fail several: first what the extractor settled (invalid, nofollow, a
 * repeat on the page: seen, over the outlinks cap), then {@link LinkFilter} (depth, scope, URL
 * rules, length, path trap, private address), then robots.txt, then {@link QueryVariants}, then
 * the frontier (new or seen).
 *
 * <p>robots.txt is asked only when its rules for the link's origin are already cached and parsed:
 * a link is never made to wait for a fetch. A link whose robots.txt is not known yet goes on as
 * usual and, if robots.txt then disallows it, the URL is recorded as skipped {@code robots-denied}
 * when it is taken: a URL fate, counted in {@code skipped}, not a link fate.
 *
 * <p>Thread-safe.
 */
final class LinkClassifier {
  private static final Logger log = LoggerFactory.getLogger(LinkClassifier.class);

  private final LinkFilter filter;
  private final QueryVariants queries;
  /** Null when robots.txt is ignored. */
  private final RobotsPolicy robots;
  private final Frontier frontier;
  private final int maxOutlinks;

  LinkClassifier(CrawlConfig config, LinkFilter filter, RobotsPolicy robots, Frontier frontier) {
    this.filter = filter;
    this.queries = new QueryVariants(config.scope.maxQueryVariants());
    this.robots = robots;
    this.frontier = frontier;
    this.maxOutlinks = config.scope.maxOutlinks();
  }

  /**
   * Classifies the links of {@code page} (found on {@code pageUrl}) for {@code depth}, queues the
   * followable ones in one {@link Frontier#pushAll} and returns the fates; the crawler counts
   * them with the page's record, so they are journaled with it.
   */
  LinkCounts classify(ParsedPage page, Url pageUrl, int depth) {
    return classify(page, pageUrl, depth, null);
  }

  /**
   * {@link #classify(ParsedPage, Url, int)} of the page {@code from} fetched, whose {@link
   * ParsedPage#refresh()} target, if any, is offered as its redirect (at its depth, the chain
   * growing) and counted with the other links.
   */
  LinkCounts classify(ParsedPage page, Url pageUrl, Lease from) {
    return classify(page, pageUrl, from.depth() + 1, from);
  }

  private LinkCounts classify(ParsedPage page, Url pageUrl, int depth, Lease from) {
    LinkCounts.Tally tally = new LinkCounts.Tally();
    if (from != null && page.refresh().isPresent()) {
      Url target = page.refresh().get();
      LinkFate fate = fate(target, from.depth());
      tally.add(fate != null ? fate : frontier.pushRedirect(target, from) ? LinkFate.NEW : LinkFate.SEEN);
    }
    tally.add(LinkFate.INVALID, page.linksInvalid());
    tally.add(LinkFate.NOFOLLOW, page.linksNofollowDropped());
    tally.add(LinkFate.SEEN, page.linksDuplicate());
    tally.add(LinkFate.OVER_OUTLINKS_CAP, page.linksOverCap());
    if (page.linksOverCap() > 0) {
      log.warn("{} has more than {} distinct links (--max-outlinks): {} not followed,"
          + " counted over-outlinks-cap", pageUrl, maxOutlinks, page.linksOverCap());
    }
    List<Url> accepted = new ArrayList<>(page.links().size());
    for (Url link : page.links()) {
      LinkFate fate = fate(link, depth);
      if (fate == null) {
        accepted.add(link);
      } else {
        tally.add(fate);
      }
    }
    // One call for the page: a shared frontier offers them in one round trip.
    int added = accepted.isEmpty() ? 0 : frontier.pushAll(accepted, depth, pageUrl.toString());
    tally.add(LinkFate.NEW, added);
    tally.add(LinkFate.SEEN, accepted.size() - added);
    return tally.counts();
  }

  /** The fate of a kept link before the frontier, or null if it is offered to the frontier. */
  LinkFate fate(Url link, int depth) {
    LinkFate refused = filter.fate(link, depth);
    if (refused != null) {
      return refused;
    }
    if (robotsDenies(link)) {
      return LinkFate.ROBOTS_DENIED;
    }
    return queries.admit(link) ? null : LinkFate.QUERY_TRAP;
  }

  private boolean robotsDenies(Url link) {
    if (robots == null) {
      return false;
    }
    RobotsRules rules = robots.cached(link).orElse(null);
    return rules != null && rules.source() == RobotsRules.Source.PARSED && !rules.isAllowed(link);
  }
}
