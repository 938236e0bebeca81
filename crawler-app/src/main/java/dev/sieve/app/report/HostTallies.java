package dev.sieve.app.report;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.ToLongFunction;

/**
 * Pages, errors and bytes per host (the URL's authority: host and port), exact for the first
 * {@code cap} hosts seen; the records of later hosts add up in one {@value #OTHER} row, so memory
 * stays bounded (about 150 bytes a host) and the totals still add up. A crawl whose biggest hosts
 * come late shows them inside {@value #OTHER}, which the report says. Thread-safe.
 */
final class HostTallies {
  static final String OTHER = "(other hosts)";

  private final int cap;
  private final ConcurrentHashMap<String, Tally> hosts = new ConcurrentHashMap<>();
  private final Tally other = new Tally(OTHER);

  HostTallies(int cap) {
    this.cap = cap;
  }

  /** One host's counts at one moment. */
  record Counts(String host, long pages, long errors, long bytes) {}

  /** One host's live counts. */
  private static final class Tally {
    final String host;
    final AtomicLong pages = new AtomicLong();
    final AtomicLong errors = new AtomicLong();
    final AtomicLong bytes = new AtomicLong();

    Tally(String host) {
      this.host = host;
    }

    Counts now() {
      return new Counts(host, pages.get(), errors.get(), bytes.get());
    }
  }

  /** Counts one record of {@code url}: a page, an error if {@code error}, its body bytes. */
  void add(String url, boolean error, long bytes) {
    String host = authority(url);
    Tally tally = hosts.get(host);
    if (tally == null) {
      if (hosts.size() >= cap) {
        tally = other;
      } else {
        tally = hosts.computeIfAbsent(host, Tally::new);
      }
    }
    tally.pages.incrementAndGet();
    if (error) {
      tally.errors.incrementAndGet();
    }
    tally.bytes.addAndGet(bytes);
  }

  /** Hosts tallied one by one (at most the cap). */
  int size() {
    return hosts.size();
  }

  /** Whether some records were counted in {@value #OTHER}. */
  boolean capped() {
    return other.pages.get() > 0;
  }

  /**
   * The {@code n} hosts with most of {@code measure} above 0, most first, then by name: counts
   * taken once each before sorting, since records keep coming.
   */
  List<Counts> top(int n, ToLongFunction<Counts> measure) {
    List<Counts> all = new ArrayList<>(hosts.size() + 1);
    hosts.values().forEach(tally -> all.add(tally.now()));
    if (other.pages.get() > 0) {
      all.add(other.now());
    }
    return all.stream().filter(c -> measure.applyAsLong(c) > 0)
        .sorted(Comparator.comparingLong(measure).reversed().thenComparing(Counts::host))
        .limit(n).toList();
  }

  /**
   * The authority of an absolute URL (between {@code ://} and the path, query or fragment, without
   * user info); the whole text when it has no {@code ://}.
   */
  static String authority(String url) {
    int start = url.indexOf("://");
    if (start < 0) {
      return url;
    }
    start += 3;
    int end = start;
    while (end < url.length() && "/?#".indexOf(url.charAt(end)) < 0) {
      end++;
    }
    int at = url.lastIndexOf('@', end - 1);
    return url.substring(at >= start ? at + 1 : start, end);
  }
}
