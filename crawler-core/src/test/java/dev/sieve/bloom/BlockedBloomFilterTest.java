package dev.sieve.bloom;

import static dev.sieve.testing.SyntheticUrls.url;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class BlockedBloomFilterTest {
  private static final int MILLION = 1_000_000;

  @ParameterizedTest(name = "ε = {0}: k = {1}, {2} bits per key")
  @CsvSource({"0.01, 6, 9.918", "0.001, 9, 15.546"})
  void create_millionKeys_fewestBlocksThatMeetTheRate(double fpp, int hashes, double bitsPerKey) {
    BlockedBloomFilter filter = BlockedBloomFilter.create(MILLION, fpp);

    assertThat(filter.hashCount()).isEqualTo(hashes);
    assertThat(filter.bitSize() % BlockedBloomFilter.BLOCK_BITS).isZero();
    assertThat((double) filter.bitSize() / MILLION).isCloseTo(bitsPerKey, within(0.002));
    assertThat(filter.bitSize()).isLessThan((long) (1.1 * BloomFilter.optimalBits(MILLION, fpp)));
    long blocks = filter.bitSize() / BlockedBloomFilter.BLOCK_BITS;
    assertThat(BlockedBloomFilter.falsePositiveRate(MILLION, filter.bitSize(), hashes))
        .isLessThanOrEqualTo(fpp);
    long oneBlockLess = (blocks - 1) * BlockedBloomFilter.BLOCK_BITS;
    assertThat(BlockedBloomFilter.falsePositiveRate(MILLION, oneBlockLess, hashes))
        .isGreaterThan(fpp);
  }

  @Test
  void inBlockFpp_smallCases_matchHandComputation() {
    // One key, one probe: one bit of 512 set; two keys: two bits unless they coincide.
    double twoKeys = 2.0 / 512 * 511 / 512 + 1.0 / 512 / 512;
    assertThat(BlockedFpr.inBlockFpp(1, 3))
        .containsExactly(new double[] {0, 1.0 / 512, twoKeys}, within(1e-15));
    // One key, two probes: two distinct bits with probability 511/512, else one.
    double twoProbes = 511.0 / 512 * Math.pow(2.0 / 512, 2) + 1.0 / 512 * Math.pow(1.0 / 512, 2);
    assertThat(BlockedFpr.inBlockFpp(2, 2)[1]).isCloseTo(twoProbes, within(1e-15));
    // Jensen: never below the approximation (1 − (1 − 1/512)^{ik})^k, and close to it.
    double[] g = BlockedFpr.inBlockFpp(6, 120);
    for (int i = 20; i < 120; i++) {
      double approximation = Math.pow(1 - Math.pow(1 - 1.0 / 512, 6.0 * i), 6);
      assertThat(g[i]).as("g(%d)", i).isBetween(approximation, 1.1 * approximation);
    }
  }

  @Test
  void put_newThenSameKey_reportsNewOnlyOnce() {
    BlockedBloomFilter filter = BlockedBloomFilter.create(1000, 0.01);

    assertThat(filter.mightContain("https://example.com/")).isFalse();
    assertThat(filter.put("https://example.com/")).isTrue();
    assertThat(filter.put("https://example.com/")).isFalse();
    assertThat(filter.put(Hash128.of("https://example.com/"))).isFalse();
    assertThat(filter.mightContain("https://example.com/")).isTrue();
    assertThat(filter.setBitCount()).isBetween(1L, (long) filter.hashCount());
    assertThat(filter.approximateElementCount()).isEqualTo(1);
  }

  @Test
  void put_millionUrls_noFalseNegatives() {
    BlockedBloomFilter filter = BlockedBloomFilter.create(MILLION, 0.01);
    for (int i = 0; i < MILLION; i++) {
      filter.put(url(0, i));
    }
    for (int i = 0; i < MILLION; i++) {
      if (!filter.mightContain(url(0, i))) {
        throw new AssertionError("false negative for " + url(0, i));
      }
    }
  }

  @ParameterizedTest(name = "ε = {0}")
  @ValueSource(doubles = {0.01, 0.001})
  void mightContain_twoMillionDisjointUrls_falsePositiveRateMeetsTarget(double fpp) {
    BlockedBloomFilter filter = BlockedBloomFilter.create(MILLION, fpp);
    for (int i = 0; i < MILLION; i++) {
      filter.put(url(0, i));
    }
    int queries = 2 * MILLION; // ≥ 100/ε, so ≥ 2,000 expected false positives
    int falsePositives = 0;
    for (int i = 0; i < queries; i++) {
      if (filter.mightContain(url(1, i))) {
        falsePositives++;
      }
    }

    double measured = (double) falsePositives / queries;
    assertThat(measured).isLessThanOrEqualTo(1.1 * fpp);
    // Not far below either: that would mean bits wasted or the model wrong.
    assertThat(measured).isGreaterThan(0.85 * fpp);
    assertThat(filter.expectedFpp()).isCloseTo(fpp, within(0.05 * fpp));
  }

  @ParameterizedTest(name = "ε = {0}")
  @ValueSource(doubles = {0.01, 0.001})
  void approximateElementCount_tenToHundredPercentFull_within5Percent(double fpp) {
    BlockedBloomFilter filter = BlockedBloomFilter.create(MILLION, fpp);
    int inserted = 0;
    for (int tenth = 1; tenth <= 10; tenth++) {
      for (; inserted < tenth * MILLION / 10; inserted++) {
        filter.put(url(0, inserted));
      }
      assertThat((double) filter.approximateElementCount())
          .as("estimate at %d inserted", inserted)
          .isCloseTo(inserted, within(0.05 * inserted));
    }
  }

  @Test
  void expectedFpp_pastCapacity_growsTowardOne() {
    BlockedBloomFilter filter = BlockedBloomFilter.create(1000, 0.01);
    assertThat(filter.expectedFpp()).isZero();
    double previous = 0;
    for (int round = 1; round <= 6; round++) {
      for (int i = (round - 1) * 2000; i < round * 2000; i++) {
        filter.put(url(0, i));
      }
      assertThat(filter.expectedFpp()).as("after %d keys", round * 2000).isGreaterThan(previous);
      previous = filter.expectedFpp();
    }
    assertThat(previous).isGreaterThan(0.9).isLessThanOrEqualTo(1);
  }

  @Test
  void falsePositiveRate_emptyOrHugelyOverfull_isZeroOrOne() {
    assertThat(BlockedBloomFilter.falsePositiveRate(0, 512, 6)).isZero();
    assertThat(BlockedBloomFilter.falsePositiveRate(Long.MAX_VALUE / 2, 1024, 6)).isEqualTo(1);
    assertThat(BlockedBloomFilter.falsePositiveRate(1_000_000, 1024, 6)).isGreaterThan(0.999);
  }

  @Test
  void put_filterBeyond2To31Bits_keysInUpperHalfAreStoredAndFound() {
    long bits = (1L << 32) + 12_345;
    BlockedBloomFilter filter = BlockedBloomFilter.create(bits, 4);
    long blocks = filter.bitSize() / BlockedBloomFilter.BLOCK_BITS;
    long firstBlockPast2To31 = (1L << 31) / BlockedBloomFilter.BLOCK_BITS;
    List<String> upper = new ArrayList<>();
    List<String> lower = new ArrayList<>();
    for (int i = 0; upper.size() < 20_000; i++) {
      String key = url(0, i);
      long block = filter.blockIndex(Hash128.of(key).h1());
      assertThat(block).isBetween(0L, blocks - 1);
      (block >= firstBlockPast2To31 ? upper : lower).add(key);
    }
    upper.forEach(filter::put);

    assertThat(upper).allMatch(filter::mightContain);
    assertThat(lower.stream().filter(filter::mightContain).count()).isZero();
    // 20,000 keys in 2²² blocks rarely share one, and 4 probes in 512 bits rarely collide.
    assertThat(filter.setBitCount()).isBetween(79_500L, 80_000L);
    assertThat((double) filter.approximateElementCount()).isCloseTo(20_000, within(100.0));
  }

  @Test
  void readFrom_whatWriteToWrote_givesSameAnswersAndCounts() throws IOException {
    BlockedBloomFilter filter = BlockedBloomFilter.create(50_000, 0.01);
    for (int i = 0; i < 50_000; i++) {
      filter.put(url(0, i));
    }

    BlockedBloomFilter copy = BlockedBloomFilter.readFrom(new ByteArrayInputStream(serialize(filter)));
    MembershipFilter viaFamily = MembershipFilter.readFrom(new ByteArrayInputStream(serialize(filter)));

    assertThat(viaFamily).isInstanceOf(BlockedBloomFilter.class);
    assertThat(copy.bitSize()).isEqualTo(filter.bitSize());
    assertThat(copy.hashCount()).isEqualTo(filter.hashCount());
    assertThat(copy.expectedInsertions()).isEqualTo(filter.expectedInsertions());
    assertThat(copy.setBitCount()).isEqualTo(filter.setBitCount());
    assertThat(copy.approximateElementCount()).isEqualTo(filter.approximateElementCount());
    assertThat(copy.expectedFpp()).isEqualTo(filter.expectedFpp());
    for (int i = 0; i < 50_000; i++) {
      assertThat(copy.mightContain(url(0, i))).isTrue();
      assertThat(copy.mightContain(url(1, i))).isEqualTo(filter.mightContain(url(1, i)));
    }
  }

  @Test
  void readFrom_truncatedStream_refusedWithReason() throws IOException {
    BlockedBloomFilter filter = BlockedBloomFilter.create(10_000, 0.01);
    filter.put("https://example.com/");
    byte[] bytes = serialize(filter);

    for (int cut : new int[] {0, 5, 14, 20, 30, 45, bytes.length / 2, bytes.length - 1}) {
      assertThatThrownBy(
              () -> BlockedBloomFilter.readFrom(new ByteArrayInputStream(Arrays.copyOf(bytes, cut))))
          .as("cut at %d of %d", cut, bytes.length)
          .isInstanceOf(IOException.class)
          .hasMessageContaining("truncated");
    }
  }

  @Test
  void readFrom_foreignOrDamagedStream_refusedWithReason() throws IOException {
    BlockedBloomFilter filter = BlockedBloomFilter.create(10_000, 0.01);
    filter.put("https://example.com/");
    byte[] bytes = serialize(filter);

    byte[] foreign = "<html>not a filter at all, just some page</html>".getBytes(StandardCharsets.UTF_8);
    assertThatThrownBy(() -> BlockedBloomFilter.readFrom(new ByteArrayInputStream(foreign)))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("bad magic");

    byte[] otherLayout = bytes.clone();
    otherLayout[15] = 42;
    assertThatThrownBy(() -> BlockedBloomFilter.readFrom(new ByteArrayInputStream(otherLayout)))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("unknown filter layout 42");

    byte[] otherHash = bytes.clone();
    otherHash[19] ^= 0x40;
    assertThatThrownBy(() -> BlockedBloomFilter.readFrom(new ByteArrayInputStream(otherHash)))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("unsupported hash id");

    byte[] badHeader = bytes.clone();
    badHeader[20] = (byte) 0x80; // negative block count
    assertThatThrownBy(() -> BlockedBloomFilter.readFrom(new ByteArrayInputStream(badHeader)))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("corrupt blocked Bloom filter header: b=-");

    byte[] flipped = bytes.clone();
    flipped[bytes.length / 2] ^= 0x10;
    assertThatThrownBy(() -> BlockedBloomFilter.readFrom(new ByteArrayInputStream(flipped)))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("checksum");

    ByteArrayOutputStream classic = new ByteArrayOutputStream();
    BloomFilter.create(10_000, 0.01).writeTo(classic);
    assertThatThrownBy(
            () -> BlockedBloomFilter.readFrom(new ByteArrayInputStream(classic.toByteArray())))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("not a blocked Bloom filter");
    assertThatThrownBy(() -> BloomFilter.readFrom(new ByteArrayInputStream(bytes)))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("not a classic Bloom filter");
  }

  @Test
  void create_badArguments_messageNamesParameterAndValue() {
    assertThatThrownBy(() -> BlockedBloomFilter.create(0, 0.01))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("expectedInsertions (0) must be > 0");
    assertThatThrownBy(() -> BlockedBloomFilter.create(1000, 1.5))
        .hasMessage("falsePositiveRate (1.5) must be in (0, 1)");
    assertThatThrownBy(() -> BlockedBloomFilter.create(1000, Double.NaN))
        .hasMessage("falsePositiveRate (NaN) must be in (0, 1)");
    assertThatThrownBy(() -> BlockedBloomFilter.create(1000L, 0))
        .hasMessage("hashes (0) must be in [1, 64]");
    assertThatThrownBy(() -> BlockedBloomFilter.create(-5L, 3))
        .hasMessageStartingWith("bits (-5) must be in [1, ");
    assertThatThrownBy(() -> BlockedBloomFilter.create(Long.MAX_VALUE / 2, 1e-9))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("expectedInsertions (" + Long.MAX_VALUE / 2 + ")");
    long tooBigForHeap = Math.min(BlockedBloomFilter.MAX_BITS, Runtime.getRuntime().maxMemory() * 16);
    assertThatThrownBy(() -> BlockedBloomFilter.create(tooBigForHeap, 3))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("cannot be allocated");
    assertThatThrownBy(() -> BlockedBloomFilter.falsePositiveRate(10, 1000, 3))
        .hasMessage("bits (1000) must be a positive multiple of 512");
  }

  @Test
  void put_disjointKeysFromEightThreads_setBitCountExactAndAllFound() throws Exception {
    BlockedBloomFilter shared = BlockedBloomFilter.create(400_000, 0.01);
    BlockedBloomFilter sequential = BlockedBloomFilter.create(400_000, 0.01);
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < 8; t++) {
        int thread = t;
        done.add(pool.submit(() -> {
          for (int i = 0; i < 50_000; i++) {
            shared.put(url(thread, i));
          }
        }));
      }
      for (Future<?> f : done) {
        f.get();
      }
    } finally {
      pool.shutdown();
    }
    for (int t = 0; t < 8; t++) {
      for (int i = 0; i < 50_000; i++) {
        sequential.put(url(t, i));
        assertThat(shared.mightContain(url(t, i))).isTrue();
      }
    }

    assertThat(shared.setBitCount()).isEqualTo(sequential.setBitCount());
    // readFrom checks the header's X against a popcount of the words.
    assertThat(BlockedBloomFilter.readFrom(new ByteArrayInputStream(serialize(shared))).setBitCount())
        .isEqualTo(shared.setBitCount());
  }

  @Test
  void put_sameKeysFromEightThreads_setBitCountExact() throws Exception {
    BlockedBloomFilter shared = BlockedBloomFilter.create(100_000, 0.01);
    BlockedBloomFilter sequential = BlockedBloomFilter.create(100_000, 0.01);
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < 8; t++) {
        int offset = t * 997;
        done.add(pool.submit(() -> {
          for (int i = 0; i < 50_000; i++) {
            shared.put(url(0, (i + offset) % 50_000));
          }
        }));
      }
      for (Future<?> f : done) {
        f.get();
      }
    } finally {
      pool.shutdown();
    }
    for (int i = 0; i < 50_000; i++) {
      sequential.put(url(0, i));
    }

    assertThat(shared.setBitCount()).isEqualTo(sequential.setBitCount());
  }

  @Test
  void putAll_sameKeysFromEightThreads_eachKeyNewExactlyOnceAndSetBitCountExact()
      throws Exception {
    int keys = 50_000;
    BlockedBloomFilter shared = BlockedBloomFilter.create(keys, 0.01);
    BlockedBloomFilter sequential = BlockedBloomFilter.create(keys, 0.01);
    int[] newCount = new int[keys];
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      List<Future<int[]>> done = new ArrayList<>();
      for (int t = 0; t < 8; t++) {
        int offset = t * 997;
        done.add(pool.submit(() -> {
          int[] mine = new int[keys];
          HashBatch batch = new HashBatch(32);
          boolean[] isNew = new boolean[32];
          int[] index = new int[32];
          for (int start = 0; start < keys; start += 32) {
            batch.clear();
            for (int i = start; i < Math.min(keys, start + 32); i++) {
              index[batch.size()] = (i + offset) % keys;
              batch.add(url(0, index[batch.size()]));
            }
            shared.putAll(batch, isNew);
            for (int b = 0; b < batch.size(); b++) {
              mine[index[b]] += isNew[b] ? 1 : 0;
            }
          }
          return mine;
        }));
      }
      for (Future<int[]> f : done) {
        int[] mine = f.get();
        for (int i = 0; i < keys; i++) {
          newCount[i] += mine[i];
        }
      }
    } finally {
      pool.shutdown();
    }
    int neverNew = 0;
    for (int i = 0; i < keys; i++) {
      sequential.put(url(0, i));
      // New to exactly one thread, or to none where the filter already (wrongly) held the key.
      assertThat(newCount[i]).as("key %d", i).isLessThanOrEqualTo(1);
      neverNew += newCount[i] == 0 ? 1 : 0;
    }
    assertThat(neverNew).isLessThan(keys / 50);
    assertThat(shared.setBitCount()).isEqualTo(sequential.setBitCount());
  }

  private static byte[] serialize(MembershipFilter filter) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    filter.writeTo(out);
    return out.toByteArray();
  }
}
