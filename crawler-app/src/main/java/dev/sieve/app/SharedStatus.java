package dev.sieve.app;

import dev.sieve.frontier.FrontierSettings;
import dev.sieve.frontier.FrontierStoreException;
import dev.sieve.frontier.Frontiers;
import dev.sieve.frontier.CrawlStatus;
import dev.sieve.units.Units;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.util.Locale;
import picocli.CommandLine;

/**
 * {@code crawl --frontier redis://… --crawl-id NAME --status}: the shared counters of a crawl in
 * Redis ({@link Frontiers#status}), for a person.
 */
final class SharedStatus {
  private SharedStatus() {}

  /** Prints the crawl's status to {@code out}; returns the exit code (2 with one line on err). */
  static int print(String uri, String crawlId, PrintStream out, PrintStream err) {
    CrawlStatus s;
    try {
      s = Frontiers.status(FrontierSettings.builder()
          .where(uri, crawlId, java.time.Duration.ofSeconds(FrontierSettings.DEFAULT_LEASE_SECONDS), 2)
          .build());
    } catch (IllegalArgumentException e) {
      err.println("Invalid setting: " + e.getMessage());
      return CommandLine.ExitCode.USAGE;
    } catch (FrontierStoreException e) {
      err.println("Redis frontier: " + e.getMessage());
      return CommandLine.ExitCode.USAGE;
    } catch (UncheckedIOException e) {
      err.println(e.getMessage());
      return CommandLine.ExitCode.USAGE;
    }
    out.printf(Locale.ROOT, "Crawl '%s' in %s%n", s.crawlId(), uri);
    out.printf(Locale.ROOT, "  state:             %s%n",
        s.pending() == 0 && s.leased() == 0 ? "finished" : "running");
    out.printf(Locale.ROOT, "  pending:           %,d%n", s.pending());
    out.printf(Locale.ROOT, "  leased:            %,d%n", s.leased());
    out.printf(Locale.ROOT, "  hosts:             %,d%n", s.hosts());
    out.printf(Locale.ROOT, "  completed:         %,d%n", s.completed());
    out.printf(Locale.ROOT, "  sieve:             ~%,d URLs seen, fpp %.2g (target %.2g)%n",
        s.seenEstimate(), s.seenFpp(), s.targetFpp());
    out.printf(Locale.ROOT, "  filter:            %,d bits (%s) in %,d layer(s)%n",
        s.filterBits(), Units.bytes(s.filterBits() / 8), s.layers());
    out.printf(Locale.ROOT, "  dropped:           %,d by host budget, %,d by skipped hosts%n",
        s.droppedByHostBudget(), s.droppedBySkippedHost());
    out.flush();
    return 0;
  }
}
