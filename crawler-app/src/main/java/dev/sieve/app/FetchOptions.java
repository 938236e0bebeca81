package dev.sieve.app;

import dev.sieve.crawl.CrawlConfig;
import dev.sieve.fetch.FetchSettings;
import dev.sieve.robots.RobotsSettings;
import dev.sieve.session.SessionSettings;
import dev.sieve.settings.Check;
import java.time.Duration;
import picocli.CommandLine.Option;

/**
 * {@code crawl}'s options for how long and how often a fetch is tried: retries, unreachable hosts,
 * timeouts, the waits robots.txt and Retry-After may ask for, and the body cap.
 */
final class FetchOptions {
  @Setting("retries")
  @Option(names = "--retries", defaultValue = "" + FetchSettings.DEFAULT_RETRIES, paramLabel = "N",
      description = "Retries of a 5xx or network failure, with backoff (default ${DEFAULT-VALUE}).")
  int retries;

  @Setting("hostFailureLimit")
  @Option(names = "--host-failure-limit", defaultValue = "" + FetchSettings.DEFAULT_HOST_FAILURE_LIMIT, paramLabel = "N",
      description = "Connection failures in a row (refused, timed out, reset; robots.txt included) after which a host (scheme, host, port) is unreachable: its URLs are recorded as host-unreachable without fetching (default ${DEFAULT-VALUE}).")
  int hostFailureLimit;

  @Option(names = "--timeout", paramLabel = "SECONDS",
      description = "Connect and read timeout of every request (default: connect "
          + FetchSettings.DEFAULT_CONNECT_TIMEOUT_SECONDS + ", read "
          + FetchSettings.DEFAULT_READ_TIMEOUT_SECONDS + ").")
  Long timeoutSeconds;

  @Setting("maxCrawlDelay")
  @Option(names = "--max-crawl-delay", defaultValue = "" + RobotsSettings.DEFAULT_MAX_CRAWL_DELAY_SECONDS, paramLabel = "SECONDS",
      description = "Hosts whose robots.txt asks for a longer Crawl-delay are skipped (default ${DEFAULT-VALUE}).")
  long maxCrawlDelaySeconds;

  @Setting("maxRetryAfter")
  @Option(names = "--max-retry-after", defaultValue = "" + FetchSettings.DEFAULT_MAX_RETRY_AFTER_SECONDS, paramLabel = "SECONDS",
      description = "A 429/503 whose Retry-After asks for a longer wait fails its URL at once as retry-after-too-long (default ${DEFAULT-VALUE}, at most 86400).")
  long maxRetryAfterSeconds;

  @Setting("maxBodyBytes")
  @Option(names = "--max-body-bytes", defaultValue = "" + FetchSettings.DEFAULT_MAX_BODY_BYTES, paramLabel = "BYTES",
      description = "Body cap after decompression; longer bodies are truncated (default ${DEFAULT-VALUE}).")
  long maxBodyBytes;

  @Setting("maxIdleConnections")
  @Option(names = "--max-idle-connections", defaultValue = "" + FetchSettings.DEFAULT_MAX_IDLE_CONNECTIONS, paramLabel = "N",
      description = "Idle connections kept open for their host's next fetch, across its politeness delay; past it the least recently used is closed (default ${DEFAULT-VALUE}).")
  int maxIdleConnections;

  /**
   * Sets the fetch and robots settings of {@code config}, sending {@code userAgent} and what
   * {@code session} adds.
   *
   * @throws IllegalArgumentException naming the option, for a value out of its range
   */
  CrawlConfig.Builder applyTo(CrawlConfig.Builder config, String userAgent,
      SessionSettings session) {
    return config.fetch(fetch -> fetchSettings(fetch.session(session), userAgent))
        .robots(robots -> robots.maxCrawlDelay(Duration.ofSeconds(maxCrawlDelaySeconds)));
  }

  private void fetchSettings(FetchSettings.Builder fetch, String userAgent) {
    fetch.userAgent(userAgent)
        .retries(retries)
        .hostFailureLimit(hostFailureLimit)
        .maxBodyBytes(maxBodyBytes)
        .maxIdleConnections(maxIdleConnections);
    Check.between("--max-retry-after", maxRetryAfterSeconds, 0,
        FetchSettings.MAX_RETRY_AFTER_LIMIT.toSeconds());
    fetch.maxRetryAfter(Duration.ofSeconds(maxRetryAfterSeconds));
    if (timeoutSeconds != null) {
      Check.atLeast("--timeout", timeoutSeconds, 1);
      fetch.connectTimeout(Duration.ofSeconds(timeoutSeconds))
          .readTimeout(Duration.ofSeconds(timeoutSeconds));
    }
  }
}
