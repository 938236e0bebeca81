package dev.sieve.crawl;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * Live counters of a crawl. Thread-safe. The crawler changes them through {@link #add}, with the
 * same changes it journals with each URL done (see {@code Frontier.complete(Lease, Map)}), so that
 * a resumed crawl's counters are exact: a counter changed any other way is lost on a crash.
 */
final class CrawlStats {
  final LongAdder pages = new LongAdder();
  final LongAdder bytes = new LongAdder();
  final LongAdder retries = new LongAdder();
  final LongAdder linksFound = new LongAdder();
  final LongAdder linksNew = new LongAdder();
  private final Map<String, LongAdder> errors = new ConcurrentHashMap<>();
  private final Map<String, LongAdder> skipped = new ConcurrentHashMap<>();

  void error(String kind) {
    errors.computeIfAbsent(kind, k -> new LongAdder()).increment();
  }

  void skipped(String reason) {
    skipped(reason, 1);
  }

  void skipped(String reason, long count) {
    if (count > 0) {
      skipped.computeIfAbsent(reason, k -> new LongAdder()).add(count);
    }
  }

  /**
   * Adds counters by name ({@code pages}, {@code bytes}, {@code retries}, {@code linksFound},
   * {@code linksNew}, {@code error.KIND}, {@code skipped.REASON}): a URL's changes as it completes,
   * or a restored crawl's totals.
   */
  void add(Map<String, Long> saved) {
    saved.forEach((name, value) -> {
      switch (name) {
        case "pages" -> pages.add(value);
        case "bytes" -> bytes.add(value);
        case "retries" -> retries.add(value);
        case "linksFound" -> linksFound.add(value);
        case "linksNew" -> linksNew.add(value);
        default -> {
          if (name.startsWith("error.")) {
            errors.computeIfAbsent(name.substring(6), k -> new LongAdder()).add(value);
          } else if (name.startsWith("skipped.")) {
            skipped(name.substring(8), value);
          }
        }
      }
    });
  }


  static Map<String, Long> copy(Map<String, LongAdder> counters) {
    Map<String, Long> copy = new TreeMap<>();
    counters.forEach((k, v) -> copy.put(k, v.sum()));
    return copy;
  }

  Map<String, Long> errors() {
    return copy(errors);
  }

  Map<String, Long> skipped() {
    return copy(skipped);
  }
}
