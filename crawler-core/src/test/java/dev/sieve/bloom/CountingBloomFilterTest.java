package dev.sieve.bloom;

import static dev.sieve.testing.SyntheticUrls.url;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class CountingBloomFilterTest {
  @Test
  void create_sizedAsClassicFilter_fourBitsPerCounter() {
    CountingBloomFilter filter = CountingBloomFilter.create(1_000_000, 0.001);

    assertThat(filter.counterCount()).isEqualTo(14_377_588L);
    assertThat(filter.hashCount()).isEqualTo(10);
    assertThat(filter.bitSize()).isEqualTo(4 * 14_377_588L);
    assertThat(filter.expectedInsertions()).isEqualTo(1_000_000);
  }

  @Test
  void putAndRemove_oneKey_storedOnceAndRemovedByOneRemove() {
    CountingBloomFilter filter = CountingBloomFilter.create(1000, 0.01);
    String key = "https://example.com/";

    assertThat(filter.put(key)).isTrue();
    long nonZero = filter.nonZeroCounterCount();
    assertThat(filter.put(key)).isFalse();
    assertThat(filter.put(key)).isFalse();
    assertThat(filter.nonZeroCounterCount()).isEqualTo(nonZero);

    assertThat(filter.remove(key)).isTrue();
    assertThat(filter.mightContain(key)).isFalse();
    assertThat(filter.nonZeroCounterCount()).isZero();
    assertThat(filter.remove(key)).isFalse();
  }

  @Test
  void remove_halfOfTheStoredUrls_everyOtherStoredUrlStillFound() {
    int keys = 200_000;
    CountingBloomFilter filter = CountingBloomFilter.create(keys, 0.01);
    boolean[] stored = new boolean[keys];
    for (int i = 0; i < keys; i++) {
      stored[i] = filter.put(url(0, i));
    }

    for (int i = 0; i < keys; i += 2) {
      if (stored[i]) {
        assertThat(filter.remove(url(0, i))).as("remove %s", url(0, i)).isTrue();
      }
    }

    int storedLeft = 0;
    int stillFoundRemoved = 0;
    for (int i = 0; i < keys; i++) {
      boolean found = filter.mightContain(url(0, i));
      if (i % 2 == 1 && stored[i]) {
        storedLeft++;
        if (!found) {
          throw new AssertionError("removing others lost " + url(0, i));
        }
      } else if (i % 2 == 0 && found) {
        stillFoundRemoved++;
      }
    }
    // What is left is a filter of half the keys: its rate is far below ε.
    assertThat(stillFoundRemoved).isLessThan(keys / 2 / 100);
    assertThat((double) filter.approximateElementCount())
        .isCloseTo(storedLeft, within(0.05 * storedLeft));
  }

  @Test
  void remove_neverPutKeyDefinitelyAbsent_returnsFalseAndChangesNothing() throws Exception {
    CountingBloomFilter filter = CountingBloomFilter.create(10_000, 0.01);
    for (int i = 0; i < 10_000; i++) {
      filter.put(url(0, i));
    }
    byte[] before = serialize(filter);
    int tried = 0;
    for (int i = 0; tried < 1000; i++) {
      if (!filter.mightContain(url(1, i))) {
        assertThat(filter.remove(url(1, i))).isFalse();
        tried++;
      }
    }

    assertThat(serialize(filter)).isEqualTo(before);
  }

  /** The documented hazard: a never-put key that tests positive takes counters stored keys own. */
  @Test
  void remove_neverPutFalsePositive_returnsTrueAndCanLoseStoredKeys() {
    CountingBloomFilter filter = CountingBloomFilter.create(1000, 0.01);
    List<String> stored = new ArrayList<>();
    for (int i = 0; i < 1000; i++) {
      if (filter.put(url(0, i))) {
        stored.add(url(0, i));
      }
    }
    int falsePositive = 0;
    while (!filter.mightContain(url(1, falsePositive))) {
      falsePositive++;
    }

    assertThat(filter.remove(url(1, falsePositive))).isTrue();

    assertThat(stored.stream().filter(key -> !filter.mightContain(key)).count())
        .as("stored keys lost to removing a false positive")
        .isPositive();
  }

  @Test
  void counters_moreThan15KeysOnOneCounter_saturateAndAreNeverDecremented() {
    long counters = 1000;
    CountingBloomFilter filter = CountingBloomFilter.create(counters, 2);
    // 20 keys whose first counter is 0 and whose second counters are distinct and not 0 or 1.
    List<String> keys = new ArrayList<>();
    Set<Long> seconds = new HashSet<>(List.of(0L, 1L));
    for (int i = 0; keys.size() < 20; i++) {
      Hash128 hash = Hash128.of(url(0, i));
      long first = BloomFilter.index(hash.h1(), counters);
      long second = BloomFilter.index(hash.h1() + hash.h2(), counters);
      if (first == 0 && seconds.add(second)) {
        keys.add(url(0, i));
      }
    }

    for (String key : keys) {
      assertThat(filter.put(key)).as("put %s", key).isTrue();
    }
    assertThat(filter.counter(0)).isEqualTo(15);
    assertThat(filter.counter(1)).as("the neighbouring counter in the word").isZero();

    for (String key : keys.subList(0, 19)) {
      assertThat(filter.remove(key)).as("remove %s", key).isTrue();
    }
    assertThat(filter.counter(0)).isEqualTo(15);
    assertThat(filter.mightContain(keys.get(19))).isTrue();
    assertThat(keys.subList(0, 19)).noneMatch(filter::mightContain);
    assertThat(filter.nonZeroCounterCount()).isEqualTo(2);
  }

  @Test
  void putAndRemove_churnFromFourThreads_readersNeverMissAStoredKey() throws Exception {
    CountingBloomFilter filter = CountingBloomFilter.create(100_000, 0.01);
    List<String> stableKeys = new ArrayList<>();
    for (int i = 0; i < 50_000; i++) {
      if (filter.put(url(0, i))) {
        stableKeys.add(url(0, i));
      }
    }
    int stable = stableKeys.size();
    AtomicBoolean writing = new AtomicBoolean(true);
    AtomicLong misses = new AtomicLong();
    CountDownLatch start = new CountDownLatch(1);
    ExecutorService pool = Executors.newFixedThreadPool(6);
    try {
      List<Future<?>> writers = new ArrayList<>();
      for (int t = 1; t <= 4; t++) {
        int stream = t;
        writers.add(pool.submit(() -> {
          start.await();
          for (int round = 0; round < 5; round++) {
            List<String> mine = new ArrayList<>();
            for (int i = 0; i < 5_000; i++) {
              String key = url(stream, round * 5_000 + i);
              if (filter.put(key)) {
                mine.add(key);
              }
            }
            mine.forEach(filter::remove);
          }
          return null;
        }));
      }
      List<Future<?>> readers = new ArrayList<>();
      for (int r = 0; r < 2; r++) {
        readers.add(pool.submit(() -> {
          start.await();
          do {
            for (String key : stableKeys) {
              if (!filter.mightContain(key)) {
                misses.incrementAndGet();
              }
            }
          } while (writing.get());
          return null;
        }));
      }
      start.countDown();
      for (Future<?> f : writers) {
        f.get();
      }
      writing.set(false);
      for (Future<?> f : readers) {
        f.get();
      }
    } finally {
      pool.shutdownNow();
    }

    assertThat(misses.get()).isZero();
    assertThat((double) filter.approximateElementCount()).isCloseTo(stable, within(0.05 * stable));
  }

  @Test
  void create_badArguments_messageNamesParameterAndValue() {
    assertThatThrownBy(() -> CountingBloomFilter.create(0, 0.01))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("expectedInsertions (0) must be > 0");
    assertThatThrownBy(() -> CountingBloomFilter.create(1000, 1.0))
        .hasMessage("falsePositiveRate (1.0) must be in (0, 1)");
    assertThatThrownBy(() -> CountingBloomFilter.create(1000L, 0))
        .hasMessage("hashes (0) must be in [1, 255]");
    assertThatThrownBy(() -> CountingBloomFilter.create(-1L, 3))
        .hasMessageStartingWith("counters (-1) must be in [1, ");
  }

  private static byte[] serialize(MembershipFilter filter) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    filter.writeTo(out);
    return out.toByteArray();
  }
}
