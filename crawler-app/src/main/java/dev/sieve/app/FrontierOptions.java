package dev.sieve.app;

import dev.sieve.frontier.FrontierSettings;
import java.time.Duration;
import picocli.CommandLine.Option;

/**
 * {@code crawl}'s options for where the frontier lives: in this process, or in Redis as a crawl
 * that processes create or join by name (see {@link RedisCrawl}).
 */
final class FrontierOptions {
  @Setting("frontier")
  @Option(names = "--frontier", defaultValue = "local", paramLabel = "local|redis://HOST:PORT[/DB]|redis-cluster://HOST:PORT,...",
      description = "Where the frontier lives: in this process (local), or in Redis, shared by every process given the same --crawl-id (default ${DEFAULT-VALUE}).")
  String frontier;

  @Option(names = "--crawl-id", paramLabel = "NAME",
      description = "With a Redis frontier: the crawl to create or join (letters, digits, . _ -).")
  String crawlId;

  @Option(names = "--lease-seconds", defaultValue = "" + FrontierSettings.DEFAULT_LEASE_SECONDS, paramLabel = "S",
      description = "With a Redis frontier: a URL taken by a process that has not given it back after S seconds (it died) is queued again (default ${DEFAULT-VALUE}).")
  long leaseSeconds;

  @Option(names = "--status",
      description = "With a Redis frontier: print the crawl's shared counters and exit.")
  boolean status;

  /** Whether the frontier is in Redis rather than local. */
  boolean redis() {
    return !frontier.strip().equalsIgnoreCase("local");
  }

  /** The usage error of options that do not go together, or null when they do. */
  String misuse() {
    if (redis() && (crawlId == null || crawlId.isBlank())) {
      return "--frontier " + frontier + " needs --crawl-id NAME: the crawl to create or join";
    }
    if (!redis() && (status || crawlId != null)) {
      return (status ? "--status" : "--crawl-id") + " needs --frontier redis://HOST:PORT";
    }
    return null;
  }

  /** How long a URL taken from Redis stays leased to this process. */
  Duration lease() {
    return Duration.ofSeconds(leaseSeconds);
  }
}
