package dev.sieve.bloom;

import static dev.sieve.testing.SyntheticUrls.url;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.sieve.testing.FilterVariant;
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
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What every member of the family promises ({@link MembershipFilter}), checked for each {@link
 * FilterVariant} at ε = 1%.
 */
class MembershipFilterContractTest {
  private static final double FPP = 0.01;
  private static final int MILLION = 1_000_000;

  /** The hashes of url(0, i) and url(1, i), i < 1M, as (h1, h2) pairs: computed once. */
  private static long[] present;
  private static long[] absent;
  private static ExecutorService pool;

  @BeforeAll
  static void setUp() {
    present = hashes(0, MILLION);
    absent = hashes(1, MILLION);
    pool = Executors.newFixedThreadPool(8);
  }

  @AfterAll
  static void tearDown() {
    pool.shutdownNow();
  }

  static List<FilterVariant> variants() {
    return FilterVariant.all();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("variants")
  void put_millionUrls_noFalseNegatives(FilterVariant variant) {
    MembershipFilter filter = variant.create(MILLION, FPP);
    fill(filter, MILLION);

    for (int i = 0; i < MILLION; i++) {
      if (!filter.mightContain(present(i))) {
        throw new AssertionError(variant + ": false negative for " + url(0, i));
      }
    }
    for (int i = 0; i < MILLION; i += 997) {
      assertThat(filter.mightContain(url(0, i))).as("by key: %s", url(0, i)).isTrue();
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("variants")
  void mightContain_millionDisjointUrlsAtCapacity_rateWithinVariantBound(FilterVariant variant) {
    MembershipFilter filter = variant.create(MILLION, FPP);
    fill(filter, MILLION);

    int falsePositives = 0;
    for (int i = 0; i < MILLION; i++) {
      if (filter.mightContain(absent(i))) {
        falsePositives++;
      }
    }

    double bound = variant.bound().at(filter, FPP);
    assertThat((double) falsePositives / MILLION).as("measured rate").isLessThanOrEqualTo(bound);
    assertThat(filter.expectedFpp()).as("expectedFpp()").isLessThanOrEqualTo(bound);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("variants")
  void approximateElementCount_quarterToFullCapacity_within5Percent(FilterVariant variant) {
    int capacity = 200_000;
    MembershipFilter filter = variant.create(capacity, FPP);
    int inserted = 0;
    for (int quarter = 1; quarter <= 4; quarter++) {
      for (; inserted < quarter * capacity / 4; inserted++) {
        filter.put(present(inserted));
      }
      assertThat((double) filter.approximateElementCount())
          .as("estimate at %d inserted", inserted)
          .isCloseTo(inserted, within(0.05 * inserted));
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("variants")
  void readFrom_whatWriteToWrote_answersTheSame(FilterVariant variant) throws IOException {
    int keys = 100_000;
    MembershipFilter filter = variant.create(keys, FPP);
    fill(filter, keys);
    byte[] bytes = serialize(filter);

    MembershipFilter copy = MembershipFilter.readFrom(new ByteArrayInputStream(bytes));

    assertThat(copy).hasSameClassAs(filter);
    assertThat(copy.bitSize()).isEqualTo(filter.bitSize());
    assertThat(copy.expectedInsertions()).isEqualTo(filter.expectedInsertions());
    assertThat(copy.approximateElementCount()).isEqualTo(filter.approximateElementCount());
    assertThat(copy.expectedFpp()).isEqualTo(filter.expectedFpp());
    for (int i = 0; i < keys; i++) {
      if (!copy.mightContain(present(i))) {
        throw new AssertionError(variant + ": copy lost " + url(0, i));
      }
      if (copy.mightContain(absent(i)) != filter.mightContain(absent(i))) {
        throw new AssertionError(variant + ": copy answers otherwise for " + url(1, i));
      }
    }
    assertThat(serialize(copy)).isEqualTo(bytes);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("variants")
  void readFrom_truncatedOrDamagedStream_refusedWithReason(FilterVariant variant)
      throws IOException {
    MembershipFilter filter = variant.create(1000, FPP);
    fill(filter, 500);
    byte[] bytes = serialize(filter);

    for (int cut : new int[] {0, 5, 20, 45, bytes.length / 2, bytes.length - 1}) {
      byte[] truncated = Arrays.copyOf(bytes, cut);
      assertThatThrownBy(() -> MembershipFilter.readFrom(new ByteArrayInputStream(truncated)))
          .as("cut at %d of %d", cut, bytes.length)
          .isInstanceOf(IOException.class)
          .hasMessageContaining("truncated");
    }
    byte[] flipped = bytes.clone();
    flipped[bytes.length - 9] ^= 0x10; // in the last table word, before the final checksum
    assertThatThrownBy(() -> MembershipFilter.readFrom(new ByteArrayInputStream(flipped)))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("checksum");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("variants")
  void put_disjointKeysFromEightThreads_allFound(FilterVariant variant) throws Exception {
    int perThread = 50_000;
    MembershipFilter filter = variant.create(8 * perThread, FPP);
    CountDownLatch start = new CountDownLatch(1);
    List<Future<?>> done = new ArrayList<>();
    for (int t = 0; t < 8; t++) {
      int stream = t;
      done.add(
          pool.submit(
              () -> {
                start.await();
                for (int i = 0; i < perThread; i++) {
                  filter.put(url(stream, i));
                }
                return null;
              }));
    }
    start.countDown();
    for (Future<?> f : done) {
      f.get();
    }

    for (int t = 0; t < 8; t++) {
      for (int i = 0; i < perThread; i++) {
        if (!filter.mightContain(url(t, i))) {
          throw new AssertionError(variant + ": false negative for " + url(t, i));
        }
      }
    }
    assertThat((double) filter.approximateElementCount())
        .isCloseTo(8 * perThread, within(0.05 * 8 * perThread));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("variants")
  void putAll_batchesWithRepeats_sameAnswersAndCountAsOneByOne(FilterVariant variant) {
    MembershipFilter batched = variant.create(100_000, FPP);
    MembershipFilter single = variant.create(100_000, FPP);
    HashBatch batch = new HashBatch(64);
    boolean[] isNew = new boolean[64];
    boolean[] present = new boolean[64];
    for (int start = 0; start < 120_000; start += 64) {
      batch.clear();
      for (int i = start; i < start + 64; i++) {
        batch.add(present(i % 3 == 0 ? i / 3 : i)); // a third repeat earlier keys, some in-batch
      }
      int added = batched.putAll(batch, isNew);
      int expectedAdded = 0;
      for (int i = 0; i < 64; i++) {
        boolean expected = single.put(batch.get(i));
        assertThat(isNew[i]).as("%s key %d of batch at %d", variant, i, start).isEqualTo(expected);
        expectedAdded += expected ? 1 : 0;
      }
      assertThat(added).isEqualTo(expectedAdded);
    }
    assertThat(batched.approximateElementCount()).isEqualTo(single.approximateElementCount());
    for (int start = 0; start < 200_000; start += 64) {
      batch.clear();
      for (int i = start; i < start + 64; i++) {
        batch.add(i % 2 == 0 ? present(i) : absent(i));
      }
      int found = batched.mightContainAll(batch, present);
      int expectedFound = 0;
      for (int i = 0; i < 64; i++) {
        assertThat(present[i]).isEqualTo(single.mightContain(batch.get(i)));
        expectedFound += present[i] ? 1 : 0;
      }
      assertThat(found).isEqualTo(expectedFound);
    }
  }

  private static void fill(MembershipFilter filter, int keys) {
    for (int i = 0; i < keys; i++) {
      filter.put(present(i));
    }
  }

  private static Hash128 present(int i) {
    return new Hash128(present[2 * i], present[2 * i + 1]);
  }

  private static Hash128 absent(int i) {
    return new Hash128(absent[2 * i], absent[2 * i + 1]);
  }

  private static long[] hashes(int stream, int count) {
    long[] hashes = new long[2 * count];
    for (int i = 0; i < count; i++) {
      Hash128 hash = Hash128.of(url(stream, i));
      hashes[2 * i] = hash.h1();
      hashes[2 * i + 1] = hash.h2();
    }
    return hashes;
  }

  private static byte[] serialize(MembershipFilter filter) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    filter.writeTo(out);
    return out.toByteArray();
  }
}
