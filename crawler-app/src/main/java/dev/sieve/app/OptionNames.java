package dev.sieve.app;

import java.util.Map;

/**
 * Puts the command-line option in place of the library's setting name at the start of a
 * validation message: {@code falsePositiveRate (0.0) must be in (0, 1)} becomes {@code --fpp (0.0)
 * must be in (0, 1)}.
 */
final class OptionNames {
  private static final Map<String, String> OPTIONS = Map.ofEntries(
      Map.entry("falsePositiveRate", "--fpp"),
      Map.entry("expectedUrls", "--expected-urls"),
      Map.entry("expectedInsertions", "--expected-urls"),
      Map.entry("threads", "--threads"),
      Map.entry("maxPages", "--max-pages"),
      Map.entry("maxDepth", "--max-depth"),
      Map.entry("userAgent", "--user-agent"),
      Map.entry("maxInFlightPerHost", "--per-host"),
      Map.entry("maxPagesPerHost", "--max-pages-per-host"),
      Map.entry("maxUrlsPerHost", "--max-pages-per-host"),
      Map.entry("retries", "--retries"),
      Map.entry("maxBodyBytes", "--max-body-bytes"),
      Map.entry("maxUrlLength", "--max-url-length"),
      Map.entry("maxOutlinks", "--max-outlinks"),
      Map.entry("maxPathDepth", "--max-path-depth"),
      Map.entry("maxRepeatedSegments", "--max-repeated-segments"),
      Map.entry("pendingMemoryBytes", "--pending-memory"),
      Map.entry("seenFilter", "--filter"),
      Map.entry("frontier", "--frontier"));

  private OptionNames() {}

  /** {@code message} with a leading setting name replaced by its option, when it has one. */
  static String of(String message) {
    int space = message.indexOf(' ');
    if (space > 0) {
      String option = OPTIONS.get(message.substring(0, space));
      if (option != null) {
        return option + message.substring(space);
      }
    }
    return message;
  }
}
