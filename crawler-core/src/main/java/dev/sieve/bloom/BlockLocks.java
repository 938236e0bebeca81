package dev.sieve.bloom;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Spin locks striped by block, for filters whose keys each live in one block: holding a block's
 * stripe makes a key's check-and-set atomic, at one compare-and-set to take it and a plain
 * release store to give it back, where an atomic OR per word costs one fence per bit set. The
 * critical sections are a few in-cache loads and stores, so a waiter spins, yielding after a while
 * in case the holder was descheduled. Each stripe has a cache line of its own.
 */
final class BlockLocks {
  private static final int STRIPES = 1024;
  /** Ints per 64-byte cache line. */
  private static final int PAD = 16;
  private static final int SPINS_BEFORE_YIELD = 64;
  private static final VarHandle STATE = MethodHandles.arrayElementVarHandle(int[].class);

  private final int[] state = new int[STRIPES * PAD];

  /** Takes the stripe of block {@code block} and returns it, for {@link #unlock}. */
  int lock(long block) {
    int stripe = (int) (block & (STRIPES - 1)) * PAD;
    if (!STATE.compareAndSet(state, stripe, 0, 1)) {
      contended(stripe);
    }
    return stripe;
  }

  private void contended(int stripe) {
    int spins = 0;
    do {
      while ((int) STATE.getOpaque(state, stripe) != 0) {
        if (++spins < SPINS_BEFORE_YIELD) {
          Thread.onSpinWait();
        } else {
          Thread.yield();
        }
      }
    } while (!STATE.compareAndSet(state, stripe, 0, 1));
  }

  /** Gives back a stripe {@link #lock} returned. */
  void unlock(int stripe) {
    STATE.setRelease(state, stripe, 0);
  }
}
