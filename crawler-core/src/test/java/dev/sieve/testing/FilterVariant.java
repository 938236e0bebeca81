package dev.sieve.testing;

import dev.sieve.bloom.BlockedBloomFilter;
import dev.sieve.bloom.BloomFilter;
import dev.sieve.bloom.CountingBloomFilter;
import dev.sieve.bloom.CuckooFilter;
import dev.sieve.bloom.MembershipFilter;
import dev.sieve.bloom.ScalableBloomFilter;
import java.util.List;

/**
 * A member of the filter family under test: how to build one for {@code n} keys at rate {@code ε},
 * and the false-positive rate it promises once it holds {@code n} keys. Adding a variant to every
 * contract test is one line in {@link #all()}.
 *
 * @param name shown as the test's display name
 * @param factory builds an empty filter for {@code (n, ε)}
 * @param bound the promised rate for a filter built for ε and holding {@code n} keys
 */
public record FilterVariant(String name, Factory factory, Bound bound) {
  /** Builds an empty filter. */
  public interface Factory {
    MembershipFilter create(long capacity, double fpp);
  }

  /** The promised false-positive rate of {@code filter}, built for {@code fpp}, at capacity. */
  public interface Bound {
    double at(MembershipFilter filter, double fpp);
  }

  /** Every variant. */
  public static List<FilterVariant> all() {
    return List.of(
        new FilterVariant("classic", BloomFilter::create, (f, fpp) -> 1.15 * fpp),
        new FilterVariant("blocked", BlockedBloomFilter::create, (f, fpp) -> 1.1 * fpp),
        new FilterVariant(
            "scalable with blocked layers grown from n/16",
            (n, fpp) -> ScalableBloomFilter.builder(Math.max(1, n / 16), fpp).blockedLayers(true).build(),
            (f, fpp) -> fpp),
        new FilterVariant("scalable", ScalableBloomFilter::create, (f, fpp) -> fpp),
        new FilterVariant(
            "scalable grown from n/16",
            (n, fpp) -> ScalableBloomFilter.create(Math.max(1, n / 16), fpp),
            (f, fpp) -> fpp),
        new FilterVariant("counting", CountingBloomFilter::create, (f, fpp) -> 1.15 * fpp),
        new FilterVariant(
            "cuckoo",
            CuckooFilter::create,
            (f, fpp) -> 8.0 / (1L << ((CuckooFilter) f).fingerprintBits())));
  }

  public MembershipFilter create(long capacity, double fpp) {
    return factory.create(capacity, fpp);
  }

  @Override
  public String toString() {
    return name;
  }
}
