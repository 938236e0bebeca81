package dev.sieve.frontier;

import dev.sieve.bloom.BlockedBloomFilter;
import dev.sieve.bloom.BloomFilter;
import dev.sieve.bloom.CuckooFilter;
import dev.sieve.bloom.MembershipFilter;
import dev.sieve.bloom.ScalableBloomFilter;
import java.util.Locale;
import java.util.Optional;

/** The structure a {@link Sieve} remembers seen URLs in. */
public enum SeenFilter {
  /** Cache-blocked Bloom filter: one memory access per URL, a few percent more bits (default). */
  BLOCKED,
  /** Classic Bloom filter: the least memory of the Bloom filters, k memory accesses per URL. */
  CLASSIC,
  /** Cuckoo filter: fewer bits at tight rates, fixed size; a put past its load is refused. */
  CUCKOO;

  /**
   * An empty filter for {@code expectedUrls} at {@code falsePositiveRate}. With {@code grow}, a
   * {@link ScalableBloomFilter} of this kind's layers that keeps its rate at the target however
   * many URLs arrive; otherwise one fixed filter whose rate climbs past capacity (and the Sieve
   * warns).
   *
   * @throws IllegalArgumentException for bad sizes, or {@code grow} with {@link #CUCKOO}
   */
  public MembershipFilter create(long expectedUrls, double falsePositiveRate, boolean grow) {
    if (grow) {
      if (this == CUCKOO) {
        throw new IllegalArgumentException(
            "filter (cuckoo) has a fixed size and cannot grow: choose on-capacity warn, or a"
                + " Bloom filter");
      }
      return ScalableBloomFilter.builder(expectedUrls, falsePositiveRate)
          .blockedLayers(this == BLOCKED)
          .build();
    }
    return switch (this) {
      case BLOCKED -> BlockedBloomFilter.create(expectedUrls, falsePositiveRate);
      case CLASSIC -> BloomFilter.create(expectedUrls, falsePositiveRate);
      case CUCKOO -> CuckooFilter.create(expectedUrls, falsePositiveRate);
    };
  }

  /** The lower-case name used on the command line. */
  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** Parses {@code blocked}, {@code classic} or {@code cuckoo}, case-insensitively. */
  public static Optional<SeenFilter> fromString(String name) {
    for (SeenFilter kind : values()) {
      if (kind.label().equalsIgnoreCase(name == null ? "" : name.strip())) {
        return Optional.of(kind);
      }
    }
    return Optional.empty();
  }
}
