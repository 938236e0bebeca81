package dev.sieve.bloom;

/**
 * A reusable batch of key hashes for the filters' batched operations ({@link
 * MembershipFilter#putAll}, {@link MembershipFilter#mightContainAll}): the hash halves side by side
 * in two {@code long[]}, so that filling it and handing it over allocates nothing per key. Not
 * thread-safe: one per thread, refilled after {@link #clear()}.
 */
public final class HashBatch {
  final long[] h1;
  final long[] h2;
  /** Scratch for the filter working on the batch: e.g. each key's block. */
  final int[] slots;
  private int size;

  /**
   * An empty batch of room for {@code capacity} keys.
   *
   * @throws IllegalArgumentException if {@code capacity < 1}
   */
  public HashBatch(int capacity) {
    if (capacity < 1) {
      throw new IllegalArgumentException("capacity (" + capacity + ") must be at least 1");
    }
    h1 = new long[capacity];
    h2 = new long[capacity];
    slots = new int[capacity];
  }

  /** The most keys the batch holds. */
  public int capacity() {
    return h1.length;
  }

  /** The number of keys added since the last {@link #clear()}. */
  public int size() {
    return size;
  }

  /** True if no more keys fit. */
  public boolean isFull() {
    return size == h1.length;
  }

  /** Empties the batch. */
  public void clear() {
    size = 0;
  }

  /**
   * Adds the key with hash {@code (h1, h2)}.
   *
   * @throws IllegalStateException if the batch is full
   */
  public void add(long h1, long h2) {
    if (size == this.h1.length) {
      throw new IllegalStateException("batch full: " + size + " keys");
    }
    this.h1[size] = h1;
    this.h2[size++] = h2;
  }

  /** Adds the key with this hash. */
  public void add(Hash128 hash) {
    add(hash.h1(), hash.h2());
  }

  /** Adds {@code key}, hashed as {@link Hash128#of(CharSequence)} does. */
  public void add(CharSequence key) {
    long[] hash = Hash128.utf8(key);
    add(hash[0], hash[1]);
  }

  /** Adds the key whose UTF-8 bytes these are, hashed as {@link Hash128#of(byte[], int, int)}. */
  public void add(byte[] bytes, int offset, int length) {
    if (size == h1.length) {
      throw new IllegalStateException("batch full: " + size + " keys");
    }
    h1[size] = Hash128.murmur3(bytes, offset, length, h2, size);
    size++;
  }

  /** The hash of the {@code i}-th key. */
  public Hash128 get(int i) {
    if (i < 0 || i >= size) {
      throw new IndexOutOfBoundsException("key " + i + " of " + size);
    }
    return new Hash128(h1[i], h2[i]);
  }
}
