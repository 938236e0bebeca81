package dev.sieve.frontier.local;

import java.util.Arrays;

/**
 * The hosts that can be leased from, soonest {@link HostQueue#readyAt} first: a binary min-heap
 * that keeps each host's slot in {@link HostQueue#heapIndex}, so taking a host out of line when
 * its ready time changes costs O(log n) rather than the O(n) scan of a {@link
 * java.util.PriorityQueue} — with 10⁵ hosts, a Crawl-delay or Retry-After must not scan them all.
 * Not thread-safe: guarded by the frontier's lock.
 */
final class ReadyHeap {
  private HostQueue[] heap = new HostQueue[16];
  private int size;

  int size() {
    return size;
  }

  /** The host ready soonest, or null when none is in line. */
  HostQueue peek() {
    return size == 0 ? null : heap[0];
  }

  /** Puts a host that is not in line into line. */
  void add(HostQueue host) {
    if (host.heapIndex >= 0) {
      throw new IllegalStateException("host already in the ready heap: " + host.key);
    }
    if (size == heap.length) {
      heap = Arrays.copyOf(heap, size + (size >> 1));
    }
    siftUp(size++, host);
  }

  /** Removes and returns the host ready soonest, or null when none is in line. */
  HostQueue poll() {
    if (size == 0) {
      return null;
    }
    HostQueue first = heap[0];
    removeAt(0);
    return first;
  }

  /** Takes {@code host} out of line if it is in line. */
  void remove(HostQueue host) {
    if (host.heapIndex >= 0) {
      removeAt(host.heapIndex);
    }
  }

  private void removeAt(int index) {
    HostQueue removed = heap[index];
    removed.heapIndex = -1;
    HostQueue last = heap[--size];
    heap[size] = null;
    if (index < size) {
      siftDown(index, last);
      if (heap[index] == last) {
        siftUp(index, last);
      }
    }
  }

  private void siftUp(int index, HostQueue host) {
    while (index > 0) {
      int parent = (index - 1) >>> 1;
      HostQueue above = heap[parent];
      if (Long.compare(host.readyAt, above.readyAt) >= 0) {
        break;
      }
      place(index, above);
      index = parent;
    }
    place(index, host);
  }

  private void siftDown(int index, HostQueue host) {
    int half = size >>> 1;
    while (index < half) {
      int child = 2 * index + 1;
      int right = child + 1;
      if (right < size && Long.compare(heap[right].readyAt, heap[child].readyAt) < 0) {
        child = right;
      }
      if (Long.compare(host.readyAt, heap[child].readyAt) <= 0) {
        break;
      }
      place(index, heap[child]);
      index = child;
    }
    place(index, host);
  }

  private void place(int index, HostQueue host) {
    heap[index] = host;
    host.heapIndex = index;
  }
}
