package dev.sieve.frontier.queue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * What a {@link CrawlSpace} answers about its URLs: a URL's state, its queue keys, its pending
 * URLs by position, and one page of a {@link ListCursor}'s listing, and its counts: first the
 * completed URLs from the crawl's {@link CompletedLog} (those of queues that still exist, and not
 * pending again), then the pending ones queue by queue in key order, each queue's waiting URLs by
 * due time (ties in the order they came) and then its leased ones. A page holds at most the URLs
 * and bytes asked; the walk to it reads the log from the cursor on and the current queue from its
 * start. Called under the crawl's lock.
 */
final class CrawlListing {
  private final Map<String, WorkQueue> queues;
  /** Null when the crawl keeps no completed URLs. */
  private final CompletedLog log;
  private final SeenKeys seen;

  CrawlListing(Map<String, WorkQueue> queues, CompletedLog log, SeenKeys seen) {
    this.queues = queues;
    this.log = log;
    this.seen = seen;
  }

  /**
   * The state of {@code url} in queue {@code key}: pending (with its due date), completed
   * (refetch 0: the Sieve says it was seen and it is not pending), or empty when unknown.
   */
  Optional<QueuedUrl> status(String key, String url) {
    WorkQueue queue = queues.get(key);
    if (queue == null) {
      return Optional.empty();
    }
    PendingUrl entry = queue.hotEntry(url);
    if (entry == null && seen.mightHaveSeen(queue.seenKey(url))) {
      entry = queue.freshEntry(url);
    }
    if (entry != null) {
      return Optional.of(QueuedUrl.of(key, entry));
    }
    return seen.mightHaveSeen(queue.seenKey(url))
        ? Optional.of(new QueuedUrl(key, url, 0, null, 0))
        : Optional.empty();
  }

  /** Queue keys in key order: all, or only those not blocked and with URLs pending. */
  List<String> keys(boolean includeInactive, long now) {
    List<String> keys = new ArrayList<>();
    for (WorkQueue queue : queues.values()) {
      if (includeInactive || (queue.size() > 0 && !queue.blocked(now))) {
        keys.add(queue.key);
      }
    }
    keys.sort(null);
    return keys;
  }

  /**
   * Pending URLs of queue {@code key} (or all queues, when null) whose URL matches {@code
   * filter}: {@code size} of them from position {@code start}.
   */
  List<QueuedUrl> pending(String key, Predicate<String> filter, long start, long size) {
    List<QueuedUrl> out = new ArrayList<>();
    long position = 0;
    for (WorkQueue queue : key == null ? queues.values() : single(key)) {
      for (PendingUrl entry : queue.list()) {
        if (out.size() >= size) {
          return out;
        }
        if (filter.test(entry.url) && position++ >= start) {
          out.add(QueuedUrl.of(queue.key, entry));
        }
      }
    }
    return out;
  }

  List<QueuedUrl> next(ListCursor cursor, int max, long maxBytes) {
    List<QueuedUrl> out = new ArrayList<>();
    if (cursor.done || max <= 0) {
      return out;
    }
    long[] bytes = {0};
    if (!cursor.inPending) {
      Map<Integer, WorkQueue> bySalt = bySalt(cursor.key);
      if (log != null && !bySalt.isEmpty()) {
        cursor.logOffset = log.read(cursor.logOffset, (salt, url) -> {
          WorkQueue queue = bySalt.get(salt);
          if (queue == null || !cursor.filter.test(url) || queue.hotEntry(url) != null) {
            return true;
          }
          if (cursor.skip > 0) {
            cursor.skip--;
            return true;
          }
          out.add(new QueuedUrl(queue.key, url, 0, null, 0));
          bytes[0] += url.length();
          return out.size() < max && bytes[0] < maxBytes;
        });
        if (out.size() >= max || bytes[0] >= maxBytes) {
          cursor.listed += out.size();
          return out;
        }
      }
      cursor.inPending = true;
    }
    for (String key : keysFrom(cursor)) {
      if (!key.equals(cursor.queueKey)) {
        cursor.queueKey = key;
        cursor.inQueue = 0;
      }
      WorkQueue queue = queues.get(key);
      boolean[] full = {false};
      cursor.inQueue = queue.walk(cursor.filter, cursor.inQueue, url -> {
        if (cursor.skip > 0) {
          cursor.skip--;
          return true;
        }
        out.add(QueuedUrl.of(queue.key, url));
        bytes[0] += url.url.length() + (url.metadata == null ? 0 : url.metadata.length);
        full[0] = out.size() >= max || bytes[0] >= maxBytes;
        return !full[0];
      });
      if (full[0]) {
        cursor.listed += out.size();
        return out;
      }
    }
    cursor.done = true;
    cursor.listed += out.size();
    return out;
  }

  /** The URLs the listing of {@code cursor} (done after this) would hand out from its position. */
  long count(ListCursor cursor) {
    long count = 0;
    while (!cursor.done) {
      count += next(cursor, 4_096, Long.MAX_VALUE).size();
    }
    return count;
  }

  private Map<Integer, WorkQueue> bySalt(String key) {
    Map<Integer, WorkQueue> out = new HashMap<>();
    for (WorkQueue queue : key == null ? queues.values() : single(key)) {
      out.put(queue.salt, queue);
    }
    return out;
  }

  /** The keys still to walk: from the cursor's queue on, in key order. */
  private List<String> keysFrom(ListCursor cursor) {
    if (cursor.key != null) {
      return queues.containsKey(cursor.key) && (cursor.queueKey == null
          || cursor.queueKey.equals(cursor.key)) ? List.of(cursor.key) : List.of();
    }
    List<String> keys = new ArrayList<>();
    for (String key : queues.keySet()) {
      if (cursor.queueKey == null || key.compareTo(cursor.queueKey) >= 0) {
        keys.add(key);
      }
    }
    keys.sort(null);
    return keys;
  }

  private List<WorkQueue> single(String key) {
    WorkQueue queue = queues.get(key);
    return queue == null ? List.of() : List.of(queue);
  }
}
