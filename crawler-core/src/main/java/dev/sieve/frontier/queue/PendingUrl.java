package dev.sieve.frontier.queue;

import java.util.Comparator;

/**
 * One URL waiting in a queue: its string, when it is due, the lease it is under, and the client's
 * metadata. Mutable, guarded by its crawl's lock; the {@link IndexedHeap}s ordered by {@link
 * #BY_DUE} and {@link #BY_LEASE} must drop it before {@link #due} or {@link #heldUntil} change.
 */
final class PendingUrl implements IndexedHeap.Slotted {
  /** Due first, then by URL, as the reference service orders a queue. */
  static final Comparator<PendingUrl> BY_DUE = (a, b) -> {
    int c = Long.compare(a.due, b.due);
    return c != 0 ? c : a.url.compareTo(b.url);
  };
  /** Earliest lease expiry first. */
  static final Comparator<PendingUrl> BY_LEASE = (a, b) -> {
    int c = Long.compare(a.heldUntil, b.heldUntil);
    return c != 0 ? c : a.url.compareTo(b.url);
  };

  final String url;
  /** Epoch millisecond from which it may be handed out. */
  long due;
  /** Epoch millisecond its lease ends; 0 while not leased. */
  long heldUntil;
  /** The client's metadata as a serialized {@code URLInfo} holding only it; null when none. */
  byte[] metadata;
  /** Whether its crawl's {@link CompletedLog} holds it already: it was completed, then put again. */
  boolean completedLogged;
  /** Epoch millisecond the service first stored it (URL Frontier 2.6's creation date). */
  final long created;
  /** Where it is in its {@link IndexedHeap}; -1 in none. */
  private int slot = -1;

  PendingUrl(String url, long due, byte[] metadata) {
    this(url, due, metadata, due);
  }

  PendingUrl(String url, long due, byte[] metadata, long created) {
    this.url = url;
    this.due = due;
    this.metadata = metadata;
    this.created = created;
  }

  @Override
  public int heapSlot() {
    return slot;
  }

  @Override
  public void heapSlot(int slot) {
    this.slot = slot;
  }
}
