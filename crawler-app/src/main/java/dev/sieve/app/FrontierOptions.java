package dev.sieve.app;

import dev.sieve.frontier.FrontierSettings;
import java.nio.file.Path;
import java.time.Duration;
import picocli.CommandLine.Option;

/**
 * {@code crawl}'s options for where the frontier lives: in this process, in Redis as a crawl that
 * processes create or join by name, or in a URL Frontier service that
 * schedules the crawl ({@code urlfrontier[+tls]://HOST:PORT}, with a CA file and a token file).
 */
final class FrontierOptions {
  @Setting("frontier")
  @Option(names = "--frontier", defaultValue = FrontierSettings.LOCAL, paramLabel = "local|redis://HOST:PORT[/DB]|redis-cluster://HOST:PORT,...|urlfrontier[+tls]://HOST:PORT",
      description = "Where the frontier lives: in this process (local), in Redis, shared by every process given the same --crawl-id, or in a URL Frontier service (e.g. serve) that schedules the crawl for every process given the same service and --crawl-id; --expected-urls and --fpp are then the service's (default ${DEFAULT-VALUE}).")
  String frontier;

  @Option(names = "--frontier-ca-cert", paramLabel = "FILE",
      description = "With --frontier urlfrontier+tls://HOST:PORT: trust the certificate authorities in this PEM file besides the system's for the service's certificate, as --ca-cert does for the web; without it the system's only (default: none).")
  Path frontierCaCert;

  @Option(names = "--frontier-token-file", paramLabel = "FILE",
      description = "With a URL Frontier service: send the bearer token in FILE (its one line besides # comments; readable by its owner only) with every call, as serve --token-file expects (default: none).")
  Path frontierTokenFile;

  @Option(names = "--crawl-id", paramLabel = "NAME",
      description = "With a Redis frontier: the crawl to create or join (letters, digits, . _ -); with a URL Frontier service: its crawlID (default: the service's default crawl).")
  String crawlId;

  @Option(names = "--lease-seconds", defaultValue = "" + FrontierSettings.DEFAULT_LEASE_SECONDS, paramLabel = "S",
      description = "With a Redis frontier or a URL Frontier service: a URL taken by a process that has not given it back after S seconds (it died) is queued again; the service's lease (GetURLs delay_requestable) (default ${DEFAULT-VALUE}).")
  long leaseSeconds;

  @Setting("recrawlAfter")
  @Option(names = "--recrawl-after", paramLabel = "DURATION",
      converter = OptionConverters.DurationConverter.class,
      description = "With --state: fetch each URL again DURATION after its fetch (e.g. 30s, 10m, 1d), conditionally where its last response gave ETag or Last-Modified; the crawl then runs until stopped (default: none, each URL fetched once).")
  Duration recrawlAfter;

  @Option(names = "--status",
      description = "With a Redis frontier: print the crawl's shared counters and exit.")
  boolean status;

  /** Whether the frontier is shared (Redis or a URL Frontier service) rather than local. */
  boolean shared() {
    return !frontier.strip().equalsIgnoreCase("local");
  }

  /** Whether a URL Frontier service schedules the crawl. */
  boolean urlFrontier() {
    return frontier.strip().toLowerCase(java.util.Locale.ROOT).matches("urlfrontier(\\+tls)?:.*");
  }

  /** Whether the frontier is in Redis. */
  boolean redis() {
    return shared() && !urlFrontier();
  }

  /** The usage error of options that do not go together, or null when they do. */
  String misuse() {
    if (!urlFrontier() && (frontierCaCert != null || frontierTokenFile != null)) {
      return (frontierCaCert != null ? "--frontier-ca-cert" : "--frontier-token-file")
          + " needs --frontier urlfrontier://HOST:PORT or urlfrontier+tls://HOST:PORT";
    }
    if (urlFrontier() && status) {
      return "--status needs --frontier redis://HOST:PORT (a URL Frontier service has its own GetStats)";
    }
    if (redis() && (crawlId == null || crawlId.isBlank())) {
      return "--frontier " + frontier + " needs --crawl-id NAME: the crawl to create or join";
    }
    if (recrawlAfter != null && shared()) {
      return "--recrawl-after needs the local frontier: " + (urlFrontier() ? "a URL Frontier"
          + " service" : "a Redis frontier") + " cannot schedule refetches; drop --frontier";
    }
    if (!shared() && (status || crawlId != null)) {
      return (status ? "--status" : "--crawl-id") + " needs --frontier redis://HOST:PORT";
    }
    return null;
  }

  /** Sets where the frontier lives, {@code connections} to Redis, and the recrawl interval. */
  FrontierSettings.Builder applyTo(FrontierSettings.Builder settings, int connections) {
    return settings.where(frontier, crawlId, lease(), connections).recrawlAfter(recrawlAfter)
        .urlFrontierAccess(frontierCaCert, frontierTokenFile);
  }

  /** How long a URL taken from Redis or the service stays leased to this process. */
  Duration lease() {
    return Duration.ofSeconds(leaseSeconds);
  }
}
