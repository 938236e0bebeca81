package dev.sieve.frontier;

import dev.sieve.bloom.BlockedBloomFilter;
import dev.sieve.bloom.BloomFilter;
import dev.sieve.bloom.Hash128;
import dev.sieve.bloom.HashBatch;
import dev.sieve.bloom.MembershipFilter;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Bloom filter of every URL ever admitted, in front of a frontier's queues: a URL is admitted
 * only the first time it is offered.
 *
 * <p>{@link #create} uses a {@link BlockedBloomFilter}, which does one memory access per URL
 * where the classic filter does k, for a few percent more bits; {@link #over} puts the Sieve in
 * front of any other filter, such as the classic {@link BloomFilter} where memory is tightest.
 *
 * <p>{@link #admit} is exactly-once per URL under any concurrency: the filter's check-and-set is
 * atomic per URL (the filter's own lock where it has one, {@link
 * MembershipFilter#putIsExactlyOnce()}, else a lock striped by the URL's hash), so when many threads admit the same URL at
 * once exactly one of them is told it is new. Like any Bloom filter it may wrongly report a new URL as
 * seen, with probability {@link #expectedFpp()}; it never lets a seen URL through twice.
 *
 * <p>When the estimated count of distinct URLs first reaches 100% of the capacity, and again at
 * 150%, 200%, 300%, 400%…, one WARN line starting {@code Sieve capacity exceeded:} goes to logger
 * {@value #CAPACITY_LOGGER}, once per threshold.
 *
 * <p>Thread-safe.
 */
public final class Sieve {
  /** The logger of capacity warnings, which people monitor. */
  public static final String CAPACITY_LOGGER = "dev.sieve.capacity";

  private static final Logger capacityLog = LoggerFactory.getLogger(CAPACITY_LOGGER);
  private static final int STRIPES = 4096;

  private final MembershipFilter seen;
  private final double targetFpp;
  private final Object[] stripes = new Object[STRIPES];
  private final Consumer<CapacityWarning> capacityListener;
  /** Index of the next threshold to warn about; guarded by {@code this}. */
  private int nextThreshold;
  /** The estimated count of the next threshold: a lock-free fast-path check for admit. */
  private volatile long nextThresholdCount;
  private final AtomicInteger capacityWarnings = new AtomicInteger();
  private final AtomicLong refusedFull = new AtomicLong();
  private final AtomicLong admitted = new AtomicLong();

  private Sieve(MembershipFilter seen, double targetFpp, Consumer<CapacityWarning> capacityListener) {
    this.seen = seen;
    this.targetFpp = targetFpp;
    this.capacityListener = capacityListener;
    for (int i = 0; i < STRIPES; i++) {
      stripes[i] = new Object();
    }
    this.nextThresholdCount = thresholdCount(0);
  }

  /**
   * Creates a Sieve for {@code expectedUrls} distinct URLs at {@code falsePositiveRate}, over
   * {@link #defaultFilter}.
   *
   * @throws IllegalArgumentException as {@link BlockedBloomFilter#create(long, double)} does
   */
  public static Sieve create(long expectedUrls, double falsePositiveRate) {
    return create(expectedUrls, falsePositiveRate, warning -> {});
  }

  /**
   * Creates a Sieve that also hands each capacity warning to {@code capacityListener}, after
   * logging it, on the admitting thread.
   */
  public static Sieve create(
      long expectedUrls, double falsePositiveRate, Consumer<CapacityWarning> capacityListener) {
    return new Sieve(defaultFilter(expectedUrls, falsePositiveRate), falsePositiveRate,
        capacityListener);
  }

  /**
   * The empty filter {@link #create} puts in front of the queue for {@code expectedUrls} at {@code
   * falsePositiveRate}: a {@link BlockedBloomFilter}. Its {@link MembershipFilter#bitSize()} / 8 is
   * the memory it takes, in bytes.
   *
   * @throws IllegalArgumentException as {@link BlockedBloomFilter#create(long, double)} does
   */
  public static MembershipFilter defaultFilter(long expectedUrls, double falsePositiveRate) {
    return BlockedBloomFilter.create(expectedUrls, falsePositiveRate);
  }

  /**
   * Creates a Sieve in front of {@code filter}, which should be empty and sized for {@code
   * targetFpp}; the capacity is the filter's expected insertions.
   */
  public static Sieve over(
      MembershipFilter filter, double targetFpp, Consumer<CapacityWarning> capacityListener) {
    return new Sieve(filter, targetFpp, capacityListener);
  }

  /**
   * Marks {@code url} seen without queueing it here, for a caller that keeps its own pending URLs
   * (the {@link Frontier}). Exactly-once under any concurrency.
   *
   * @return true if the filter had never seen the URL; false if it was (or might have been) seen
   */
  public boolean admit(CharSequence url) {
    return admit(Hash128.of(url));
  }

  /**
   * Marks the URL with this hash ({@link Hash128#of(CharSequence)} of the URL) seen; as {@link
   * #admit(CharSequence)}, for a caller that hashed it already.
   */
  public boolean admit(Hash128 hash) {
    boolean isNew;
    if (seen.putIsExactlyOnce()) {
      isNew = seen.put(hash);
    } else {
      synchronized (stripes[(int) (hash.h2() >>> 52)]) {
        try {
          isNew = seen.put(hash);
        } catch (IllegalStateException full) {
          refuse(full);
          return false;
        }
      }
    }
    if (isNew) {
      counted(1);
    }
    return isNew;
  }

  /**
   * {@link #admit(Hash128)} for every URL of {@code batch} (hashes of the URLs, as {@link
   * Hash128#of(CharSequence)}), exactly-once as it is; over a filter whose check-and-set is atomic
   * ({@link MembershipFilter#putIsExactlyOnce()}, the default filter) in one {@link
   * MembershipFilter#putAll}, whose cache misses overlap.
   *
   * @param isNew receives, per URL, whether it was never seen (at least {@code batch.size()} long)
   * @return how many URLs were new
   */
  public int admitAll(HashBatch batch, boolean[] isNew) {
    if (!seen.putIsExactlyOnce()) {
      int added = 0;
      for (int i = 0; i < batch.size(); i++) {
        Hash128 hash = batch.get(i);
        isNew[i] = !mightHaveSeen(hash) && admit(hash);
        added += isNew[i] ? 1 : 0;
      }
      return added;
    }
    int added = seen.putAll(batch, isNew);
    counted(added);
    return added;
  }

  /** A cuckoo filter past its load, or a scalable one that cannot allocate its next layer. */
  private void refuse(IllegalStateException full) {
    // The URL cannot be remembered, so it is refused, counted, and the first refusal logged.
    if (refusedFull.getAndIncrement() == 0) {
      capacityLog.error("Sieve filter is full, new URLs are refused from now on: {}",
          full.getMessage());
    }
  }

  /**
   * Counts {@code added} new URLs. The estimate costs a logarithm (per layer): it is checked each
   * time the count passes a multiple of 16, so a threshold is reported at most 16 URLs late.
   */
  private void counted(int added) {
    if (added == 0) {
      return;
    }
    long after = admitted.addAndGet(added);
    if ((after >>> 4) != ((after - added) >>> 4)
        && seen.approximateElementCount() >= nextThresholdCount) {
      warnCapacity();
    }
  }

  /**
   * {@link #admit} for a batch, e.g. the links of one page: hashes them all and lets the filter
   * start the memory loads of all of them at once ({@link #prefetch}); the URLs the filter already
   * holds (most links of a page) are answered without a lock ({@link #mightHaveSeen(Hash128)}),
   * the rest are checked-and-set exactly once, as {@link #admit}.
   *
   * @param isNew receives, per URL, whether it was never seen (at least {@code urls.size()} long)
   * @return how many URLs were new
   */
  public int admitAll(List<? extends CharSequence> urls, boolean[] isNew) {
    HashBatch batch = new HashBatch(Math.max(1, urls.size()));
    for (CharSequence url : urls) {
      batch.add(url);
    }
    return admitAll(batch, isNew);
  }

  /**
   * Starts the memory loads of the filter for a batch of hashes, so that the checks that follow
   * overlap their cache misses; a hint with no effect on answers.
   */
  public void prefetch(Hash128[] hashes, int count) {
    seen.prefetch(hashes, count);
  }

  /**
   * True if the URL with this hash might have been admitted; false if it definitely was not.
   * Lock-free, and final once true: the Sieve never forgets a URL.
   */
  public boolean mightHaveSeen(Hash128 hash) {
    return seen.mightContain(hash);
  }

  /**
   * {@link #mightHaveSeen(Hash128)} for every URL of {@code batch}, the filter's loads for all of
   * them started at once ({@link MembershipFilter#mightContainAll}).
   *
   * @param seen receives, per URL, whether it might have been admitted (at least {@code
   *     batch.size()} long)
   * @return how many might have been
   */
  public int mightHaveSeenAll(HashBatch batch, boolean[] seen) {
    return this.seen.mightContainAll(batch, seen);
  }

  /** True if {@code url} might have been admitted before; false if it definitely was not. */
  public boolean mightHaveSeen(CharSequence url) {
    return seen.mightContain(url);
  }

  /** The estimated number of distinct URLs ever admitted. */
  public long approximateSeen() {
    return seen.approximateElementCount();
  }

  /** The estimated probability that a new URL is wrongly dropped as seen, now. */
  public double expectedFpp() {
    return seen.expectedFpp();
  }

  /** The false-positive rate the filter was sized for. */
  public double targetFpp() {
    return targetFpp;
  }

  /** The number of distinct URLs the filter was sized for. */
  public long capacity() {
    return seen.expectedInsertions();
  }

  /** The filter's layers: more than 1 once a scalable filter has grown. */
  public int filterLayers() {
    return seen instanceof dev.sieve.bloom.ScalableBloomFilter scalable ? scalable.layers() : 1;
  }

  /** URLs refused because the filter could take no more (each logged once, the first at ERROR). */
  public long refusedFull() {
    return refusedFull.get();
  }

  /** The number of capacity warnings logged so far. */
  public int capacityWarnings() {
    return capacityWarnings.get();
  }

  /**
   * Writes the seen filter ({@link MembershipFilter#writeTo}). Pushes running meanwhile may or may
   * not be in it: pause them for a consistent snapshot.
   */
  public void writeFilter(java.io.OutputStream out) throws java.io.IOException {
    seen.writeTo(out);
  }

  /** The filter's size in bits. */
  public long filterBits() {
    return seen.bitSize();
  }

  /** Thresholds as multiples of capacity: 1.0, 1.5, 2.0, 3.0, 4.0, ... */
  public static double threshold(int index) {
    return switch (index) {
      case 0 -> 1.0;
      case 1 -> 1.5;
      default -> index;
    };
  }

  /** The estimated count at which the threshold with this index is crossed. */
  private long thresholdCount(int index) {
    return (long) Math.ceil(threshold(index) * seen.expectedInsertions());
  }

  /**
   * Logs every threshold the estimate has crossed, once each and in order. Serialized: it runs a
   * handful of times in a filter's life.
   */
  private synchronized void warnCapacity() {
    long estimate = seen.approximateElementCount();
    while (estimate >= thresholdCount(nextThreshold)) {
      double crossed = threshold(nextThreshold++);
      CapacityWarning warning =
          new CapacityWarning(
              crossed,
              estimate,
              seen.expectedInsertions(),
              seen.expectedFpp(),
              targetFpp);
      capacityWarnings.incrementAndGet();
      capacityLog.warn(
          String.format(
              Locale.ROOT,
              "Sieve capacity exceeded: ~%,d URLs seen, %.0f%% of capacity %,d; estimated"
                  + " false-positive rate %.3g (target %.3g). %s",
              warning.estimatedCount(),
              warning.threshold() * 100,
              warning.capacity(),
              warning.estimatedFpp(),
              warning.targetFpp(),
              filterLayers() > 1 || seen instanceof dev.sieve.bloom.ScalableBloomFilter
                  ? "The filter grows (" + filterLayers() + " layers) to hold the rate: raise"
                      + " --expected-urls to use less memory."
                  : "New URLs are being dropped as seen more often than planned: raise"
                      + " --expected-urls."));
      capacityListener.accept(warning);
    }
    nextThresholdCount = thresholdCount(nextThreshold);
  }
}
