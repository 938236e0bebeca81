package dev.sieve.frontier.queue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * A binary min-heap by {@code order} whose elements keep their own slot ({@link Slotted}), so that
 * adding, taking the first and removing any element cost O(log n) compares in one array, with no
 * node per element and no O(n) scan to find one (as {@link java.util.PriorityQueue#remove} does).
 * Elements added in order (the usual case for due times) are added in O(1). The crawl's ready
 * hosts and each {@code serve} queue's waiting and leased URLs are kept in one. Not thread-safe.
 *
 * @param <T> the elements
 */
public final class IndexedHeap<T extends IndexedHeap.Slotted> {
  /** An element's slot in the heap that holds it: -1 while it is in none. */
  public interface Slotted {
    int heapSlot();

    void heapSlot(int slot);
  }

  private final Comparator<? super T> order;
  private Object[] heap = new Object[4];
  private int size;

  public IndexedHeap(Comparator<? super T> order) {
    this.order = order;
  }

  public int size() {
    return size;
  }

  /** The first element, or null when empty. */
  public T peek() {
    return size == 0 ? null : at(0);
  }

  /**
   * Adds an element that is in no heap.
   *
   * @throws IllegalStateException if it is in one
   */
  public void add(T element) {
    if (element.heapSlot() >= 0) {
      throw new IllegalStateException("already in a heap: " + element);
    }
    if (size == heap.length) {
      heap = Arrays.copyOf(heap, size * 2);
    }
    up(size++, element);
  }

  /** Removes and returns the first element, or null when empty. */
  public T poll() {
    T first = peek();
    if (first != null) {
      remove(first);
    }
    return first;
  }

  /** Removes {@code element} if it is in this heap. */
  public void remove(T element) {
    int slot = element.heapSlot();
    if (slot < 0) {
      return;
    }
    element.heapSlot(-1);
    T last = at(--size);
    heap[size] = null;
    if (last != element) {
      down(slot, last);
      if (heap[slot] == last) {
        up(slot, last);
      }
    }
    if (size == 0 && heap.length > 64) {
      heap = new Object[4]; // a drained heap gives its array back
    }
  }

  /** Every element, in order (a sorted copy). */
  public List<T> sorted() {
    List<T> copy = new ArrayList<>(size);
    for (int i = 0; i < size; i++) {
      copy.add(at(i));
    }
    copy.sort(order);
    return copy;
  }

  @SuppressWarnings("unchecked")
  private T at(int slot) {
    return (T) heap[slot];
  }

  private void up(int slot, T element) {
    while (slot > 0) {
      int parent = (slot - 1) >>> 1;
      T above = at(parent);
      if (order.compare(element, above) >= 0) {
        break;
      }
      place(slot, above);
      slot = parent;
    }
    place(slot, element);
  }

  private void down(int slot, T element) {
    int half = size >>> 1;
    while (slot < half) {
      int child = 2 * slot + 1;
      int right = child + 1;
      if (right < size && order.compare(at(right), at(child)) < 0) {
        child = right;
      }
      if (order.compare(element, at(child)) <= 0) {
        break;
      }
      place(slot, at(child));
      slot = child;
    }
    place(slot, element);
  }

  private void place(int slot, T element) {
    heap[slot] = element;
    element.heapSlot(slot);
  }
}
