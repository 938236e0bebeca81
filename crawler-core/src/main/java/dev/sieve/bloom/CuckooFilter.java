package dev.sieve.bloom;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Locale;
import java.util.concurrent.locks.StampedLock;

/**
 * A cuckoo filter (Fan, Andersen, Kaminsky &amp; Mitzenmacher 2014): an approximate set that keeps
 * an {@code f}-bit fingerprint of each key in one of two buckets of 4 slots, and so can remove
 * keys.
 *
 * <h2>The maths</h2>
 *
 * Sized by {@link FilterSizing#cuckoo}: {@code f = ⌈log2(2b/ε)⌉ = ⌈log2(1/ε) + 3⌉} bits for
 * bucket size {@code b = 4}, at most {@value FilterSizing#MAX_FINGERPRINT_BITS}, and a power of
 * two of buckets holding the expected insertions at a load of at most {@value
 * FilterSizing#CUCKOO_MAX_LOAD}. A key's fingerprint is drawn from the second half of its {@link
 * Hash128}, uniform in {@code [1, 2^f − 1]} (0 marks an empty slot); its first bucket {@code i1}
 * from the first half; its second by partial-key cuckoo hashing, {@code i2 = i1 ⊕ hash(fp)}, so
 * either bucket and the fingerprint give the other. A query compares at most {@code 2b = 8}
 * fingerprints, so the rate is at most {@code 2b/2^f}, and {@code 1 − (1 − 1/(2^f − 1))^(8α)} at
 * load {@code α} ({@link #expectedFpp()}).
 *
 * <p>When both buckets are full, {@code put} evicts a random fingerprint to its other bucket, and
 * so on for at most {@value #MAX_KICKS} kicks.
 *
 * <h2>Semantics</h2>
 *
 * <ul>
 *   <li>It is a set: {@link #put} returns false, storing nothing, when the key's fingerprint is
 *       already in one of its two buckets (the key, or another key with the same fingerprint and
 *       buckets, was put before). A key put twice is stored once, as the Sieve wants.
 *   <li>When no kick chain finds a free slot, {@code put} undoes every eviction of the chain, so
 *       the table is exactly as before and every earlier key is still found, and throws {@link
 *       IllegalStateException} ({@code "cuckoo filter full: …"}). It never loses a key silently.
 *   <li>{@link #remove} deletes one copy of the key's fingerprint from its buckets. Removing a key
 *       that was never put is harmless only when its fingerprint is absent: otherwise it deletes
 *       the fingerprint of another key that shares it and both buckets, which then reads absent
 *       (a property of every cuckoo filter). Callers must remove only keys whose put returned
 *       true, once per such put. For the same reason a key whose put returned false is found only
 *       while the key it collided with stays.
 * </ul>
 *
 * <h2>Thread safety</h2>
 *
 * One {@link StampedLock} guards the table: {@link #put} and {@link #remove} hold its write lock
 * (a kick chain moves fingerprints through buckets anywhere in the table, so finer locks would
 * need lock ordering along the path); {@link #mightContain} reads optimistically without locking
 * and retries under the read lock if a write overlapped, so it never sees a fingerprint mid-move.
 * Writes are serialized; reads scale.
 */
public final class CuckooFilter implements MembershipFilter {
  /** The longest eviction chain one put tries. */
  static final int MAX_KICKS = 500;

  private static final int B = FilterSizing.CUCKOO_BUCKET_SIZE;

  /** The packed slots; package-private for {@link CuckooFormat}. */
  final long[] words;
  private final int fingerprintBits;
  private final long fingerprintMask;
  private final long buckets;
  private final long bucketMask;
  private final long expectedInsertions;
  private final StampedLock lock = new StampedLock();
  /** Fingerprints stored; written under the write lock (or by {@link CuckooFormat} on a new one). */
  volatile long count;
  /** The state of the victim choice; guarded by the write lock. */
  private long random = 0x9e37_79b9_7f4a_7c15L;
  /** The slots a kick chain wrote and what they held, to undo it; guarded by the write lock. */
  private final long[] kickedSlots = new long[MAX_KICKS];
  private final long[] kickedFingerprints = new long[MAX_KICKS];
  /** For tests: called on the writing thread while a kicked fingerprint is out of the table. */
  volatile KickObserver kickObserver;

  /** Sees each fingerprint a kick takes out of {@code bucket}, before it is placed again. */
  interface KickObserver {
    void evicted(long bucket, long fp);
  }

  /** An empty table: {@code buckets} buckets of 4 slots of {@code fingerprintBits} bits. */
  CuckooFilter(int fingerprintBits, long buckets, long expectedInsertions) {
    this.fingerprintBits = fingerprintBits;
    this.fingerprintMask = (1L << fingerprintBits) - 1;
    this.buckets = buckets;
    this.bucketMask = buckets - 1;
    this.expectedInsertions = expectedInsertions;
    this.words =
        FilterWords.allocate(
            buckets * B * fingerprintBits, "cuckoo table (" + buckets + " buckets)");
  }

  /**
   * Creates a filter sized for {@code expectedInsertions} keys at {@code falsePositiveRate}; see
   * {@link FilterSizing#cuckoo}.
   *
   * @throws IllegalArgumentException if {@code expectedInsertions ≤ 0}, the rate is not in (0, 1)
   *     or needs fingerprints wider than {@value FilterSizing#MAX_FINGERPRINT_BITS} bits (below
   *     {@code 8/2^32 ≈ 1.9·10⁻⁹}), or the filter would be too large to allocate
   */
  public static CuckooFilter create(long expectedInsertions, double falsePositiveRate) {
    FilterSizing.CuckooPlan plan = FilterSizing.cuckoo(expectedInsertions, falsePositiveRate);
    if (plan.fpp() > falsePositiveRate) {
      throw new IllegalArgumentException(
          String.format(
              Locale.ROOT,
              "falsePositiveRate (%s) needs fingerprints over %d bits; the least a cuckoo filter"
                  + " offers is %.3g",
              falsePositiveRate,
              FilterSizing.MAX_FINGERPRINT_BITS,
              plan.fpp()));
    }
    return new CuckooFilter(plan.fingerprintBits(), plan.buckets(), expectedInsertions);
  }

  /**
   * Adds the key with this hash.
   *
   * @return true if the key's fingerprint was absent from both its buckets and is now stored;
   *     false if it was already there, in which case nothing changed
   * @throws IllegalStateException if the table is too full to place it; the table is unchanged
   *     and every key stored before is still found
   */
  @Override
  public boolean put(Hash128 hash) {
    long fp = fingerprint(hash);
    long i1 = firstBucket(hash);
    long i2 = otherBucket(i1, fp);
    long stamp = lock.writeLock();
    try {
      if (holds(i1, fp) || holds(i2, fp)) {
        return false;
      }
      if (store(i1, fp) || store(i2, fp) || kick(fp, (next() & 1) == 0 ? i1 : i2)) {
        count++;
        return true;
      }
      throw new IllegalStateException(
          String.format(
              Locale.ROOT,
              "cuckoo filter full: %d fingerprints in %d buckets of %d (load %.3f, sized for %d"
                  + " keys); %d kicks found no free slot. The key was not added; every key added"
                  + " before is still present",
              count,
              buckets,
              B,
              (double) count / (buckets * B),
              expectedInsertions,
              MAX_KICKS));
    } finally {
      lock.unlockWrite(stamp);
    }
  }

  @Override
  public boolean mightContain(Hash128 hash) {
    long fp = fingerprint(hash);
    long i1 = firstBucket(hash);
    long i2 = otherBucket(i1, fp);
    long stamp = lock.tryOptimisticRead();
    if (stamp != 0) {
      boolean found = holds(i1, fp) || holds(i2, fp);
      if (lock.validate(stamp)) {
        return found;
      }
    }
    stamp = lock.readLock();
    try {
      return holds(i1, fp) || holds(i2, fp);
    } finally {
      lock.unlockRead(stamp);
    }
  }

  /**
   * Removes one copy of the key's fingerprint from its buckets; see the class comment for what is
   * safe to remove.
   *
   * @return true if a copy was found and removed; false if none was there (nothing changed)
   */
  public boolean remove(Hash128 hash) {
    long fp = fingerprint(hash);
    long i1 = firstBucket(hash);
    long i2 = otherBucket(i1, fp);
    long stamp = lock.writeLock();
    try {
      if (clear(i1, fp) || clear(i2, fp)) {
        count--;
        return true;
      }
      return false;
    } finally {
      lock.unlockWrite(stamp);
    }
  }

  /** Removes {@code key}; see {@link #remove(Hash128)}. */
  public boolean remove(CharSequence key) {
    return remove(Hash128.of(key));
  }

  /**
   * Evicts fingerprints along a random walk from {@code bucket} until one lands in a free slot.
   * If none does within {@value #MAX_KICKS} kicks, puts every evicted fingerprint back.
   *
   * @return true if {@code fp} is now stored; false if the table is unchanged
   */
  private boolean kick(long fp, long bucket) {
    long carried = fp;
    long at = bucket;
    for (int kicks = 0; kicks < MAX_KICKS; kicks++) {
      long slot = at * B + (next() & (B - 1));
      kickedSlots[kicks] = slot;
      kickedFingerprints[kicks] = slot(slot);
      setSlot(slot, carried);
      carried = kickedFingerprints[kicks];
      KickObserver observer = kickObserver;
      if (observer != null) {
        observer.evicted(at, carried);
      }
      at = otherBucket(at, carried);
      if (store(at, carried)) {
        return true;
      }
    }
    for (int kicks = MAX_KICKS - 1; kicks >= 0; kicks--) {
      setSlot(kickedSlots[kicks], kickedFingerprints[kicks]);
    }
    return false;
  }

  /** The key's fingerprint, uniform in [1, 2^f − 1]. */
  long fingerprint(Hash128 hash) {
    return 1 + BloomFilter.index(hash.h2(), fingerprintMask);
  }

  long firstBucket(Hash128 hash) {
    return hash.h1() & bucketMask;
  }

  /** The other bucket of a fingerprint in {@code bucket}: {@code bucket ⊕ hash(fp)}. */
  long otherBucket(long bucket, long fp) {
    return bucket ^ (mix(fp) & bucketMask);
  }

  /** The SplitMix64 finalizer (Steele, Lea &amp; Flood 2014). */
  private static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xbf58_476d_1ce4_e5b9L;
    z = (z ^ (z >>> 27)) * 0x94d0_49bb_1331_11ebL;
    return z ^ (z >>> 31);
  }

  /** The next pseudo-random value of the victim choice; under the write lock. */
  private long next() {
    random += 0x9e37_79b9_7f4a_7c15L;
    return mix(random);
  }

  private boolean holds(long bucket, long fp) {
    long first = bucket * B;
    for (int i = 0; i < B; i++) {
      if (slot(first + i) == fp) {
        return true;
      }
    }
    return false;
  }

  /** Puts {@code fp} in a free slot of {@code bucket}, if it has one. */
  private boolean store(long bucket, long fp) {
    long first = bucket * B;
    for (int i = 0; i < B; i++) {
      if (slot(first + i) == 0) {
        setSlot(first + i, fp);
        return true;
      }
    }
    return false;
  }

  /** Empties one slot of {@code bucket} holding {@code fp}, if one does. */
  private boolean clear(long bucket, long fp) {
    long first = bucket * B;
    for (int i = 0; i < B; i++) {
      if (slot(first + i) == fp) {
        setSlot(first + i, 0);
        return true;
      }
    }
    return false;
  }

  /** The fingerprint in slot {@code index}: f bits from bit {@code index·f}, maybe across words. */
  long slot(long index) {
    long bit = index * fingerprintBits;
    int at = (int) (bit >>> 6);
    int offset = (int) (bit & 63);
    long value = words[at] >>> offset;
    if (offset + fingerprintBits > 64) {
      value |= words[at + 1] << (64 - offset);
    }
    return value & fingerprintMask;
  }

  private void setSlot(long index, long fp) {
    long bit = index * fingerprintBits;
    int at = (int) (bit >>> 6);
    int offset = (int) (bit & 63);
    words[at] = (words[at] & ~(fingerprintMask << offset)) | (fp << offset);
    if (offset + fingerprintBits > 64) {
      int spill = 64 - offset;
      words[at + 1] = (words[at + 1] & ~(fingerprintMask >>> spill)) | (fp >>> spill);
    }
  }

  /** The fingerprint width (f). */
  public int fingerprintBits() {
    return fingerprintBits;
  }

  /** The number of buckets of 4 slots, a power of two. */
  public long bucketCount() {
    return buckets;
  }

  /** The fraction of slots holding a fingerprint. */
  public double loadFactor() {
    return (double) count / (buckets * B);
  }

  /** The table size: {@code buckets · 4 · f}. */
  @Override
  public long bitSize() {
    return buckets * B * fingerprintBits;
  }

  @Override
  public long expectedInsertions() {
    return expectedInsertions;
  }

  /** The number of fingerprints stored: the keys put (and not removed) less collisions. */
  @Override
  public long approximateElementCount() {
    return count;
  }

  /**
   * The probability that a key never put is reported present now: {@code 1 − (1 − 1/(2^f −
   * 1))^(8α)} at load {@code α}; at most {@code 2b/2^f}.
   */
  @Override
  public double expectedFpp() {
    double compared = 2.0 * B * loadFactor();
    return -Math.expm1(compared * Math.log1p(-1.0 / fingerprintMask));
  }

  /** Writes the filter as {@link CuckooFormat} describes, under the read lock: exact. */
  @Override
  public void writeTo(OutputStream out) throws IOException {
    DataOutputStream data = new DataOutputStream(out);
    long stamp = lock.readLock();
    try {
      CuckooFormat.write(this, data);
    } finally {
      lock.unlockRead(stamp);
    }
    data.flush();
  }

  /** Reads what follows the preamble of a cuckoo filter. */
  static CuckooFilter readBody(DataInputStream data) throws IOException {
    return CuckooFormat.read(data);
  }

  @Override
  public String toString() {
    return String.format(
        Locale.ROOT,
        "CuckooFilter{n=%d, f=%d, buckets=%d, count=%d}",
        expectedInsertions,
        fingerprintBits,
        buckets,
        count);
  }
}
