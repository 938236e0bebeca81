package dev.sieve.serve;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The pending URLs of one queue: those waiting, by due time then URL, and those leased (handed
 * out by GetURLs and not yet updated), by lease expiry then URL. A URL is in exactly one of the
 * two, in the {@link PendingBucket} of its due second or of its lease's expiry. Only pending URLs
 * are kept as strings: a completed URL leaves this structure and is remembered by the crawl's
 * Sieve alone. Not thread-safe: guarded by the crawl's lock.
 */
final class PendingUrls {
  private final Map<String, PendingUrl> byUrl = new HashMap<>();
  private final TreeMap<Long, PendingBucket> waiting = new TreeMap<>();
  private final TreeMap<Long, PendingBucket> leased = new TreeMap<>();
  private int inFlight;
  /** The waiting bucket of {@link #lastDue}, while it is in {@link #waiting}: most puts share it. */
  private PendingBucket lastWaiting;
  private long lastDue;

  int size() {
    return byUrl.size();
  }

  boolean isEmpty() {
    return byUrl.isEmpty();
  }

  /** The pending entry of {@code url}, or null. */
  PendingUrl get(String url) {
    return byUrl.get(url);
  }

  /** Adds a URL that is not pending yet, unleased. */
  void add(PendingUrl url) {
    byUrl.put(url.url, url);
    waitFor(url);
  }

  /** Removes {@code url} whether waiting or leased; returns whether it was pending. */
  boolean remove(String url) {
    PendingUrl entry = byUrl.remove(url);
    if (entry == null) {
      return false;
    }
    detach(entry);
    return true;
  }

  /** Ends any lease of {@code entry} and makes it due at {@code due} with new metadata. */
  void reschedule(PendingUrl entry, long due, byte[] metadata) {
    detach(entry);
    entry.due = due;
    entry.heldUntil = 0;
    entry.metadata = metadata;
    waitFor(entry);
  }

  /** Returns the URLs whose lease ended at or before {@code now} to the waiting ones. */
  void releaseExpired(long now) {
    while (!leased.isEmpty() && leased.firstKey() <= now) {
      leased.pollFirstEntry().getValue().forEach(entry -> {
        entry.heldUntil = 0;
        inFlight--;
        waitFor(entry);
      });
    }
  }

  /** URLs leased now; call {@link #releaseExpired} first. */
  int inFlight() {
    return inFlight;
  }

  /** Leases up to {@code max} URLs due at {@code now}, earliest first, until {@code until}. */
  List<PendingUrl> lease(long now, int max, long until) {
    List<PendingUrl> out = new ArrayList<>(Math.min(max, 64));
    while (out.size() < max && !waiting.isEmpty() && waiting.firstKey() <= now) {
      PendingBucket due = waiting.firstEntry().getValue();
      PendingBucket held = leased.computeIfAbsent(until, k -> new PendingBucket());
      while (out.size() < max && due.size() > 0) {
        PendingUrl entry = due.poll();
        entry.heldUntil = until;
        held.add(entry);
        inFlight++;
        out.add(entry);
      }
      if (due.size() == 0) {
        dropWaiting(waiting.firstKey());
      }
    }
    return out;
  }

  /** Every pending URL: the waiting ones by due time, then the leased ones by lease expiry. */
  List<PendingUrl> inOrder() {
    List<PendingUrl> all = new ArrayList<>(byUrl.size());
    waiting.values().forEach(bucket -> bucket.forEach(all::add));
    leased.values().forEach(bucket -> bucket.forEach(all::add));
    return all;
  }

  private void waitFor(PendingUrl entry) {
    if (lastWaiting == null || lastDue != entry.due) {
      lastWaiting = waiting.computeIfAbsent(entry.due, k -> new PendingBucket());
      lastDue = entry.due;
    }
    lastWaiting.add(entry);
  }

  private void dropWaiting(long due) {
    if (waiting.remove(due) == lastWaiting) {
      lastWaiting = null;
    }
  }

  private void detach(PendingUrl entry) {
    boolean held = entry.heldUntil != 0;
    long key = held ? entry.heldUntil : entry.due;
    TreeMap<Long, PendingBucket> buckets = held ? leased : waiting;
    PendingBucket bucket = buckets.get(key);
    bucket.remove(entry);
    if (held) {
      inFlight--;
      if (bucket.size() == 0) {
        leased.remove(key);
      }
    } else if (bucket.size() == 0) {
      dropWaiting(key);
    }
  }
}
