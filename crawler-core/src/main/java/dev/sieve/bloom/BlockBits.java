package dev.sieve.bloom;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The words of a {@link BlockedBloomFilter} and where a key's bits lie in them: its block (from
 * the first hash half) and its positions inside the block (9-bit slices of the second half, then
 * of {@code splitmix64(h1 + i·φ)}), as the filter's class doc lays out. Checks a key's bits without
 * a lock and sets them under its block's stripe of {@link BlockLocks}. Thread-safe.
 */
final class BlockBits {
  static final int WORDS_PER_BLOCK = BlockedBloomFilter.BLOCK_BITS / Long.SIZE;

  private static final VarHandle WORDS = MethodHandles.arrayElementVarHandle(long[].class);
  /**
   * Written by {@link #prefetch} in the (practically never) case that its loads XOR to this value,
   * so that they have a use and are not optimized away, without a store on every call: a volatile
   * store would wait for the loads it is meant to overlap, and any store would bounce this object's
   * cache line between cores.
   */
  private static final long PREFETCH_SENTINEL = 0x5851f42d4c957f2dL;

  @SuppressWarnings("unused")
  private long prefetchSink;
  private static final int SLICE_BITS = 9;
  private static final int SLICES_PER_WORD = Long.SIZE / SLICE_BITS;
  private static final long GOLDEN = 0x9e3779b97f4a7c15L;
  /** {@code blocks} blocks of {@value #WORDS_PER_BLOCK} words, as the filter writes them. */
  final long[] words;
  private final long blocks;
  private final int hashes;
  private final BlockLocks locks = new BlockLocks();

  BlockBits(long blocks, int hashes) {
    long bits = blocks * BlockedBloomFilter.BLOCK_BITS;
    this.words = FilterWords.allocate(bits, "bits (" + bits + ")");
    this.blocks = blocks;
    this.hashes = hashes;
  }

  /** The index of the first word of the block of a key whose first hash half is {@code h1}. */
  int blockBase(long h1) {
    return (int) (blockIndex(h1) * WORDS_PER_BLOCK);
  }

  /** The block of a key whose first hash half is {@code h1}, in [0, b). */
  long blockIndex(long h1) {
    return BloomFilter.index(h1, blocks);
  }

  /** True if every probed bit of the key in the block at {@code base} is set. */
  boolean contains(int base, long h1, long h2) {
    long slices = h2;
    for (int i = 0; i < hashes; i++) {
      if (i % SLICES_PER_WORD == 0 && i > 0) {
        slices = remix(h1, i);
      }
      int bit = (int) (slices >>> (Long.SIZE - SLICE_BITS));
      slices <<= SLICE_BITS;
      if (((long) WORDS.getOpaque(words, base + (bit >>> 6)) & (1L << bit)) == 0) {
        return false;
      }
    }
    return true;
  }

  /**
   * Stores each key's block base in the batch's slots and starts the loads of its two cache lines.
   */
  void touchBlocks(HashBatch batch) {
    long sink = 0;
    for (int i = 0; i < batch.size(); i++) {
      int base = blockBase(batch.h1[i]);
      batch.slots[i] = base;
      sink ^= (long) WORDS.getOpaque(words, base) ^ (long) WORDS.getOpaque(words, base + 7);
    }
    if (sink == PREFETCH_SENTINEL) {
      prefetchSink = sink;
    }
  }

  /**
   * Sets the key's bits under its block's lock, so that of concurrent puts of one key exactly one
   * flips bits; returns how many this call flipped.
   */
  int setLocked(int base, long h1, long h2) {
    int stripe = locks.lock(base / WORDS_PER_BLOCK);
    try {
      int flipped = 0;
      long slices = h2;
      for (int i = 0; i < hashes; i++) {
        if (i % SLICES_PER_WORD == 0 && i > 0) {
          slices = remix(h1, i);
        }
        int bit = (int) (slices >>> (Long.SIZE - SLICE_BITS));
        slices <<= SLICE_BITS;
        int index = base + (bit >>> 6);
        long word = (long) WORDS.getOpaque(words, index);
        long mask = 1L << bit;
        if ((word & mask) == 0) {
          // Every writer holds the block's lock: a plain read-modify-write loses no bit.
          WORDS.setOpaque(words, index, word | mask);
          flipped++;
        }
      }
      return flipped;
    } finally {
      locks.unlock(stripe);
    }
  }

  /** Starts the loads of the two cache lines of each key's block; see the filter's prefetch. */
  void prefetch(Hash128[] hashes, int count) {
    long sink = 0;
    for (int i = 0; i < count; i++) {
      int base = blockBase(hashes[i].h1());
      sink ^= (long) WORDS.getOpaque(words, base) ^ (long) WORDS.getOpaque(words, base + 7);
    }
    if (sink == PREFETCH_SENTINEL) {
      prefetchSink = sink;
    }
  }

  /**
   * The key's {@code hashes} bit positions inside its block, each in [0, 512), into {@code
   * positions} (at least {@code hashes} long). Positions may repeat.
   */
  static void bitsOf(Hash128 hash, int hashes, int[] positions) {
    long slices = hash.h2();
    for (int i = 0; i < hashes; i++) {
      if (i % SLICES_PER_WORD == 0 && i > 0) {
        slices = remix(hash.h1(), i);
      }
      positions[i] = (int) (slices >>> (Long.SIZE - SLICE_BITS));
      slices <<= SLICE_BITS;
    }
  }

  /** The bits for probes i, i+1, … (i ≥ 7): splitmix64's finalizer of {@code h1 + i·φ}. */
  private static long remix(long h1, int i) {
    long z = h1 + i * GOLDEN;
    z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
    z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
    return z ^ (z >>> 31);
  }
}
