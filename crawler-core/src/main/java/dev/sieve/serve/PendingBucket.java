package dev.sieve.serve;

import java.util.Arrays;
import java.util.Comparator;
import java.util.function.Consumer;

/**
 * The pending URLs of one queue that share a due second (or a lease expiry): an array with holes
 * where URLs left, each URL knowing its {@link PendingUrl#slot}, so adding and removing cost no
 * search and no node per URL; sorted by URL only when taken or listed, where the order matters
 * (one sort of an array, mostly sorted already, instead of a tree kept sorted at every put). Not
 * thread-safe: guarded by the crawl's lock.
 */
final class PendingBucket {
  private static final Comparator<PendingUrl> BY_URL = (a, b) -> a.url.compareTo(b.url);

  private PendingUrl[] slots = new PendingUrl[4];
  /** Slots before it are empty. */
  private int head;
  /** Slots from it on are unused. */
  private int end;
  private int live;
  private boolean sorted = true;

  int size() {
    return live;
  }

  void add(PendingUrl url) {
    if (end == slots.length) {
      if (live <= slots.length / 2) {
        compact();
      } else {
        slots = Arrays.copyOf(slots, slots.length * 2);
      }
    }
    if (sorted && live > 0 && (slots[end - 1] == null || BY_URL.compare(slots[end - 1], url) > 0)) {
      sorted = false;
    }
    url.slot = end;
    slots[end++] = url;
    live++;
  }

  /** Removes {@code url}, which is in this bucket. */
  void remove(PendingUrl url) {
    slots[url.slot] = null;
    live--;
    skipHoles();
  }

  /** Removes and returns the URL that sorts first; the bucket is not empty. */
  PendingUrl poll() {
    sort();
    PendingUrl first = slots[head];
    slots[head] = null;
    live--;
    skipHoles();
    return first;
  }

  /** Hands every URL to {@code action} in URL order; it must not change this bucket. */
  void forEach(Consumer<PendingUrl> action) {
    sort();
    for (int i = head; i < end; i++) {
      if (slots[i] != null) {
        action.accept(slots[i]);
      }
    }
  }

  private void sort() {
    if (!sorted) {
      compact();
      Arrays.sort(slots, 0, end, BY_URL);
      renumber();
      sorted = true;
    }
  }

  private void skipHoles() {
    while (head < end && slots[head] == null) {
      head++;
    }
    if (live == 0) {
      head = 0;
      end = 0;
    }
  }

  /** Moves the URLs to the front, in their order. */
  private void compact() {
    int to = 0;
    for (int i = head; i < end; i++) {
      if (slots[i] != null) {
        slots[to++] = slots[i];
      }
    }
    Arrays.fill(slots, to, end, null);
    head = 0;
    end = to;
    renumber();
  }

  private void renumber() {
    for (int i = head; i < end; i++) {
      slots[i].slot = i;
    }
  }
}
