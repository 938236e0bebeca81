package dev.sieve.frontier.queue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The pending URLs of one queue: those waiting ordered by due time (then URL), and those leased
 * (handed out by GetURLs and not yet updated) ordered by lease expiry, each in a {@link
 * IndexedHeap}. A URL is in exactly one of the two. Only pending URLs are kept as strings: a
 * completed URL leaves this structure and is remembered by the crawl's Sieve alone. Not
 * thread-safe: guarded by the crawl's lock.
 */
final class PendingUrls {
  private final Map<String, PendingUrl> byUrl = new HashMap<>();
  private final IndexedHeap<PendingUrl> waiting = new IndexedHeap<>(PendingUrl.BY_DUE);
  private final IndexedHeap<PendingUrl> leased = new IndexedHeap<>(PendingUrl.BY_LEASE);

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
    waiting.add(url);
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
    waiting.add(entry);
  }

  /** Returns the URLs whose lease ended at or before {@code now} to the waiting ones. */
  void releaseExpired(long now) {
    while (leased.size() > 0 && leased.peek().heldUntil <= now) {
      PendingUrl entry = leased.poll();
      entry.heldUntil = 0;
      waiting.add(entry);
    }
  }

  /** URLs leased now; call {@link #releaseExpired} first. */
  int inFlight() {
    return leased.size();
  }

  /** Leases up to {@code max} URLs due at {@code now}, earliest first, until {@code until}. */
  List<PendingUrl> lease(long now, int max, long until) {
    List<PendingUrl> out = new ArrayList<>(Math.min(max, 64));
    while (out.size() < max && waiting.size() > 0 && waiting.peek().due <= now) {
      PendingUrl entry = waiting.poll();
      entry.heldUntil = until;
      leased.add(entry);
      out.add(entry);
    }
    return out;
  }

  /** Every pending URL: the waiting ones by due time, then the leased ones by lease expiry. */
  List<PendingUrl> inOrder() {
    List<PendingUrl> all = waiting.sorted();
    all.addAll(leased.sorted());
    return all;
  }

  /** The waiting URLs, by due time. */
  List<PendingUrl> waitingInOrder() {
    return waiting.sorted();
  }

  /** The leased URLs, by lease expiry. */
  List<PendingUrl> leasedInOrder() {
    return leased.sorted();
  }

  /** The due time of the first waiting URL; {@link Long#MAX_VALUE} when none waits. */
  long firstWaitingDue() {
    return waiting.size() == 0 ? Long.MAX_VALUE : waiting.peek().due;
  }

  /** The expiry of the first lease to end; {@link Long#MAX_VALUE} when none is leased. */
  long firstLeaseExpiry() {
    return leased.size() == 0 ? Long.MAX_VALUE : leased.peek().heldUntil;
  }

  /** URLs waiting (not leased). */
  int waiting() {
    return waiting.size();
  }

  private void detach(PendingUrl entry) {
    (entry.heldUntil != 0 ? leased : waiting).remove(entry);
  }
}
