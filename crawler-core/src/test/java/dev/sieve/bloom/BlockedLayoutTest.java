package dev.sieve.bloom;

import static dev.sieve.testing.SyntheticUrls.url;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.BitSet;
import org.junit.jupiter.api.Test;

/** The published layout (blockOf, bitsOf) names exactly the bits the filter sets. */
class BlockedLayoutTest {
  /** Preamble (magic, version, layout), hash id, blocks, hashes, n, X. */
  private static final int HEADER_BYTES = 8 + 4 + 4 + 4 + 8 + 4 + 8 + 8;

  @Test
  void blockOfAndBitsOf_nameExactlyTheBitsAPutSets() throws IOException {
    BlockedBloomFilter sized = BlockedBloomFilter.create(10_000, 0.01);
    long blocks = sized.bitSize() / BlockedBloomFilter.BLOCK_BITS;
    int hashes = sized.hashCount();
    int[] positions = new int[hashes];
    for (int i = 0; i < 300; i++) {
      Hash128 hash = Hash128.of(url(0, i));
      BlockedBloomFilter filter = BlockedBloomFilter.create(sized.bitSize(), hashes);
      filter.put(hash);

      BitSet expected = new BitSet();
      long block = BlockedBloomFilter.blockOf(hash, blocks);
      BlockedBloomFilter.bitsOf(hash, hashes, positions);
      for (int position : positions) {
        expected.set((int) (block * BlockedBloomFilter.BLOCK_BITS + position));
      }
      assertThat(setBits(filter)).isEqualTo(expected);
    }
  }

  private static BitSet setBits(BlockedBloomFilter filter) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    filter.writeTo(out);
    ByteBuffer words = ByteBuffer.wrap(out.toByteArray(), HEADER_BYTES, (int) (filter.bitSize() / 8));
    BitSet bits = new BitSet();
    for (int w = 0; w < filter.bitSize() / 64; w++) {
      long word = words.getLong();
      for (int b = 0; b < 64; b++) {
        if ((word & (1L << b)) != 0) {
          bits.set(w * 64 + b);
        }
      }
    }
    return bits;
  }
}
