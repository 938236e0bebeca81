package dev.sieve.crawl;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/** Live counters of a crawl. Thread-safe; {@link #snapshot} gives a consistent-enough copy. */
final class CrawlStats {
  final LongAdder pages = new LongAdder();
  final LongAdder bytes = new LongAdder();
  final LongAdder retries = new LongAdder();
  final LongAdder linksFound = new LongAdder();
  final LongAdder linksNew = new LongAdder();
  private final Map<String, LongAdder> errors = new ConcurrentHashMap<>();
  private final Map<String, LongAdder> skipped = new ConcurrentHashMap<>();
  /** Link fates of parsed pages, by {@link LinkFate#ordinal()}. */
  private final LongAdder[] linkFates = new LongAdder[LinkFate.values().length];

  CrawlStats() {
    for (int i = 0; i < linkFates.length; i++) {
      linkFates[i] = new LongAdder();
    }
  }

  /** Adds one page's link fates. */
  void links(LinkCounts counts) {
    for (LinkFate fate : LinkFate.values()) {
      linkFates[fate.ordinal()].add(counts.count(fate));
    }
  }

  /** {@code found} (the sum of the fates), then each fate that occurred, in {@link LinkFate} order. */
  Map<String, Long> linkFates() {
    Map<String, Long> fates = new LinkedHashMap<>();
    long found = 0;
    for (LinkFate fate : LinkFate.values()) {
      long count = linkFates[fate.ordinal()].sum();
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

  /** Every counter by name, for a checkpoint. */
  Map<String, Long> toMap() {
    Map<String, Long> all = new TreeMap<>();
    all.put("pages", pages.sum());
    all.put("bytes", bytes.sum());
    all.put("retries", retries.sum());
    all.put("linksFound", linksFound.sum());
    all.put("linksNew", linksNew.sum());
    errors.forEach((k, v) -> all.put("error." + k, v.sum()));
    skipped.forEach((k, v) -> all.put("skipped." + k, v.sum()));
    for (LinkFate fate : LinkFate.values()) {
      all.put("link." + fate.label(), linkFates[fate.ordinal()].sum());
    }
    return all;
  }

  /** Adds counters saved by {@link #toMap}: a resumed crawl counts on from where it stopped. */
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
          } else if (name.startsWith("link.")) {
            addLinkFate(name.substring(5), value);
          }
        }
      }
    });
  }

  private void addLinkFate(String label, long value) {
    for (LinkFate fate : LinkFate.values()) {
      if (fate.label().equals(label)) {
        linkFates[fate.ordinal()].add(value);
      }
    }
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
