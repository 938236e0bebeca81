package dev.sieve.crawl;

import dev.sieve.fetch.ConnectionFailure;
import dev.sieve.fetch.Exchange;
import dev.sieve.fetch.FetchError;
import dev.sieve.fetch.FetchResult;
import dev.sieve.frontier.Frontier;
import dev.sieve.frontier.LastFetch;
import dev.sieve.frontier.Lease;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;

/**
 * Writes how each URL taken ends: its {@link PageRecord} to the {@link CrawlListener}, and the
 * counters it changes (named as {@link CrawlStats#add} reads them) into its {@link Outcome}. That
 * delta is journaled with the lease when it goes back to the frontier, and only then added to the
 * live counters, so a resumed crawl's counters are exact. Thread-safe; each {@link Outcome}
 * belongs to the one worker holding its lease.
 */
final class Recorder {
  /** The fate of a refetch answered {@code 304 Not Modified}: not an error. */
  static final String NOT_MODIFIED = "not-modified";

  private final CrawlListener listener;
  private final Frontier frontier;
  /** Makes the frontier's changes so far durable (its journal), before a record relies on them. */
  private final Runnable flushLog;
  private final CrawlStats stats;
  private final Clock clock;

  Recorder(CrawlListener listener, Frontier frontier, Runnable flushLog, CrawlStats stats,
      Clock clock) {
    this.listener = listener;
    this.frontier = frontier;
    this.flushLog = flushLog;
    this.stats = stats;
    this.clock = clock;
  }

  /** The outcome of {@code lease}, with nothing counted yet. */
  Outcome of(Lease lease) {
    return new Outcome(lease);
  }

  /**
   * Adds counters that belong to no URL's ending (a sitemap read in a URL's politeness slot, and
   * the fates of what it lists) to the live counters only: they are not journaled (a sitemap's
   * are kept in the sitemaps' memo instead).
   */
  void countAside(Map<String, Long> delta) {
    stats.add(delta);
  }

  /** The counters one record stands for (a record made before a crash, on resume). */
  static Map<String, Long> counts(PageRecord record) {
    Map<String, Long> delta = new HashMap<>();
    count(delta, record);
    return delta;
  }

  /** Adds what one record counts: a page, its bytes, links and link fates, its error class. */
  private static void count(Map<String, Long> delta, PageRecord record) {
    count(delta, "pages", 1);
    count(delta, "bytes", record.bytes());
    count(delta, "linksFound", record.outlinks());
    count(delta, "linksNew", record.newLinks());
    String error = record.error();
    if (NOT_MODIFIED.equals(error)) {
      count(delta, "notModified", 1);
    } else if (error != null) {
      count(delta, "error." + errorClass(error), 1);
    }
    if (record.refetch() > 0) {
      count(delta, "refetches", 1);
    }
    if (record.links() != null) {
      for (LinkFate fate : LinkFate.values()) {
        count(delta, CrawlStats.LINK + fate.label(), record.links().count(fate));
      }
    }
  }

  private static String errorClass(String error) {
    return error.startsWith("http-5") ? "http-5xx" : error.startsWith("http-4") ? "http-4xx" : error;
  }

  private static void count(Map<String, Long> delta, String name, long amount) {
    if (amount != 0) {
      delta.merge(name, amount, Long::sum);
    }
  }

  /**
   * One lease's ending: at most one record, the counters changed on the way, and the lease given
   * back once with them ({@link #finish} or {@link #retry}).
   */
  final class Outcome {
    private final Lease lease;
    private final Map<String, Long> delta;
    /** Whether this is the outcome of a fetch made within another URL's lease, which finishes. */
    private final boolean within;
    /** Where this URL's response (or revisit) record went in the WARC archive, or null. */
    private PageRecord.WarcLocation warc;
    /** The resolved target of the URL's redirect, or null. */
    private String redirect;
    /** The response record (or the one a revisit refers to) and its date, or null. */
    private UUID responseId;
    private Instant responseDate;
    /** What this fetch leaves for the URL's next one in a recrawl; null until recorded. */
    private LastFetch next;

    private Outcome(Lease lease) {
      this(lease, new HashMap<>(), false);
    }

    private Outcome(Lease lease, Map<String, Long> delta, boolean within) {
      this.lease = lease;
      this.delta = delta;
      this.within = within;
    }

    /**
     * The outcome of another URL fetched within this one's lease ({@code lease} describes it):
     * its record is its own, its counters are journaled with this outcome's, and its {@link
     * #finish} does nothing.
     */
    Outcome within(Lease lease) {
      return new Outcome(lease, delta, true);
    }

    Lease lease() {
      return lease;
    }

    /** Notes where the URL's response (or revisit) record went in the WARC archive. */
    void archived(String file, long offset, UUID responseId, Instant date) {
      this.warc = new PageRecord.WarcLocation(file, offset);
      this.responseId = responseId;
      this.responseDate = date;
    }

    /** Notes the resolved target of the URL's redirect (its Location), for its record. */
    void redirected(String target) {
      this.redirect = target;
    }

    /** Counts one more of {@code name} (e.g. {@code skipped.robots-denied}, {@code retries}). */
    void count(String name) {
      Recorder.count(delta, name, 1);
    }

    /** Records the URL with no link fates (its fetch's connection failure as the cause, if any). */
    void record(FetchResult page, int outlinks, int newLinks, String error) {
      record(page, outlinks, newLinks, error, null);
    }

    /** Records the URL with the fates of its page's links, if it was parsed. */
    void record(FetchResult page, int outlinks, int newLinks, String error, LinkCounts fates) {
      record(page, outlinks, newLinks, error, page == null ? null : cause(page), fates);
    }

    /**
     * Hands the URL's record to the listener and counts it. The links queued for it are made
     * durable first, so a record never exists without them.
     *
     * @throws OutputFailure if the listener cannot store the record
     */
    void record(FetchResult page, int outlinks, int newLinks, String error, String cause,
        LinkCounts fates) {
      PageRecord.Builder record = PageRecord.builder(lease.url().toString(), clock.instant())
          .found(lease.depth(), lease.via(), lease.lastmod())
          .links(outlinks, newLinks, fates)
          .redirect(redirect)
          .error(error, cause)
          .warc(warc)
          .refetch(lease.refetchNumber());
      if (page != null) {
        record.response(page.status(), page.contentType(), page.bytes(), page.fetchMs())
            .payload(page.ip(), page.sha1())
            .protocol(page.exchange().map(Exchange::httpProtocol).orElse(null));
      }
      PageRecord built = record.build();
      flushLog.run();
      try {
        listener.onPage(built);
      } catch (UncheckedIOException e) {
        throw new OutputFailure(e);
      }
      Recorder.count(delta, built);
      next = LastFetches.after(lease.last(), page, built.fetchedAt(), responseId, responseDate);
    }

    /**
     * Gives back the URL as done, journaling the counters its crawl changed, and what its fetch
     * leaves for a recrawl's next one.
     */
    void finish() {
      if (within) {
        return;
      }
      frontier.complete(next == null ? lease : lease.fetched(next), delta);
      stats.add(delta);
    }

    /** Gives the URL back for another attempt, journaling the counters this attempt changed. */
    void retry(Duration backoff) {
      frontier.retry(lease, backoff, delta);
      stats.add(delta);
    }
  }

  /**
   * What lies behind a failed fetch: a connection failure's cause, a TLS failure's ({@code
   * certificate expired}), a proxy's ({@code connection refused}); null for anything else.
   */
  private static String cause(FetchResult page) {
    FetchError error = page.error();
    if (error == FetchError.TLS || error == FetchError.PROXY_UNREACHABLE
        || error == FetchError.PROXY_AUTH) {
      return page.errorMessage();
    }
    return ConnectionFailure.cause(page).orElse(null);
  }

  /** The listener could not store a record: the crawl cannot go on without losing records. */
  static final class OutputFailure extends RuntimeException {
    OutputFailure(UncheckedIOException cause) {
      super(cause.getMessage(), cause);
    }
  }
}
