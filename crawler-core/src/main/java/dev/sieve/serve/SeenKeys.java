package dev.sieve.serve;

import dev.sieve.frontier.Sieve;

/**
 * What a crawl remembers of every URL ever put in its queues, by {@link WorkQueue#seenKey}: its
 * {@link Sieve} (a few bits per URL, wrong with probability ε), or in the benchmark's baseline an
 * exact set of the keys, as the reference service keeps every URL. Guarded by the crawl's lock.
 */
interface SeenKeys {
  /** Marks {@code key} seen; true if it was never seen before. */
  boolean admit(String key);

  /** True if {@code key} might have been seen; false if it surely was not. */
  boolean mightHaveSeen(String key);

  /** The keys remembered by {@code sieve}. */
  static SeenKeys of(Sieve sieve) {
    return new SeenKeys() {
      @Override
      public boolean admit(String key) {
        return sieve.admit(key);
      }

      @Override
      public boolean mightHaveSeen(String key) {
        return sieve.mightHaveSeen(key);
      }
    };
  }
}
