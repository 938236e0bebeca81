package dev.sieve.frontier;

/**
 * Every pending URL of a frontier, one {@link PendingQueue} per politeness key, with the memory
 * they take accounted. Not thread-safe: guarded by the frontier's lock.
 */
final class PendingStore {
  /** Per entry beyond its bytes: the byte[] header and the deque slot. */
  static final int ENTRY_OVERHEAD = 24;

  private long entries;
  private long memoryBytes;

  PendingQueue queue(String key) {
    return new PendingQueue(key, this);
  }

  void added(int bytes) {
    entries++;
    memoryBytes += bytes + ENTRY_OVERHEAD;
  }

  void removed(int bytes) {
    entries--;
    memoryBytes -= bytes + ENTRY_OVERHEAD;
  }

  /** Pending URLs in all queues. */
  long size() {
    return entries;
  }

  /** Bytes of memory the pending URLs take, estimated. */
  long memoryBytes() {
    return memoryBytes;
  }
}
