package dev.sieve.warc;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

/**
 * The payload digests of the responses written, for revisit records: the most recently seen
 * {@code max} of them, the least recently seen forgotten first. Thread-safe.
 */
final class Digests {
  /** Where a payload was first written in full. */
  record Original(UUID recordId, String url, Instant date) {}

  private final Map<String, Original> originals;

  Digests(int max) {
    this.originals = new LinkedHashMap<>(1024, 0.75f, true) {
      @Override
      protected boolean removeEldestEntry(Map.Entry<String, Original> eldest) {
        return size() > max;
      }
    };
  }

  /** The response that first held {@code digest}, or null when none is remembered. */
  synchronized Original find(String digest) {
    return originals.get(digest);
  }

  /** Remembers the response written for {@code digest}, unless one is already remembered. */
  synchronized void remember(String digest, Original original) {
    originals.putIfAbsent(digest, original);
  }
}
