package dev.sieve.app;

import dev.sieve.serve.ServeSettings;
import dev.sieve.serve.limits.ServeLimits;
import picocli.CommandLine.Option;

/**
 * {@code serve}'s limits on what clients can make it hold (see docs/serve.md, Limits): each call
 * past one is refused with a status naming the option.
 */
final class ServeLimitOptions {
  @Option(names = "--max-message-bytes", paramLabel = "BYTES",
      defaultValue = "" + ServeLimits.DEFAULT_MAX_MESSAGE_BYTES,
      description = "Largest inbound gRPC message; a larger one ends its call RESOURCE_EXHAUSTED"
          + " unread (default ${DEFAULT-VALUE}).")
  int maxMessageBytes;

  @Option(names = "--max-crawls", paramLabel = "N", defaultValue = "" + ServeLimits.DEFAULT_MAX_CRAWLS,
      description = "Crawl IDs the node holds at most; a PutURLs item for one more ends its stream"
          + " RESOURCE_EXHAUSTED (default ${DEFAULT-VALUE}).")
  int maxCrawls;

  @Option(names = "--max-queues-per-crawl", paramLabel = "N",
      defaultValue = "" + ServeLimits.DEFAULT_MAX_QUEUES_PER_CRAWL,
      description = "Queues one crawl holds at most; a PutURLs item for one more ends its stream"
          + " RESOURCE_EXHAUSTED (default ${DEFAULT-VALUE}).")
  int maxQueuesPerCrawl;

  @Option(names = "--max-metadata-entries", paramLabel = "N",
      defaultValue = "" + ServeLimits.DEFAULT_MAX_METADATA_ENTRIES,
      description = "Metadata values one URL may carry; an item with more is acked SKIPPED"
          + " (default ${DEFAULT-VALUE}).")
  int maxMetadataEntries;

  @Option(names = "--max-metadata-bytes", paramLabel = "BYTES",
      defaultValue = "" + ServeSettings.DEFAULT_MAX_METADATA_BYTES,
      description = "Bytes of metadata one URL may carry; an item with more is acked SKIPPED"
          + " (default ${DEFAULT-VALUE}).")
  int maxMetadataBytes;

  @Option(names = "--max-urls-per-call", paramLabel = "N",
      defaultValue = "" + ServeSettings.DEFAULT_MAX_URLS_PER_CALL,
      description = "URLs one GetURLs leases and queue keys one ListQueues answers at most"
          + " (default ${DEFAULT-VALUE}).")
  int maxUrlsPerCall;

  @Option(names = "--max-calls-per-connection", paramLabel = "N",
      defaultValue = "" + ServeLimits.DEFAULT_MAX_CALLS_PER_CONNECTION,
      description = "Calls open at once on one client connection; one more is refused"
          + " RESOURCE_EXHAUSTED (default ${DEFAULT-VALUE}).")
  int maxCallsPerConnection;

  @Option(names = "--max-open-calls", paramLabel = "N",
      defaultValue = "" + ServeLimits.DEFAULT_MAX_OPEN_CALLS,
      description = "Calls open at once on the node; one more is refused RESOURCE_EXHAUSTED"
          + " (default ${DEFAULT-VALUE}).")
  int maxOpenCalls;

  @Option(names = "--stream-idle-timeout", paramLabel = "SECONDS",
      defaultValue = "" + ServeLimits.DEFAULT_STREAM_IDLE_SECONDS,
      description = "A stream its client may still send on but has sent nothing on for this long"
          + " is ended DEADLINE_EXCEEDED; 0 never (default ${DEFAULT-VALUE}).")
  int streamIdleSeconds;

  /**
   * Sets these limits on {@code settings}.
   *
   * @throws IllegalArgumentException naming the first bad option
   */
  ServeSettings.Builder applyTo(ServeSettings.Builder settings) {
    return settings.maxMetadataBytes(maxMetadataBytes).maxUrlsPerCall(maxUrlsPerCall)
        .limits(ServeLimits.builder().maxMessageBytes(maxMessageBytes).maxCrawls(maxCrawls)
            .maxQueuesPerCrawl(maxQueuesPerCrawl).maxMetadataEntries(maxMetadataEntries)
            .maxCallsPerConnection(maxCallsPerConnection).maxOpenCalls(maxOpenCalls)
            .streamIdleSeconds(streamIdleSeconds).build());
  }
}
