package dev.sieve.frontier.queue;

import dev.sieve.frontier.Sieve;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * What a crawl remembers of every URL ever put in its queues, by {@link WorkQueue#seenKey}: its
 * {@link Sieve} (a few bits per URL, wrong with probability ε), or in the benchmark's baseline an
 * exact set of the keys, as the reference service keeps every URL. Guarded by the crawl's lock.
 */
public interface SeenKeys {
  /** Marks {@code key} seen; true if it was never seen before. */
  boolean admit(String key);

  /** True if {@code key} might have been seen; false if it surely was not. */
  boolean mightHaveSeen(String key);

  /** {@link #admit} for each of {@code keys} in order, setting {@code isNew} at its position. */
  default void admitAll(List<String> keys, boolean[] isNew) {
    for (int i = 0; i < keys.size(); i++) {
      isNew[i] = admit(keys.get(i));
    }
  }

  /**
   * Every key ever admitted, as a string in an exact set: never wrong, never forgetting, and
   * dozens of bytes per key (the baseline {@code bench serve} compares the Sieve with).
   */
  static SeenKeys exact() {
    Set<String> keys = new HashSet<>();
    return new SeenKeys() {
      @Override
      public boolean admit(String key) {
        return keys.add(key);
      }

      @Override
      public boolean mightHaveSeen(String key) {
        return keys.contains(key);
      }
    };
  }

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

      @Override
      public void admitAll(List<String> keys, boolean[] isNew) {
        sieve.admitAll(keys, isNew); // one filter pass for the batch
      }
    };
  }
}
