package dev.sieve.frontier.queue;

import dev.sieve.frontier.spill.PendingQueue;
import dev.sieve.frontier.spill.PendingStore;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * A queue's <em>fresh</em> part: the URLs put and not staged yet, in the order they came, as a few
 * bytes each ({@link SpilledUrl}) in a {@link PendingQueue} of the crawl's {@link PendingStore}
 * (in memory within its budget, spilled to its segment files beyond). A URL updated while fresh is
 * marked superseded and dropped when it comes out, since a spilled entry cannot be changed in
 * place. Not thread-safe: guarded by the crawl's lock.
 */
final class FreshUrls {
  private final PendingStore store;
  private final PendingQueue entries;
  /** URLs updated since they were put: dropped as they come out; null when none. */
  private Set<String> superseded;
  /** The entry {@link #pollFirst} took last, for {@link #putBack}. */
  private byte[] polled;

  /** An empty fresh part named {@code name} in {@code store}. */
  FreshUrls(PendingStore store, String name) {
    this.store = store;
    this.entries = store.queue(name);
  }

  /** Adds a URL at the back, due at {@code due}, first stored at {@code created}. */
  void add(String url, long due, byte[] metadata, long created) {
    entries.addLastEntry(SpilledUrl.encode(url, due, metadata, created));
  }

  /** {@code url} as it waits here (read back if spilled), or null if not here. */
  PendingUrl find(String url) {
    if (superseded != null && superseded.contains(url)) {
      return null;
    }
    byte[] wanted = url.getBytes(StandardCharsets.UTF_8);
    PendingUrl[] found = {null};
    entries.forEachEntry((bytes, offset, length) -> {
      if (found[0] == null && SpilledUrl.holds(bytes, offset, wanted)) {
        found[0] = SpilledUrl.decode(bytes, offset, length);
      }
    });
    return found[0];
  }

  /** Marks {@code url}, which is here, as no longer fresh: it is dropped when it comes out. */
  void supersede(String url) {
    if (superseded == null) {
      superseded = new HashSet<>();
    }
    superseded.add(url);
  }

  /** URLs here and not superseded. */
  long size() {
    return entries.size() - (superseded == null ? 0 : superseded.size());
  }

  /** Hands {@code each} the URLs here, not superseded, in the order they came. */
  void forEach(Consumer<PendingUrl> each) {
    forEachWhile(url -> {
      each.accept(url);
      return true;
    });
  }

  /** As {@link #forEach} while {@code each} says go on; the rest are not read. */
  void forEachWhile(Predicate<PendingUrl> each) {
    boolean[] stopped = {false};
    entries.forEachEntry((bytes, offset, length) -> {
      if (stopped[0]) {
        return;
      }
      PendingUrl url = SpilledUrl.decode(bytes, offset, length);
      if (superseded == null || !superseded.contains(url.url)) {
        stopped[0] = !each.test(url);
      }
    });
  }

  /** Takes out the first URL not superseded; null once none is left. */
  PendingUrl pollFirst() {
    for (byte[] entry; (entry = entries.pollFirstEntry()) != null; ) {
      PendingUrl url = SpilledUrl.decode(entry, 0, entry.length);
      if (superseded == null || !superseded.remove(url.url)) {
        polled = entry;
        return url;
      }
    }
    superseded = null; // each marked URL was here and came out
    return null;
  }

  /** Puts the URL {@link #pollFirst} took last back at the front. */
  void putBack() {
    entries.addFirstEntry(polled);
    polled = null;
  }

  /** Gives the entries' room back to the store (the part is drained, or its queue deleted). */
  void release() {
    store.remove(entries);
  }
}
