package dev.sieve.bloom;

import static dev.sieve.testing.SyntheticUrls.url;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;

class ScalableBloomFilterTest {
  private static ExecutorService pool;

  @BeforeAll
  static void startPool() {
    pool = Executors.newFixedThreadPool(8);
  }

  @AfterAll
  static void stopPool() {
    pool.shutdownNow();
  }

  @Test
  void create_firstLayerSizedForTheTightenedRate() {
    ScalableBloomFilter filter = ScalableBloomFilter.create(100_000, 0.01);

    assertThat(filter.layers()).isEqualTo(1);
    assertThat(filter.expectedInsertions()).isEqualTo(100_000);
    assertThat(filter.growth()).isEqualTo(2);
    assertThat(filter.tighteningRatio()).isEqualTo(0.85);
    assertThat(filter.targetFpp()).isEqualTo(0.01);
    // ε₀ = ε·(1 − r) = 0.0015, so that Σ ε₀·rⁱ stays under ε.
    assertThat(filter.bitSize()).isEqualTo(BloomFilter.optimalBits(100_000, 0.0015));
    assertThat(filter.approximateElementCount()).isZero();
  }

  @Test
  void put_tenTimesInitialCapacity_rateStaysUnderTargetAndLayersGrew() {
    int initial = 100_000;
    int keys = 10 * initial;
    double fpp = 0.01;
    ScalableBloomFilter filter = ScalableBloomFilter.create(initial, fpp);
    long accepted = 0;
    for (int i = 0; i < keys; i++) {
      accepted += filter.put(url(0, i)) ? 1 : 0;
    }

    for (int i = 0; i < keys; i++) {
      if (!filter.mightContain(url(0, i))) {
        throw new AssertionError("false negative for " + url(0, i));
      }
    }
    int falsePositives = 0;
    for (int i = 0; i < keys; i++) {
      if (filter.mightContain(url(1, i))) {
        falsePositives++;
      }
    }

    // 100k + 200k + 400k hold 700k keys; the fourth layer, for 800k, takes the rest.
    assertThat(filter.layers()).isEqualTo(4);
    assertThat(filter.layerCounts()).containsExactly(100_000, 200_000, 400_000, accepted - 700_000);
    assertThat(filter.layerFilters()).extracting(BloomFilter::expectedInsertions)
        .containsExactly(100_000L, 200_000L, 400_000L, 800_000L);
    assertThat((double) falsePositives / keys).isLessThanOrEqualTo(fpp);
    assertThat(filter.expectedFpp()).isLessThanOrEqualTo(fpp);
    assertThat((double) filter.approximateElementCount()).isCloseTo(keys, within(0.05 * keys));
  }

  @RepeatedTest(5)
  void put_disjointKeysFromEightThreads_eachOverflowAddsExactlyOneLayer() throws Exception {
    int initial = 1_000;
    int perThread = 12_500;
    ScalableBloomFilter filter = ScalableBloomFilter.create(initial, 0.01);
    AtomicLong accepted = new AtomicLong();
    CountDownLatch start = new CountDownLatch(1);
    List<Future<?>> done = new ArrayList<>();
    for (int t = 0; t < 8; t++) {
      int stream = t;
      done.add(pool.submit(() -> {
        start.await();
        for (int i = 0; i < perThread; i++) {
          if (filter.put(url(stream, i))) {
            accepted.incrementAndGet();
          }
        }
        return null;
      }));
    }
    start.countDown();
    for (Future<?> f : done) {
      f.get();
    }

    // ~100k keys: six full layers hold 63k, the seventh (64k) the rest; no layer is skipped,
    // doubled or overfilled.
    long[] counts = filter.layerCounts();
    assertThat(filter.layers()).isEqualTo(7);
    assertThat(Arrays.copyOf(counts, 6))
        .containsExactly(1_000, 2_000, 4_000, 8_000, 16_000, 32_000);
    assertThat(Arrays.stream(counts).sum()).isEqualTo(accepted.get());
    long bits = 0;
    for (int i = 0; i < 7; i++) {
      bits += BloomFilter.optimalBits(initial << i, 0.01 * 0.15 * Math.pow(0.85, i));
    }
    assertThat(filter.bitSize()).isEqualTo(bits);
    for (int t = 0; t < 8; t++) {
      for (int i = 0; i < perThread; i++) {
        if (!filter.mightContain(url(t, i))) {
          throw new AssertionError("false negative for " + url(t, i));
        }
      }
    }
  }

  @Test
  void put_keyHeldByAnOlderLayer_isNotStoredAgain() {
    ScalableBloomFilter filter = ScalableBloomFilter.create(100, 0.01);
    long accepted = 0;
    for (int i = 0; i <= 100; i++) {
      accepted += filter.put(url(0, i)) ? 1 : 0;
    }
    assertThat(filter.layers()).isEqualTo(2);
    long[] counts = filter.layerCounts();

    for (int i = 0; i <= 100; i++) {
      assertThat(filter.put(url(0, i))).isFalse();
    }
    assertThat(filter.layerCounts()).isEqualTo(counts);
    assertThat(Arrays.stream(counts).sum()).isEqualTo(accepted);
  }

  @Test
  void builder_growthAndTighteningRatio_shapeTheNextLayer() {
    ScalableBloomFilter filter =
        ScalableBloomFilter.builder(1_000, 0.01).growth(4).tighteningRatio(0.5).build();
    for (int i = 0; filter.layers() < 2; i++) {
      filter.put(url(0, i));
    }

    BloomFilter[] layers = filter.layerFilters();
    assertThat(layers[0].bitSize()).isEqualTo(BloomFilter.optimalBits(1_000, 0.005));
    assertThat(layers[1].expectedInsertions()).isEqualTo(4_000);
    assertThat(layers[1].bitSize()).isEqualTo(BloomFilter.optimalBits(4_000, 0.0025));
  }

  @Test
  void readFrom_damagedHeader_refusedByItsChecksum() throws IOException {
    ScalableBloomFilter filter = ScalableBloomFilter.create(100, 0.01);
    for (int i = 0; i < 300; i++) {
      filter.put(url(0, i));
    }
    byte[] bytes = serialize(filter);
    bytes[27] ^= 0x01; // the low byte of the initial capacity

    assertThatThrownBy(() -> MembershipFilter.readFrom(new ByteArrayInputStream(bytes)))
        .isInstanceOf(IOException.class)
        .hasMessage("corrupt scalable filter: checksum mismatch in the header");
  }

  @Test
  void create_badArguments_messageNamesParameterAndValue() {
    assertThatThrownBy(() -> ScalableBloomFilter.create(0, 0.01))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("initialCapacity (0) must be > 0");
    assertThatThrownBy(() -> ScalableBloomFilter.create(100, 1.5))
        .hasMessage("falsePositiveRate (1.5) must be in (0, 1)");
    assertThatThrownBy(() -> ScalableBloomFilter.builder(100, 0.01).growth(1))
        .hasMessage("growth (1) must be >= 2");
    assertThatThrownBy(() -> ScalableBloomFilter.builder(100, 0.01).tighteningRatio(1.0))
        .hasMessage("tighteningRatio (1.0) must be in (0, 1)");
    assertThatThrownBy(() -> ScalableBloomFilter.builder(100, 0.01).tighteningRatio(Double.NaN))
        .hasMessage("tighteningRatio (NaN) must be in (0, 1)");
  }

  private static byte[] serialize(MembershipFilter filter) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    filter.writeTo(out);
    return out.toByteArray();
  }
}
