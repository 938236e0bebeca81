package dev.sieve.app;

import dev.sieve.crawl.CrawlConfig;
import dev.sieve.frontier.Politeness;
import dev.sieve.frontier.QueueKey;
import java.time.Duration;
import picocli.CommandLine.Option;

/**
 * {@code crawl}'s options for politeness: how often and how much one host (or domain, or address)
 * is fetched.
 */
final class PolitenessOptions {
  @Setting("politenessDelay")
  @Option(names = "--delay-ms", defaultValue = "" + Politeness.DEFAULT_DELAY_MS, paramLabel = "MS",
      description = "Least time between fetches of one host, raised by robots.txt Crawl-delay (default ${DEFAULT-VALUE}).")
  long delayMs;

  @Setting("maxInFlightPerHost")
  @Option(names = "--per-host", defaultValue = "" + Politeness.DEFAULT_MAX_IN_FLIGHT_PER_HOST, paramLabel = "N",
      description = "Fetches of one host in flight at once (default ${DEFAULT-VALUE}).")
  int perHost;

  @Setting({"maxPagesPerHost", "maxUrlsPerHost"})
  @Option(names = "--max-pages-per-host", paramLabel = "N", description = "Page budget per host (default: no limit).")
  Long maxPagesPerHost;

  @Option(names = "--queue-key", defaultValue = "host", paramLabel = "host|domain|ip",
      converter = OptionConverters.QueueKeyConverter.class,
      description = "What politeness is counted per (default ${DEFAULT-VALUE}).")
  QueueKey queueKey;

  /**
   * The politeness these options say, whole, as the frontier takes it.
   *
   * @throws IllegalArgumentException naming the setting out of range
   */
  Politeness politeness() {
    return new Politeness(Duration.ofMillis(delayMs), perHost,
        maxPagesPerHost == null ? Politeness.DEFAULT.maxUrlsPerHost() : maxPagesPerHost, queueKey);
  }

  /** Sets the politeness of {@code config}. */
  CrawlConfig.Builder applyTo(CrawlConfig.Builder config) {
    return config.politeness(politeness());
  }
}
