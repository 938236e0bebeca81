package dev.sieve.crawl;

import java.util.LinkedHashMap;
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
  /** Prefix of a link fate's counter name: {@code link.new}, {@code link.query-trap}… */
  static final String LINK = "link.";
  /** Prefix of a sitemap counter's name: {@code sitemap.fetched}, {@code sitemap.from-sitemap}… */
  static final String SITEMAP = "sitemap.";
  /**
   * Prefix of what the crawl did as a browser would: {@code session.meta-refresh}, {@code
   * session.cookie-refetch}…
   */
  static final String SESSION = "session.";

  final LongAdder pages = new LongAdder();
  final LongAdder bytes = new LongAdder();
  final LongAdder retries = new LongAdder();
  final LongAdder linksFound = new LongAdder();
  final LongAdder linksNew = new LongAdder();
  /** Records of refetches in a recrawl, and of those the ones answered 304 Not Modified. */
  final LongAdder refetches = new LongAdder();
  final LongAdder notModified = new LongAdder();
  private final Map<String, LongAdder> errors = new ConcurrentHashMap<>();
  private final Map<String, LongAdder> skipped = new ConcurrentHashMap<>();
  /** Link fates of parsed pages, by label. */
  private final Map<String, LongAdder> linkFates = new ConcurrentHashMap<>();
  /** Sitemap counters ({@code sitemap.fetched}…), by name. */
  private final Map<String, LongAdder> sitemaps = new ConcurrentHashMap<>();
  /** Session counters ({@code session.meta-refresh}…), by name. */
  private final Map<String, LongAdder> session = new ConcurrentHashMap<>();

  /**
   * Adds counters by name ({@code pages}, {@code bytes}, {@code retries}, {@code linksFound},
   * {@code linksNew}, {@code refetches}, {@code notModified}, {@code error.KIND}, {@code
   * skipped.REASON}, {@code link.FATE}, {@code sitemap.NAME}, {@code session.NAME}): a URL's
   * changes as it completes, or a restored crawl's totals.
   */
  void add(Map<String, Long> saved) {
    saved.forEach((name, value) -> {
      switch (name) {
        case "pages" -> pages.add(value);
        case "bytes" -> bytes.add(value);
        case "retries" -> retries.add(value);
        case "linksFound" -> linksFound.add(value);
        case "linksNew" -> linksNew.add(value);
        case "refetches" -> refetches.add(value);
        case "notModified" -> notModified.add(value);
        default -> {
          if (name.startsWith("error.")) {
            add(errors, name.substring(6), value);
          } else if (name.startsWith("skipped.")) {
            add(skipped, name.substring(8), value);
          } else if (name.startsWith(LINK)) {
            add(linkFates, name.substring(LINK.length()), value);
          } else if (name.startsWith(SITEMAP)) {
            add(sitemaps, name.substring(SITEMAP.length()), value);
          } else if (name.startsWith(SESSION)) {
            add(session, name.substring(SESSION.length()), value);
          }
        }
      }
    });
  }

  private static void add(Map<String, LongAdder> counters, String name, long value) {
    if (value != 0) {
      counters.computeIfAbsent(name, k -> new LongAdder()).add(value);
    }
  }

  /** {@code found} (the sum of the fates), then each fate that occurred, in {@link LinkFate} order. */
  Map<String, Long> linkFates() {
    Map<String, Long> fates = new LinkedHashMap<>();
    long found = 0;
    for (LinkFate fate : LinkFate.values()) {
      LongAdder adder = linkFates.get(fate.label());
      long count = adder == null ? 0 : adder.sum();
      found += count;
      if (count > 0) {
        fates.put(fate.label(), count);
      }
    }
    Map<String, Long> all = new LinkedHashMap<>();
    all.put("found", found);
    all.putAll(fates);
    return all;
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

  Map<String, Long> sitemaps() {
    return copy(sitemaps);
  }

  Map<String, Long> session() {
    return copy(session);
  }
}
