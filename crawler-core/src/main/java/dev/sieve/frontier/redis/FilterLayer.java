package dev.sieve.frontier.redis;

import dev.sieve.bloom.BlockedBloomFilter;
import dev.sieve.bloom.Hash128;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * One layer of a seen filter in Redis: a blocked Bloom filter of {@code blocks} 512-bit
 * blocks and {@code hashes} bits per URL, for {@code capacity} URLs, kept as bitmaps of {@code
 * segmentBits} bits ("segments"). Layer 0's segments are {@code sieve:{ID:seg:I}}, layer L's
 * {@code sieve:{ID:lL:seg:I}}, each in a slot of its own in a cluster; a filter kept in one slot
 * ({@link SharedSieve}) names them {@code sieve:{ID}:seg:I} and {@code sieve:{ID}:lL:seg:I}. Each
 * segment has its set-bit counter ({@code …:bits}), its seal
 * ({@code …:sealed}: set when it holds its share of the capacity, or a newer layer is added;
 * no bit is set in a sealed segment) and, in filters written before the crawl shared the
 * service's store, the push intents of a cluster push ({@code …:intents}, deleted with the
 * filter). The layer's description ({@link #descriptor}) is what the filter's layer list in
 * Redis holds. Thread-safe.
 */
final class FilterLayer {
  final int index;
  final long blocks;
  final int hashes;
  final long capacity;
  final int segments;
  private final long blocksPerSegment;
  /** A segment's key is stem, "seg:", its number, close. */
  private final String stem;
  private final String close;
  private final double logUnsetPerKey;
  /** Each segment's set-bit count as last seen; counts only grow. */
  private final AtomicLongArray setBits;

  FilterLayer(String crawlId, boolean oneSlot, int index, long blocks, int hashes, long capacity,
      long segmentBits) {
    this.index = index;
    this.blocks = blocks;
    this.hashes = hashes;
    this.capacity = capacity;
    this.blocksPerSegment = segmentBits / BlockedBloomFilter.BLOCK_BITS;
    this.segments = (int) ((blocks + blocksPerSegment - 1) / blocksPerSegment);
    String layer = index == 0 ? "" : "l" + index + ":";
    this.stem = oneSlot ? "sieve:{" + crawlId + "}:" + layer : "sieve:{" + crawlId + ":" + layer;
    this.close = oneSlot ? "" : "}";
    double c = -Math.expm1(hashes * Math.log1p(-1.0 / BlockedBloomFilter.BLOCK_BITS));
    this.logUnsetPerKey = Math.log1p(-c / blocks);
    this.setBits = new AtomicLongArray(segments);
  }

  /** The layer as the crawl's layer list in Redis holds it: {@code blocks,hashes,capacity}. */
  String descriptor() {
    return blocks + "," + hashes + "," + capacity;
  }

  static FilterLayer parse(String crawlId, boolean oneSlot, int index, String descriptor,
      long segmentBits) {
    String[] f = descriptor.split(",");
    return new FilterLayer(crawlId, oneSlot, index, Long.parseLong(f[0]), Integer.parseInt(f[1]),
        Long.parseLong(f[2]), segmentBits);
  }

  /**
   * Fills {@code offsets} with the URL's k bit offsets in its segment and returns the segment: the
   * bits of {@link #locateBlock}, as BITFIELD counts them.
   */
  int locate(Hash128 hash, String[] offsets, int[] positions) {
    long block = locateBlock(hash, positions);
    long base = (block & 0xFFFF_FFFFL) * Byte.SIZE;
    for (int j = 0; j < hashes; j++) {
      offsets[j] = Long.toString(base + positions[j]);
    }
    return (int) (block >>> 32);
  }

  /**
   * The URL's block as {@code lib-sieve.lua} reads it: its segment times 2³² plus the block's first
   * byte in the segment, with its k bit positions in the block (each in [0, 512)) in {@code
   * positions}.
   */
  long locateBlock(Hash128 hash, int[] positions) {
    long block = BlockedBloomFilter.blockOf(hash, blocks);
    BlockedBloomFilter.bitsOf(hash, hashes, positions);
    return (block / blocksPerSegment << 32)
        | (block % blocksPerSegment) * (BlockedBloomFilter.BLOCK_BITS / Byte.SIZE);
  }

  /**
   * The set bits at which the segment holds its share of the layer's capacity: a script seals it
   * there (when the filter grows), so no layer takes much more than its capacity however many
   * pushes run at once.
   */
  long sealAt(int segment) {
    long segmentBlocks = Math.min(blocksPerSegment, blocks - segment * blocksPerSegment);
    double full = -Math.expm1(capacity * logUnsetPerKey);
    return (long) Math.ceil(segmentBlocks * BlockedBloomFilter.BLOCK_BITS * full);
  }

  String segmentKey(int segment) {
    return stem + "seg:" + segment + close;
  }

  String countKey(int segment) {
    return segmentKey(segment) + ":bits";
  }

  String sealKey(int segment) {
    return segmentKey(segment) + ":sealed";
  }

  String intentsKey(int segment) {
    return segmentKey(segment) + ":intents";
  }

  /** A script reported the segment's set-bit count. */
  void noteCount(int segment, long count) {
    setBits.accumulateAndGet(segment, count, Math::max);
  }

  long setBits() {
    long total = 0;
    for (int i = 0; i < segments; i++) {
      total += setBits.get(i);
    }
    return total;
  }

  long bits() {
    return blocks * BlockedBloomFilter.BLOCK_BITS;
  }

  /** Distinct URLs in the layer: {@code n̂ = ln(1 − X/m) / ln(1 − c/b)}, as in memory. */
  double estimate() {
    long set = setBits();
    return set >= bits() ? Long.MAX_VALUE : Math.log1p(-(double) set / bits()) / logUnsetPerKey;
  }

  /** The layer's false-positive rate holding {@code n} URLs. */
  double fppAt(double n) {
    if (n * hashes / bits() > 40) {
      return 1;
    }
    return BlockedBloomFilter.falsePositiveRate(Math.round(n), bits(), hashes);
  }
}
