package dev.sieve.bench;

import com.google.common.hash.BloomFilter;
import com.google.common.hash.Funnel;
import com.google.common.hash.PrimitiveSink;
import dev.sieve.bloom.Hash128;
import dev.sieve.bloom.HashBatch;
import dev.sieve.frontier.Sieve;

/** The filters {@code bench sieve} compares, each fed the same chunks of key bytes. */
final class FilterTargets {
  private FilterTargets() {}

  /** One filter under test, one thread's view of it, fed a chunk of keys at a time. */
  interface Target {
    /** Puts every key of the chunk, {@code isNew} per key; returns how many were new. */
    int put(SyntheticKeys keys, boolean[] isNew);

    /** Queries every key of the chunk into {@code found}. */
    void query(SyntheticKeys keys, boolean[] found);
  }

  /** The Sieve as the crawler uses it for a page's links: in batches. */
  static final class SieveBatched implements Target {
    private final Sieve sieve;
    private final HashBatch hashes;
    private final boolean[] answers;

    SieveBatched(Sieve sieve, int batch) {
      this.sieve = sieve;
      this.hashes = new HashBatch(batch);
      this.answers = new boolean[batch];
    }

    @Override
    public int put(SyntheticKeys keys, boolean[] isNew) {
      int added = 0;
      for (int start = 0; start < keys.count(); start += hashes.capacity()) {
        fill(keys, start);
        added += sieve.admitAll(hashes, answers);
        System.arraycopy(answers, 0, isNew, start, hashes.size());
      }
      return added;
    }

    @Override
    public void query(SyntheticKeys keys, boolean[] found) {
      for (int start = 0; start < keys.count(); start += hashes.capacity()) {
        fill(keys, start);
        sieve.mightHaveSeenAll(hashes, answers);
        System.arraycopy(answers, 0, found, start, hashes.size());
      }
    }

    private void fill(SyntheticKeys keys, int start) {
      hashes.clear();
      int end = Math.min(keys.count(), start + hashes.capacity());
      for (int i = start; i < end; i++) {
        hashes.add(keys.bytes(), keys.offset(i), keys.length(i));
      }
    }
  }

  /** The Sieve one key at a time ({@code --batch 1}). */
  record SieveOneByOne(Sieve sieve) implements Target {
    @Override
    public int put(SyntheticKeys keys, boolean[] isNew) {
      int added = 0;
      for (int i = 0; i < keys.count(); i++) {
        isNew[i] = sieve.admit(Hash128.of(keys.bytes(), keys.offset(i), keys.length(i)));
        added += isNew[i] ? 1 : 0;
      }
      return added;
    }

    @Override
    public void query(SyntheticKeys keys, boolean[] found) {
      for (int i = 0; i < keys.count(); i++) {
        found[i] = sieve.mightHaveSeen(Hash128.of(keys.bytes(), keys.offset(i), keys.length(i)));
      }
    }
  }

  /** Guava's BloomFilter, one key at a time (it has no batch API), over the same bytes. */
  static final class GuavaTarget implements Target {
    private final BloomFilter<KeySlice> guava;
    private final KeySlice slice = new KeySlice();

    GuavaTarget(BloomFilter<KeySlice> guava) {
      this.guava = guava;
    }

    @Override
    public int put(SyntheticKeys keys, boolean[] isNew) {
      int added = 0;
      slice.bytes = keys.bytes();
      for (int i = 0; i < keys.count(); i++) {
        slice.offset = keys.offset(i);
        slice.length = keys.length(i);
        isNew[i] = guava.put(slice);
        added += isNew[i] ? 1 : 0;
      }
      return added;
    }

    @Override
    public void query(SyntheticKeys keys, boolean[] found) {
      slice.bytes = keys.bytes();
      for (int i = 0; i < keys.count(); i++) {
        slice.offset = keys.offset(i);
        slice.length = keys.length(i);
        found[i] = guava.mightContain(slice);
      }
    }
  }

  /**
   * A key's bytes in a chunk, for Guava: its funnel hashes them as they are, as the Sieve does,
   * so both compute Murmur3 over the same bytes.
   */
  static final class KeySlice {
    static final Funnel<KeySlice> FUNNEL = KeyFunnel.INSTANCE;
    byte[] bytes;
    int offset;
    int length;
  }

  private enum KeyFunnel implements Funnel<KeySlice> {
    INSTANCE;

    @Override
    public void funnel(KeySlice key, PrimitiveSink into) {
      into.putBytes(key.bytes, key.offset, key.length);
    }
  }

}
