package dev.sieve.bloom;

import dev.sieve.bloom.MembershipFilter.Layout;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A scalable Bloom filter (Almeida, Baquero, Preguiça &amp; Hutchison 2007): a stack of classic
 * filters that grows as keys arrive, and keeps its false-positive rate under the target however
 * many keys that is.
 *
 * <h2>The maths</h2>
 *
 * Layer {@code i} (from 0) is a {@link BloomFilter} for {@code n_i = n₀·s^i} keys at rate {@code
 * ε_i = ε₀·r^i}, with growth {@code s} (default 2) and tightening ratio {@code r} (default 0.85):
 * its {@link LayerPlan}.
 * A key absent from every layer is reported present with probability {@code 1 − Π(1 − ε_i) ≤ Σ
 * ε_i < ε₀/(1 − r)}, so the first layer gets {@code ε₀ = ε·(1 − r)} and the filter meets the
 * target {@code ε} at any size. Each layer is sized by the classic formulas, so layer {@code i}
 * takes about {@code n_i·(log2(1/ε₀) + i·log2(1/r))·1.44} bits: with the defaults, about 13.5 bits
 * per key for the first layer at {@code ε = 1%}, against 9.6 for a classic filter of the right
 * size, the price of not knowing the size.
 *
 * <h2>Growth</h2>
 *
 * A layer is full when it holds {@code n_i} keys by its own count of accepted puts (puts that
 * stored a key new to the whole filter); the put that finds the newest layer full adds the next
 * one. Puts first probe every layer, newest first: a key present in any layer is not new and is
 * not stored again.
 *
 * <h2>Thread safety</h2>
 *
 * All methods may be called from many threads at once. The layers are an array replaced whole
 * (copy on write) and published through a volatile field; a put reserves its place in the newest
 * layer by a compare-and-set on that layer's count, so no layer takes more than {@code n_i} keys,
 * and a layer is added under a lock, only by a put that saw the array it replaces with its newest
 * layer full: each overflow adds exactly one layer. As for {@link BloomFilter}, two threads
 * putting the same key at once may both see true; the Sieve locks per key.
 */
public final class ScalableBloomFilter implements MembershipFilter {
  /** The default growth s: each layer holds twice the keys of the one before. */
  public static final int DEFAULT_GROWTH = 2;

  /** The default tightening ratio r: each layer's rate is 0.85 of the one before. */
  public static final double DEFAULT_TIGHTENING_RATIO = 0.85;

  private final LayerPlan plan;
  private final Object growLock = new Object();
  /** The layers, oldest first; replaced whole under {@link #growLock}, never changed in place. */
  private volatile Layer[] layers;

  /** One filter of the stack (classic or blocked), and the count of keys it accepted. */
  static final class Layer {
    final MembershipFilter filter;
    final long capacity;
    final AtomicLong count;

    Layer(MembershipFilter filter, long capacity, long count) {
      this.filter = filter;
      this.capacity = capacity;
      this.count = new AtomicLong(count);
    }

    /** Takes one place in the layer if it has one left. */
    boolean reserve() {
      for (long c = count.get(); c < capacity; c = count.get()) {
        if (count.compareAndSet(c, c + 1)) {
          return true;
        }
      }
      return false;
    }
  }

  /** A filter of this plan with these layers, oldest first (at least one). */
  ScalableBloomFilter(LayerPlan plan, Layer[] layers) {
    this.plan = plan;
    this.layers = layers;
  }

  /**
   * Creates a filter that starts sized for {@code initialCapacity} keys, grows by the defaults and
   * keeps its rate under {@code falsePositiveRate}.
   *
   * @throws IllegalArgumentException if {@code initialCapacity ≤ 0}, the rate is not in (0, 1), or
   *     the first layer would be too large to allocate
   */
  public static ScalableBloomFilter create(long initialCapacity, double falsePositiveRate) {
    return builder(initialCapacity, falsePositiveRate).build();
  }

  /** A builder for a filter starting at {@code initialCapacity} under {@code falsePositiveRate}. */
  public static Builder builder(long initialCapacity, double falsePositiveRate) {
    return new Builder(initialCapacity, falsePositiveRate);
  }

  /** Chooses the growth and tightening ratio; the arguments are checked as they are set. */
  public static final class Builder {
    private final long initialCapacity;
    private final double falsePositiveRate;
    private int growth = DEFAULT_GROWTH;
    private double tighteningRatio = DEFAULT_TIGHTENING_RATIO;
    private Layout layerLayout = Layout.CLASSIC;

    private Builder(long initialCapacity, double falsePositiveRate) {
      if (initialCapacity <= 0) {
        throw new IllegalArgumentException(
            "initialCapacity (" + initialCapacity + ") must be > 0");
      }
      FilterSizing.checkRate(falsePositiveRate);
      this.initialCapacity = initialCapacity;
      this.falsePositiveRate = falsePositiveRate;
    }

    /** Each layer holds {@code growth} times the keys of the one before; at least 2. */
    public Builder growth(int growth) {
      if (growth < 2) {
        throw new IllegalArgumentException("growth (" + growth + ") must be >= 2");
      }
      this.growth = growth;
      return this;
    }

    /** Each layer's rate is {@code ratio} times the one before's; in (0, 1). */
    public Builder tighteningRatio(double ratio) {
      if (!(ratio > 0 && ratio < 1)) {
        throw new IllegalArgumentException("tighteningRatio (" + ratio + ") must be in (0, 1)");
      }
      this.tighteningRatio = ratio;
      return this;
    }

    /**
     * Makes each layer a {@link BlockedBloomFilter} (one cache line per key, a few percent more
     * bits) instead of a classic {@link BloomFilter} (the default, least memory).
     */
    public Builder blockedLayers(boolean blocked) {
      this.layerLayout = blocked ? Layout.BLOCKED : Layout.CLASSIC;
      return this;
    }

    /** Creates the filter with its first layer. */
    public ScalableBloomFilter build() {
      LayerPlan plan =
          new LayerPlan(initialCapacity, falsePositiveRate, growth, tighteningRatio, layerLayout);
      return new ScalableBloomFilter(plan, new Layer[] {newLayer(plan, 0)});
    }
  }

  private static Layer newLayer(LayerPlan plan, int i) {
    return new Layer(plan.create(i), plan.capacity(i), 0);
  }

  /**
   * Adds the key with this hash unless some layer might hold it.
   *
   * @return true if the key was definitely absent from every layer and is now stored; false if
   *     it might have been present already
   * @throws IllegalStateException if the filter had to grow and the next layer is too large to
   *     allocate; the filter is unchanged and still answers for every key put before
   */
  @Override
  public boolean put(Hash128 hash) {
    Layer[] seen = layers;
    for (int i = seen.length - 1; i >= 0; i--) {
      if (seen[i].filter.mightContain(hash)) {
        return false;
      }
    }
    Layer layer = reserve(seen);
    if (layer.filter.put(hash)) {
      return true;
    }
    // Another put set the key's last bits since we probed: the same key or a false positive.
    layer.count.decrementAndGet();
    return false;
  }

  /** Reserves a place in the newest layer, adding a layer when that one is full. */
  private Layer reserve(Layer[] seen) {
    Layer[] current = seen;
    while (true) {
      Layer newest = current[current.length - 1];
      if (newest.reserve()) {
        return newest;
      }
      current = grow(current);
    }
  }

  /**
   * Appends a layer if {@code full}, whose newest layer was seen full, is still the current array;
   * otherwise another put already grew it.
   *
   * @return the current array
   */
  private Layer[] grow(Layer[] full) {
    synchronized (growLock) {
      Layer[] current = layers;
      if (current != full) {
        return current;
      }
      Layer next;
      try {
        next = newLayer(plan, full.length);
      } catch (IllegalArgumentException e) {
        throw new IllegalStateException(
            "scalable filter cannot grow past " + full.length + " layers: " + e.getMessage(), e);
      }
      Layer[] grown = Arrays.copyOf(full, full.length + 1);
      grown[full.length] = next;
      layers = grown;
      return grown;
    }
  }

  /** True if some layer might hold the key; the newest (largest, fullest) is probed first. */
  @Override
  public boolean mightContain(Hash128 hash) {
    Layer[] current = layers;
    for (int i = current.length - 1; i >= 0; i--) {
      if (current[i].filter.mightContain(hash)) {
        return true;
      }
    }
    return false;
  }

  /** Prefetches in every layer: a key never put is probed in all of them. */
  @Override
  public void prefetch(Hash128[] hashes, int count) {
    for (Layer layer : layers) {
      layer.filter.prefetch(hashes, count);
    }
  }

  /** The number of layers, at least 1. */
  public int layers() {
    return layers.length;
  }

  /** The keys each layer has accepted, oldest first. */
  long[] layerCounts() {
    return Arrays.stream(layers).mapToLong(layer -> layer.count.get()).toArray();
  }

  /** The layers' classic filters, oldest first. */
  BloomFilter[] layerFilters() {
    return Arrays.stream(layers).map(layer -> layer.filter).toArray(BloomFilter[]::new);
  }

  /** The growth s. */
  public int growth() {
    return plan.growth();
  }

  /** The tightening ratio r. */
  public double tighteningRatio() {
    return plan.tighteningRatio();
  }

  /** The rate the filter keeps under at any size (ε). */
  public double targetFpp() {
    return plan.falsePositiveRate();
  }

  /** The capacity of the first layer (n₀); the filter grows past it. */
  @Override
  public long expectedInsertions() {
    return plan.initialCapacity();
  }

  /** The sum of the layers' estimates. */
  @Override
  public long approximateElementCount() {
    long sum = 0;
    for (Layer layer : layers) {
      long estimate = layer.filter.approximateElementCount();
      if (estimate == Long.MAX_VALUE) {
        return Long.MAX_VALUE;
      }
      sum += estimate;
    }
    return sum;
  }

  /** {@code 1 − Π(1 − fpp_i)} over the layers' current rates. */
  @Override
  public double expectedFpp() {
    double allMiss = 1;
    for (Layer layer : layers) {
      allMiss *= 1 - layer.filter.expectedFpp();
    }
    return 1 - allMiss;
  }

  /** The sum of the layers' bits. */
  @Override
  public long bitSize() {
    long sum = 0;
    for (Layer layer : layers) {
      sum += layer.filter.bitSize();
    }
    return sum;
  }

  /**
   * Writes the filter as {@link ScalableFormat} describes. Not atomic with respect to concurrent
   * puts: quiesce writers first for an exact snapshot.
   */
  @Override
  public void writeTo(OutputStream out) throws IOException {
    ScalableFormat.write(plan, layers, out);
  }

  /** Reads what follows the preamble of a scalable filter. */
  static ScalableBloomFilter readBody(DataInputStream data) throws IOException {
    return ScalableFormat.read(data);
  }

  @Override
  public String toString() {
    return String.format(
        Locale.ROOT,
        "ScalableBloomFilter{n0=%d, ε=%s, s=%d, r=%s, layers=%d, bits=%d}",
        plan.initialCapacity(),
        plan.falsePositiveRate(),
        plan.growth(),
        plan.tighteningRatio(),
        layers(),
        bitSize());
  }
}
