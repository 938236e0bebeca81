package dev.sieve.app;

import dev.sieve.crawl.CrawlProgress;
import dev.sieve.crawl.LinkFate;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The {@code demo} command's closing paragraph: where the output is, the fates of the links found
 * (what the Sieve dropped, what was refused before it), the Sieve's estimate next to the exact
 * count, what the site served, and how to crawl other seeds. Its figures are the summary's.
 */
final class DemoReport {
  private static final String FOUND = "found";
  private static final String NEW = LinkFate.NEW.label();
  private static final String SEEN = LinkFate.SEEN.label();
  private static final String ROBOTS_DENIED = LinkFate.ROBOTS_DENIED.label();

  private final CrawlProgress crawl;
  private final long seeds;
  private final long requests;
  private final long disallowedRequests;
  private final long repeatedRequests;
  private final Path dir;
  private final Path report;

  /** The closing paragraph of a demo that crawled into {@code dir} and wrote {@code report} (null: none). */
  DemoReport(CrawlProgress crawl, long seeds, DemoServer site, Path dir, Path report) {
    this.crawl = crawl;
    this.seeds = seeds;
    this.requests = site.requests();
    this.disallowedRequests = site.disallowedRequests();
    this.repeatedRequests = site.repeatedRequests();
    this.dir = dir;
    this.report = report;
  }

  /**
   * Links the Sieve dropped as seen: the {@code seen} fate. It also counts a link repeated on its
   * page, which the demo site never writes.
   */
  long droppedAsSeen() {
    return fate(SEEN);
  }

  /** The fates other than new and seen, by label in {@link LinkFate} order: links refused before the Sieve. */
  Map<String, Long> refused() {
    Map<String, Long> refused = new LinkedHashMap<>(crawl.links());
    refused.keySet().removeAll(Set.of(FOUND, NEW, SEEN));
    return refused;
  }

  /** The distinct URLs the Sieve let through: the seeds, every new link and new redirect target. */
  long exactUrls() {
    return seeds + crawl.newLinks();
  }

  void print(PrintStream out, String jarCommand) {
    long exact = exactUrls();
    long estimate = crawl.sieveEstimate();
    Map<String, Long> refused = refused();
    out.printf(Locale.ROOT, "%nThe JSONL is in %s (%,d records, one per URL fetched), %sthe log in %s.%n",
        dir.resolve("crawl.jsonl"), crawl.pages(),
        report == null ? "" : "its charts in " + report + " (open it in a browser) and ", dir.resolve("crawl.log"));
    out.printf(Locale.ROOT, "Of %,d links found on pages, the Sieve let %,d through as new and dropped %,d"
            + " as already seen; %,d were refused before it: %s.%n",
        fate(FOUND), fate(NEW), droppedAsSeen(), refused.values().stream().mapToLong(Long::longValue).sum(),
        refused.isEmpty() ? "none" : refused.entrySet().stream()
            .map(e -> String.format(Locale.ROOT, "%s %,d", e.getKey(), e.getValue()))
            .collect(Collectors.joining(", ")));
    out.printf(Locale.ROOT, "The Sieve estimates %,d distinct URLs, exactly %,d went through (%+.2f%%), in %d"
            + " layer(s) at false-positive rate %.2g after %d capacity warning(s).%n",
        estimate, exact, 100.0 * (estimate - exact) / exact,
        crawl.sieveLayers(), crawl.sieveFpp(), crawl.capacityWarnings());
    out.printf(Locale.ROOT, "The site answered %,d requests: %,d for a page its robots.txt disallows"
            + " (%,d links to such pages refused), and %,d for a page more than once.%n",
        requests, disallowedRequests,
        fate(ROBOTS_DENIED) + crawl.skipped().getOrDefault(ROBOTS_DENIED, 0L), repeatedRequests);
    out.printf(Locale.ROOT, "Crawl your own seeds: %s crawl --seeds config/seeds.txt%n", jarCommand);
    out.flush();
  }

  private long fate(String label) {
    return crawl.links().getOrDefault(label, 0L);
  }
}
