package dev.sieve.app;

import dev.sieve.crawl.CrawlConfig;
import dev.sieve.frontier.Frontier;
import dev.sieve.frontier.FrontierListener;
import dev.sieve.frontier.redis.RedisFrontier;
import dev.sieve.frontier.redis.RedisFrontierException;
import dev.sieve.frontier.state.Frontiers;
import java.io.PrintStream;
import java.time.Duration;
import java.util.Locale;
import picocli.CommandLine;

/**
 * A crawl whose frontier is in Redis, shared by every process given the same crawl id: joining
 * it, and {@code crawl --frontier redis://… --crawl-id NAME --status}, its shared counters.
 */
final class RedisCrawl {
  private RedisCrawl() {}

  /**
   * Creates or joins the crawl {@code crawlId} in Redis at {@code uri}, with {@code connections}
   * connections. Redis unreachable or refusing is a {@link CrawlStop} (exit 2).
   *
   * @throws IllegalArgumentException naming the setting that is invalid
   */
  static Frontier join(CrawlConfig config, String uri, String crawlId, Duration lease, int connections) {
    try {
      return Frontiers.open(config.frontierSettings().toBuilder()
          .redis(uri, crawlId, lease, connections).build(), config.seeds(), FrontierListener.NONE);
    } catch (RedisFrontierException e) {
      throw CrawlStop.refused("Redis frontier: " + e.getMessage());
    }
  }

  /** Prints the crawl's status to {@code out}; returns the exit code (2 with one line on err). */
  static int printStatus(String uri, String crawlId, PrintStream out, PrintStream err) {
    RedisFrontier frontier;
    try {
      frontier = RedisFrontier.builder().uri(uri).crawlId(crawlId).join();
    } catch (IllegalArgumentException e) {
      err.println("Invalid setting: " + e.getMessage());
      return CommandLine.ExitCode.USAGE;
    } catch (RedisFrontierException e) {
      err.println("Redis frontier: " + e.getMessage());
      return CommandLine.ExitCode.USAGE;
    }
    try {
      RedisFrontier.Status s = frontier.status();
      out.printf(Locale.ROOT, "Crawl '%s' in %s%n", s.crawlId(), uri);
      out.printf(Locale.ROOT, "  state:             %s%n",
          s.pending() == 0 && s.leased() == 0 ? "finished" : "running");
      out.printf(Locale.ROOT, "  pending:           %,d%n", s.pending());
      out.printf(Locale.ROOT, "  leased:            %,d%n", s.leased());
      out.printf(Locale.ROOT, "  hosts:             %,d%n", s.hosts());
      out.printf(Locale.ROOT, "  sieve:             ~%,d URLs seen of capacity %,d, fpp %.2g (target %.2g)%n",
          s.seenEstimate(), s.capacity(), s.seenFpp(), s.targetFpp());
      out.printf(Locale.ROOT, "  filter:            %,d bits (%s) in %,d layer(s) (%s), %,d segment(s), k = %d, %,d bits set%n",
          s.filterBits(), Units.bytes(s.filterBits() / 8), s.layers(),
          s.grows() ? "grows" : "fixed", s.segments(), s.hashes(), s.setBits());
      out.printf(Locale.ROOT, "  dropped:           %,d by host budget, %,d by skipped hosts%n",
          s.droppedByHostBudget(), s.droppedBySkippedHost());
      out.printf(Locale.ROOT, "  expired leases:    %,d%n", s.expiredLeases());
      out.printf(Locale.ROOT, "  recovered pushes:  %,d URLs (at most that many duplicates), %,d late%n",
          s.recoveredUrls(), s.lateUrls());
      out.flush();
      return 0;
    } catch (java.io.UncheckedIOException e) {
      err.println(e.getMessage());
      return CommandLine.ExitCode.USAGE;
    } finally {
      frontier.disconnect();
    }
  }
}
