package dev.sieve.app;

import dev.sieve.crawl.CrawlProgress;
import dev.sieve.units.Units;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Locale;

/** The summary {@code crawl} prints on standard output when a run ends, however it ends. */
final class CrawlSummary {
  private CrawlSummary() {}

  /**
   * Prints the final counters of a run that wrote {@code output} and {@code report} (null: none)
   * and skipped {@code skippedSeeds}.
   */
  static void print(PrintStream out, CrawlProgress p, int skippedSeeds, Path output, Path report) {
    double seconds = p.elapsed().toMillis() / 1000.0;
    out.printf(Locale.ROOT, "Crawl summary%n");
    out.printf(Locale.ROOT, "  pages:             %,d (%.1f pages/s over %.1f s)%n", p.pages(), p.pagesPerSecond(), seconds);
    out.printf(Locale.ROOT, "  errors:            %,d %s%n", p.errorTotal(), ProgressReporter.counts(p.errors()));
    out.printf(Locale.ROOT, "  bytes:             %s%n", Units.bytes(p.bytes()));
    out.printf(Locale.ROOT, "  links:             %s%n", ProgressReporter.counts(p.links()));
    out.printf(Locale.ROOT, "  skipped:           %s%n", ProgressReporter.counts(p.skipped()));
    out.printf(Locale.ROOT, "  sitemaps:          %s%n", ProgressReporter.counts(p.sitemaps()));
    out.printf(Locale.ROOT, "  session:           %s%n", ProgressReporter.counts(p.session()));
    out.printf(Locale.ROOT, "  retries:           %,d%n", p.retries());
    if (p.refetches() > 0) {
      out.printf(Locale.ROOT, "  refetches:         %,d (%,d not modified)%n", p.refetches(), p.notModified());
    }
    out.printf(Locale.ROOT,
        "  connections:       %,d opened, %,d reused, %,d stale; at most %,d fetches in flight%n",
        p.connections().opened(), p.connections().reused(), p.connections().stale(),
        p.connections().mostFetching());
    if (p.frontierOutages() > 0) {
      out.printf(Locale.ROOT, "  frontier outages:  %,d (Redis unreachable; the crawl waited)%n", p.frontierOutages());
    }
    out.printf(Locale.ROOT, "  pending at end:    %,d%n", p.pending());
    out.printf(Locale.ROOT, "  skipped seeds:     %,d%n", skippedSeeds);
    out.printf(Locale.ROOT, "  sieve:             ~%,d URLs seen, fpp %.2g%n", p.sieveEstimate(), p.sieveFpp());
    out.printf(Locale.ROOT, "  capacity warnings: %,d%n", p.capacityWarnings());
    out.printf(Locale.ROOT, "  output:            %s%n", output);
    if (report != null) {
      out.printf(Locale.ROOT, "  report:            %s%n", report);
    }
    out.flush();
  }
}
