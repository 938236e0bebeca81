package dev.sieve.bloom;

import static dev.sieve.testing.SyntheticUrls.url;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import com.google.common.hash.Hashing;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class BloomFilterTest {
  private static final int MILLION = 1_000_000;

  @Test
  void create_oneMillionAtOnePerMille_hasTextbookSize() {
    BloomFilter filter = BloomFilter.create(MILLION, 0.001);

    assertThat(filter.bitSize()).isEqualTo(14_377_588L);
    assertThat(filter.hashCount()).isEqualTo(10);
    assertThat(filter.expectedInsertions()).isEqualTo(MILLION);
    assertThat(filter.bitSize() / 8.0 / (1 << 20)).isCloseTo(1.71, within(0.005));
  }

  @Test
  void put_newThenSameKey_reportsNewOnlyOnce() {
    BloomFilter filter = BloomFilter.create(1000, 0.01);

    assertThat(filter.mightContain("https://example.com/")).isFalse();
    assertThat(filter.put("https://example.com/")).isTrue();
    assertThat(filter.put("https://example.com/")).isFalse();
    assertThat(filter.mightContain("https://example.com/")).isTrue();
    assertThat(filter.setBitCount()).isBetween(1L, (long) filter.hashCount());
  }

  @Test
  void put_millionUrls_noFalseNegatives() {
    BloomFilter filter = BloomFilter.create(MILLION, 0.01);
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
  void mightContain_millionDisjointUrls_falsePositiveRateWithin15PercentOfTarget(double fpp) {
    BloomFilter filter = BloomFilter.create(MILLION, fpp);
    for (int i = 0; i < MILLION; i++) {
      filter.put(url(0, i));
    }
    int falsePositives = 0;
    for (int i = 0; i < MILLION; i++) {
      if (filter.mightContain(url(1, i))) {
        falsePositives++;
      }
    }

    double measured = (double) falsePositives / MILLION;
    assertThat(measured).isCloseTo(fpp, within(0.15 * fpp));
    assertThat(filter.expectedFpp()).isCloseTo(fpp, within(0.15 * fpp));
  }

  @Test
  void approximateElementCount_tenToHundredPercentFull_within2Percent() {
    BloomFilter filter = BloomFilter.create(MILLION, 0.01);
    int inserted = 0;
    for (int tenth = 1; tenth <= 10; tenth++) {
      for (; inserted < tenth * MILLION / 10; inserted++) {
        filter.put(url(0, inserted));
      }
      assertThat((double) filter.approximateElementCount())
          .as("estimate at %d inserted", inserted)
          .isCloseTo(inserted, within(0.02 * inserted));
    }
  }

  @Test
  void hash_anyKey_equalsGuavaMurmur3Over128BitsOfUtf8() {
    Random random = new Random(42);
    List<String> keys = new ArrayList<>(List.of("", "a", "https://example.com/", "héllo wörld", "日本語/パス", "emoji 😀 and lone \ud800 surrogate"));
    for (int i = 0; i < 2000; i++) {
      StringBuilder key = new StringBuilder();
      int length = random.nextInt(140);
      for (int j = 0; j < length; j++) {
        key.append((char) (random.nextInt(10) == 0 ? random.nextInt(0x3000) : 32 + random.nextInt(95)));
      }
      keys.add(key.toString());
    }
    for (String key : keys) {
      byte[] guava = Hashing.murmur3_128().hashBytes(key.getBytes(StandardCharsets.UTF_8)).asBytes();
      Hash128 ours = Hash128.of(key);
      java.nio.ByteBuffer expected = java.nio.ByteBuffer.wrap(guava).order(java.nio.ByteOrder.LITTLE_ENDIAN);
      assertThat(ours).as("hash of %s", key).isEqualTo(new Hash128(expected.getLong(), expected.getLong()));
    }
  }

  @Test
  void hash_builderOrLongKey_equalsHashOfItsUtf8Bytes() {
    String longKey = "https://example.com/" + "päth/".repeat(2000) + "\ud83d\ude00";
    for (String key : List.of("https://example.com/", longKey, "lone \udc00 low", "end \ud800")) {
      byte[] utf8 = key.getBytes(StandardCharsets.UTF_8);
      Hash128 ofBytes = Hash128.of(utf8, 0, utf8.length);
      assertThat(Hash128.of(key)).isEqualTo(ofBytes);
      assertThat(Hash128.of(new StringBuilder(key))).isEqualTo(ofBytes);
    }
    assertThat(Hash128.of("short again")).isEqualTo(Hash128.of(new StringBuilder("short again")));
  }

  @Test
  void put_keyWithATinySecondHash_stillSpreadsOverKBits() {
    // In 64-bit double hashing a small h2 moves h1 too little to change the index in a small
    // filter, so all k probes hit one bit; stepping mod m keeps them apart.
    BloomFilter filter = BloomFilter.create(1_000, 1e-6);

    filter.put(new Hash128(0x1234_5678_9abc_def0L, 3));

    // The step maps to 0 here, so the first three probes share a bit; then the cubic term
    // (step += i) spreads them: k − 2 distinct bits, where 64-bit stepping set just one.
    assertThat(filter.setBitCount()).isEqualTo(filter.hashCount() - 2L);
  }

  @Test
  void put_filterBeyond2To31Bits_keysInUpperHalfAreStoredAndFound() {
    long bits = (1L << 32) + 12_345;
    BloomFilter filter = BloomFilter.create(bits, 1);
    List<String> upper = new ArrayList<>();
    List<String> lower = new ArrayList<>();
    for (int i = 0; upper.size() < 20_000; i++) {
      String key = url(0, i);
      (BloomFilter.index(Hash128.of(key).h1(), bits) >= (1L << 31) ? upper : lower).add(key);
    }
    upper.forEach(filter::put);

    assertThat(upper).allMatch(filter::mightContain);
    assertThat(lower.stream().filter(filter::mightContain).count()).isLessThanOrEqualTo(1);
    assertThat(filter.setBitCount()).isEqualTo(20_000);
    assertThat(filter.approximateElementCount()).isEqualTo(20_000);
  }

  @Test
  void readFrom_whatWriteToWrote_givesSameAnswersAndCounts() throws IOException {
    BloomFilter filter = BloomFilter.create(50_000, 0.01);
    for (int i = 0; i < 50_000; i++) {
      filter.put(url(0, i));
    }

    BloomFilter copy = BloomFilter.readFrom(new ByteArrayInputStream(serialize(filter)));

    assertThat(copy.bitSize()).isEqualTo(filter.bitSize());
    assertThat(copy.hashCount()).isEqualTo(filter.hashCount());
    assertThat(copy.expectedInsertions()).isEqualTo(filter.expectedInsertions());
    assertThat(copy.setBitCount()).isEqualTo(filter.setBitCount());
    for (int i = 0; i < 50_000; i++) {
      assertThat(copy.mightContain(url(0, i))).isTrue();
      assertThat(copy.mightContain(url(1, i))).isEqualTo(filter.mightContain(url(1, i)));
    }
  }

  @Test
  void readFrom_truncatedStream_refusedWithReason() throws IOException {
    BloomFilter filter = BloomFilter.create(10_000, 0.01);
    filter.put("https://example.com/");
    byte[] bytes = serialize(filter);

    for (int cut : new int[] {0, 5, 20, 45, bytes.length / 2, bytes.length - 1}) {
      assertThatThrownBy(() -> BloomFilter.readFrom(new ByteArrayInputStream(Arrays.copyOf(bytes, cut))))
          .as("cut at %d of %d", cut, bytes.length)
          .isInstanceOf(IOException.class)
          .hasMessageContaining("truncated");
    }
  }

  @Test
  void readFrom_foreignOrDamagedStream_refusedWithReason() throws IOException {
    BloomFilter filter = BloomFilter.create(10_000, 0.01);
    filter.put("https://example.com/");
    byte[] bytes = serialize(filter);

    byte[] foreign = "<html>not a filter at all, just some page</html>".getBytes(StandardCharsets.UTF_8);
    assertThatThrownBy(() -> BloomFilter.readFrom(new ByteArrayInputStream(foreign)))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("bad magic");

    byte[] otherVersion = bytes.clone();
    otherVersion[11] = 9;
    assertThatThrownBy(() -> BloomFilter.readFrom(new ByteArrayInputStream(otherVersion)))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("format version 9");

    byte[] flipped = bytes.clone();
    flipped[bytes.length / 2] ^= 0x10;
    assertThatThrownBy(() -> BloomFilter.readFrom(new ByteArrayInputStream(flipped)))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("checksum");
  }

  @Test
  void create_badArguments_messageNamesParameterAndValue() {
    assertThatThrownBy(() -> BloomFilter.create(0, 0.01))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("expectedInsertions (0) must be > 0");
    assertThatThrownBy(() -> BloomFilter.create(1000, 1.5))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("falsePositiveRate (1.5) must be in (0, 1)");
    assertThatThrownBy(() -> BloomFilter.create(1000, 0.0))
        .hasMessage("falsePositiveRate (0.0) must be in (0, 1)");
    assertThatThrownBy(() -> BloomFilter.create(1000, Double.NaN))
        .hasMessage("falsePositiveRate (NaN) must be in (0, 1)");
    assertThatThrownBy(() -> BloomFilter.create(1000L, 0))
        .hasMessage("hashes (0) must be in [1, 255]");
    assertThatThrownBy(() -> BloomFilter.create(-5L, 3))
        .hasMessageStartingWith("bits (-5) must be in [1, ");
    assertThatThrownBy(() -> BloomFilter.create(Long.MAX_VALUE / 2, 1e-9))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("expectedInsertions (" + Long.MAX_VALUE / 2 + ")");
    long tooBigForHeap = Math.min(BloomFilter.MAX_BITS, Runtime.getRuntime().maxMemory() * 16);
    assertThatThrownBy(() -> BloomFilter.create(tooBigForHeap, 3))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("bits (" + tooBigForHeap + ") cannot be allocated");
  }

  @Test
  void put_disjointKeysFromEightThreads_setBitCountExactAndAllFound() throws Exception {
    BloomFilter shared = BloomFilter.create(400_000, 0.01);
    BloomFilter sequential = BloomFilter.create(400_000, 0.01);
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
    assertThat(BloomFilter.readFrom(new ByteArrayInputStream(serialize(shared))).setBitCount())
        .isEqualTo(shared.setBitCount());
  }

  private static byte[] serialize(BloomFilter filter) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    filter.writeTo(out);
    return out.toByteArray();
  }
}
