package dev.sieve.frontier;

import java.util.ArrayDeque;

/**
 * The pending URLs of one politeness key, first in first out, held compactly ({@link
 * PendingCodec}). Not thread-safe: guarded by the frontier's lock. The {@link PendingStore} it
 * belongs to accounts for its memory.
 */
final class PendingQueue {
  private final String key;
  private final PendingStore store;
  private final ArrayDeque<byte[]> entries = new ArrayDeque<>();

  PendingQueue(String key, PendingStore store) {
    this.key = key;
    this.store = store;
  }

  void addLast(Lease lease) {
    byte[] entry = PendingCodec.encode(lease);
    entries.addLast(entry);
    store.added(entry.length);
  }

  void addFirst(Lease lease) {
    byte[] entry = PendingCodec.encode(lease);
    entries.addFirst(entry);
    store.added(entry.length);
  }

  /** Removes and returns the first URL, or null when empty. */
  Lease pollFirst() {
    byte[] entry = entries.pollFirst();
    if (entry == null) {
      return null;
    }
    store.removed(entry.length);
    return PendingCodec.decode(entry, key);
  }

  /** The entries in order, encoded, without removing them. */
  java.util.List<byte[]> encodedEntries() {
    return new java.util.ArrayList<>(entries);
  }

  long size() {
    return entries.size();
  }

  boolean isEmpty() {
    return entries.isEmpty();
  }

  /** Drops every URL; returns how many. */
  long clear() {
    long dropped = entries.size();
    for (byte[] entry : entries) {
      store.removed(entry.length);
    }
    entries.clear();
    return dropped;
  }
}
