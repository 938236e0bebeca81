package dev.sieve.crawl;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/** How many of one page's links met each {@link LinkFate}; they add up to {@link #found()}. */
public final class LinkCounts {
  private static final LinkFate[] FATES = LinkFate.values();

  private final int[] counts;

  private LinkCounts(int[] counts) {
    this.counts = counts;
  }

  /**
   * The counts {@link #asMap} gave, read back (e.g. from an output record); unknown labels and
   * {@code found} (the sum) are ignored.
   */
  public static LinkCounts fromMap(Map<String, Integer> byLabel) {
    int[] counts = new int[FATES.length];
    for (LinkFate fate : FATES) {
      counts[fate.ordinal()] = byLabel.getOrDefault(fate.label(), 0);
    }
    return new LinkCounts(counts);
  }

  /** Every link found on the page: each href, junk and duplicates included. */
  public int found() {
    return Arrays.stream(counts).sum();
  }

  public int count(LinkFate fate) {
    return counts[fate.ordinal()];
  }

  /** {@code found} first, then each fate that occurred, by label, in {@link LinkFate} order. */
  public Map<String, Integer> asMap() {
    Map<String, Integer> map = new LinkedHashMap<>();
    map.put("found", found());
    for (LinkFate fate : FATES) {
      if (counts[fate.ordinal()] > 0) {
        map.put(fate.label(), counts[fate.ordinal()]);
      }
    }
    return map;
  }

  @Override
  public String toString() {
    return asMap().toString();
  }

  /** Counts one page's links; not thread-safe. */
  static final class Tally {
    private final int[] counts = new int[FATES.length];

    void add(LinkFate fate, int n) {
      counts[fate.ordinal()] += n;
    }

    void add(LinkFate fate) {
      counts[fate.ordinal()]++;
    }

    LinkCounts counts() {
      return new LinkCounts(counts.clone());
    }
  }
}
