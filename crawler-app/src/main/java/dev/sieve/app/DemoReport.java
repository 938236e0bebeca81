package dev.sieve.app;

import dev.sieve.crawl.CrawlProgress;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Set;

/**
 * The {@code demo} command's closing paragraph: where the output is, what the Sieve dropped, its
 * estimate next to the exact count, what the site served, and how to crawl other seeds.
 */
final class DemoReport {
  /** Counted in skipped per URL taken from the frontier, not per link found. */
  private static final Set<String> URL_REFUSALS = Set.of("robots-denied", "host-skipped");

  private final CrawlProgress crawl;
  private final long seeds;
  private final long requests;
  private final long disallowedRequests;
  private final long repeatedRequests;
  private final Path dir;

  DemoReport(CrawlProgress crawl, long seeds, DemoServer site, Path dir) {
    this.crawl = crawl;
    this.seeds = seeds;
    this.requests = site.requests();
    this.disallowedRequests = site.disallowedRequests();
    this.repeatedRequests = site.repeatedRequests();
    this.dir = dir;
  }

  /**
   * Links the Sieve dropped as seen: those found that were neither refused before it (scope,
   * depth, traps…) nor new. The demo site writes each page's links to distinct URLs, without junk
   * or nofollow, so no link found is lost anywhere else.
   */
  long droppedAsSeen() {
    long refused = crawl.skipped().entrySet().stream()
        .filter(e -> !URL_REFUSALS.contains(e.getKey())).mapToLong(e -> e.getValue()).sum();
    return crawl.linksFound() - refused - crawl.newLinks();
  }

  /** The distinct URLs the Sieve let through: the seeds and every new link. */
  long exactUrls() {
    return seeds + crawl.newLinks();
  }

  void print(PrintStream out, String jarCommand) {
    long exact = exactUrls();
    long estimate = crawl.sieveEstimate();
    out.printf(Locale.ROOT, "%nThe JSONL is in %s (%,d records, one per URL fetched) and the log in %s.%n",
        dir.resolve("crawl.jsonl"), crawl.pages(), dir.resolve("crawl.log"));
    out.printf(Locale.ROOT, "Of %,d links found, the Sieve dropped %,d as already seen. It estimates %,d"
            + " distinct URLs, exactly %,d went through (%+.2f%%), in %d layer(s) at false-positive rate"
            + " %.2g after %d capacity warning(s).%n",
        crawl.linksFound(), droppedAsSeen(), estimate, exact, 100.0 * (estimate - exact) / exact,
        crawl.sieveLayers(), crawl.sieveFpp(), crawl.capacityWarnings());
    out.printf(Locale.ROOT, "The site answered %,d requests: %,d for the %,d pages its robots.txt"
            + " disallows, and %,d for a page more than once.%n",
        requests, disallowedRequests, crawl.skipped().getOrDefault("robots-denied", 0L), repeatedRequests);
    out.printf(Locale.ROOT, "Crawl your own seeds: %s crawl --seeds config/seeds.txt%n", jarCommand);
    out.flush();
  }
}
