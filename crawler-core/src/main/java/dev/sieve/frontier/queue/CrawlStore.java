package dev.sieve.frontier.queue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * One crawl ID's queues and Sieve, as the gRPC layer uses them: in memory ({@link CrawlSpace}) or
 * in Redis shared by several serve nodes. Times are epoch milliseconds of the
 * service's clock. Thread-safe.
 */
public abstract class CrawlStore {
  /** Queue controls, as the {@code op} of {@link #control}. */
  public static final byte DELETE_QUEUE = 'D';
  public static final byte BLOCK = 'B';
  public static final byte DELAY = 'L';
  public static final byte LIMIT = 'C';
  /** PurgeURLs as a control: {@code value} the cutoff, an empty key every queue. */
  public static final byte PURGE = 'P';
  /**
   * Skips a queue for good: its waiting URLs are dropped (counted {@value #SKIPPED_DROPPED}; those
   * leased are left to their holders to give back) and its discovered URLs refused from now on
   * ({@link PutResult#SKIPPED}); a known URL is still applied. {@code value} is unused. A crawl's host whose robots.txt
   * forbids everything is skipped so.
   */
  public static final byte SKIP = 'S';
  /** The counter of the pending URLs {@link #SKIP} dropped. */
  public static final String SKIPPED_DROPPED = "queue.skipped.dropped";
  /** {@code queueBudget} of {@link #putAll(List, long, long)} for none. */
  public static final long NO_BUDGET = 0;

  public abstract String id();

  /**
   * Applies one item: a discovered URL is created only if the Sieve never saw it in this queue; a
   * known URL is updated (completed with {@code refetchFrom} 0, else due from then, any lease
   * ended), created if it was not pending. A discovered URL never seen is refused when its queue
   * was skipped ({@link #SKIP}) or already holds {@code queueBudget} URLs (see {@link
   * #putAll(List, long, long)}).
   *
   * @return what the item did, or null if this crawl was deleted meanwhile (put it again into
   *     the crawl of that ID, created anew, so that an acknowledged URL is never lost)
   */
  public abstract PutResult put(String key, String url, boolean discovered, long refetchFrom,
      byte[] metadata, long queueBudget, long now);

  /**
   * Applies {@code items} (all of this crawl) in order, as {@link #put} each: a store that keeps
   * its crawls elsewhere applies a batch in fewer round trips.
   *
   * @return what each item did, at its position; null where this crawl was deleted meanwhile
   */
  public final PutResult[] putAll(List<? extends UrlPut> items, long now) {
    return putAll(items, NO_BUDGET, now);
  }

  /**
   * As {@link #putAll(List, long)}, a discovered URL never seen refused ({@link
   * PutResult#OVER_BUDGET}) when its queue already holds {@code queueBudget} URLs, pending (leased
   * or not) and completed; {@link #NO_BUDGET} for none. A crawl's budget per host is this.
   */
  public PutResult[] putAll(List<? extends UrlPut> items, long queueBudget, long now) {
    PutResult[] results = new PutResult[items.size()];
    for (int i = 0; i < results.length; i++) {
      UrlPut item = items.get(i);
      results[i] = put(item.key(), item.url(), item.discovered(), item.refetchFrom(),
          item.metadata(), queueBudget, now);
    }
    return results;
  }

  /** {@link #put(String, String, boolean, long, byte[], long, long)} with no budget. */
  public final PutResult put(String key, String url, boolean discovered, long refetchFrom,
      byte[] metadata, long now) {
    return put(key, url, discovered, refetchFrom, metadata, NO_BUDGET, now);
  }

  /**
   * Leases due URLs into {@code out}: from queue {@code key} only, or from every queue in turn,
   * within {@code limits}; a queue that produced goes to the back.
   *
   * @return how many queues produced
   */
  public abstract int take(String key, TakeLimits limits, long now, List<QueuedUrl> out);

  /** Totals over queue {@code key}, or over every queue when it is null. */
  public abstract QueueStats stats(String key, long now);

  /** Removes queue {@code key}; returns how many URLs were pending in it, -1 if there was none. */
  public abstract long deleteQueue(String key);

  /**
   * The number of queues, for a limit on them; -1 from a store that cannot tell cheaply (and is
   * bounded by its own means).
   */
  public int queueCount() {
    return -1;
  }

  /** Whether queue {@code key} exists; true from a store that cannot tell cheaply. */
  public boolean hasQueue(String key) {
    return true;
  }

  /**
   * Whether queue {@code key} exists as far as this node knows without asking elsewhere: a store
   * shared with other nodes may answer false for a queue it has not met ({@link #hasQueue} then
   * asks); the others answer as {@link #hasQueue}.
   */
  public boolean metQueue(String key) {
    return hasQueue(key);
  }

  /**
   * Drops the pending URLs of queue {@code key} (every queue when null) first stored before the
   * epoch millisecond {@code cutoff}; returns how many. The Sieve cannot forget them: discovered again,
   * they are still known. A store that cannot purge throws {@link UnsupportedOperationException}.
   */
  public long purge(String key, long cutoff) {
    throw new UnsupportedOperationException("this store cannot purge URLs");
  }

  /**
   * Applies a queue control ({@link #BLOCK}, {@link #DELAY}, {@link #LIMIT}, {@link
   * #DELETE_QUEUE}, {@link #SKIP}) to queue {@code key}; false if there is no such queue.
   */
  public abstract boolean control(String key, byte op, long value);

  /**
   * The state of {@code url} in queue {@code key}: pending (with its due date), completed
   * (refetch 0: the Sieve says it was seen and it is not pending), or empty when unknown.
   */
  public abstract Optional<QueuedUrl> status(String key, String url);

  /** Queue keys in key order: all, or only those not blocked and with URLs pending. */
  public abstract List<String> queueKeys(boolean includeInactive, long now);

  /**
   * Pending URLs of queue {@code key} (or all queues, when null) that contain {@code filter}
   * (all when blank; {@code ignoreCase} as asked): {@code size} of them from position {@code
   * start}, each queue's waiting ones by due time, then its leased ones.
   */
  public abstract List<QueuedUrl> list(String key, String filter, boolean ignoreCase, long start,
      long size);

  /**
   * The next URLs of {@code cursor}'s listing, at most {@code max} and about {@code maxBytes} of
   * URLs and metadata, moving the cursor past them; the cursor is done once none is left. A queue
   * that changes meanwhile may make the listing miss or repeat the URLs that moved. This one pages
   * through {@link #list} (pending URLs only).
   */
  public List<QueuedUrl> listNext(ListCursor cursor, int max, long maxBytes) {
    List<QueuedUrl> page = list(cursor.key, cursor.filterText, cursor.ignoreCase,
        cursor.skip + cursor.listed, max);
    cursor.listed += page.size();
    cursor.done = page.size() < max;
    return page;
  }

  /** The number of URLs a listing from 0 ({@link #listNext}) would hand out. */
  public abstract long count(String key, String filter, boolean ignoreCase);

  /** The Sieve's estimate of URLs it saw, its estimated and target rates, bits and layers. */
  public abstract Map<String, Long> filterStats();

  /** Matches URLs containing {@code text} (all when blank), optionally ignoring case. */
  public static Predicate<String> urlFilter(String text, boolean ignoreCase) {
    if (text.isBlank()) {
      return url -> true;
    }
    if (ignoreCase) {
      String lower = text.toLowerCase(Locale.ROOT);
      return url -> url.toLowerCase(Locale.ROOT).contains(lower);
    }
    return url -> url.contains(text);
  }

  /** A filter's numbers, named as GetStats reports them (rates in parts per billion). */
  public static Map<String, Long> filterStats(long estimatedUrls, double fpp, double targetFpp, long bits,
      int layers) {
    Map<String, Long> out = new LinkedHashMap<>();
    out.put("filter.estimated_urls", estimatedUrls);
    out.put("filter.estimated_fpp_ppb", Math.round(fpp * 1e9));
    out.put("filter.target_fpp_ppb", Math.round(targetFpp * 1e9));
    out.put("filter.bits", bits);
    out.put("filter.layers", (long) layers);
    return out;
  }

  /** This crawl's event counters by name: {@code put.discovered.created}, {@code get.leased}… */
  public abstract Map<String, Long> counters();

  /** This crawl's totals, filter estimate and counters, for monitoring. */
  public abstract CrawlSnapshot snapshot(long now);
}
