package dev.sieve.frontier.queue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * Pending URLs in a binary heap by {@code order}, each URL knowing its {@link PendingUrl#slot}, so
 * that adding, removing any URL and taking the first cost O(log n) compares in one array, with no
 * node per URL. URLs put with rising due times (the usual case) are added in O(1). Not
 * thread-safe: guarded by the crawl's lock.
 */
final class PendingHeap {
  private final Comparator<PendingUrl> order;
  private PendingUrl[] heap = new PendingUrl[4];
  private int size;

  PendingHeap(Comparator<PendingUrl> order) {
    this.order = order;
  }

  int size() {
    return size;
  }

  /** The URL that comes first, or null when empty. */
  PendingUrl peek() {
    return size == 0 ? null : heap[0];
  }

  void add(PendingUrl url) {
    if (size == heap.length) {
      heap = Arrays.copyOf(heap, size * 2);
    }
    up(size++, url);
  }

  /** Removes and returns the URL that comes first; the heap is not empty. */
  PendingUrl poll() {
    PendingUrl first = heap[0];
    remove(first);
    return first;
  }

  /** Removes {@code url}, which is in this heap. */
  void remove(PendingUrl url) {
    int at = url.slot;
    PendingUrl last = heap[--size];
    heap[size] = null;
    if (last != url) {
      down(at, last);
      if (heap[at] == last) {
        up(at, last);
      }
    }
    if (size == 0 && heap.length > 64) {
      heap = new PendingUrl[4]; // a drained queue gives its array back
    }
  }

  /** Every URL, in order (a sorted copy). */
  List<PendingUrl> sorted() {
    PendingUrl[] copy = Arrays.copyOf(heap, size);
    Arrays.sort(copy, order);
    return new ArrayList<>(Arrays.asList(copy));
  }

  private void up(int at, PendingUrl url) {
    while (at > 0) {
      int parent = (at - 1) >>> 1;
      PendingUrl above = heap[parent];
      if (order.compare(url, above) >= 0) {
        break;
      }
      place(at, above);
      at = parent;
    }
    place(at, url);
  }

  private void down(int at, PendingUrl url) {
    int half = size >>> 1;
    while (at < half) {
      int child = 2 * at + 1;
      int right = child + 1;
      if (right < size && order.compare(heap[right], heap[child]) < 0) {
        child = right;
      }
      if (order.compare(url, heap[child]) <= 0) {
        break;
      }
      place(at, heap[child]);
      at = child;
    }
    place(at, url);
  }

  private void place(int at, PendingUrl url) {
    heap[at] = url;
    url.slot = at;
  }
}
