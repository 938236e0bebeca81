package dev.sieve.bloom;

import static dev.sieve.testing.SyntheticUrls.url;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class CuckooFilterTest {
  @Test
  void create_sizedByFilterSizing() {
    CuckooFilter filter = CuckooFilter.create(1_000_000, 0.01);

    assertThat(filter.fingerprintBits()).isEqualTo(10);
    assertThat(filter.bucketCount()).isEqualTo(1L << 19);
    assertThat(filter.bitSize()).isEqualTo((1L << 19) * 4 * 10);
    assertThat(filter.expectedInsertions()).isEqualTo(1_000_000);
    assertThat(filter.loadFactor()).isZero();
  }

  @Test
  void otherBucket_ofOtherBucket_isTheFirst() {
    CuckooFilter filter = CuckooFilter.create(100_000, 0.01);
    for (int i = 0; i < 10_000; i++) {
      Hash128 hash = Hash128.of(url(0, i));
      long fp = filter.fingerprint(hash);
      long first = filter.firstBucket(hash);

      assertThat(fp).isBetween(1L, (1L << 10) - 1);
      assertThat(filter.otherBucket(filter.otherBucket(first, fp), fp)).isEqualTo(first);
    }
  }

  @Test
  void put_sameKeyTwice_storedOnce() {
    CuckooFilter filter = CuckooFilter.create(1000, 0.01);
    String key = "https://example.com/";

    assertThat(filter.put(key)).isTrue();
    assertThat(filter.put(key)).isFalse();
    assertThat(filter.approximateElementCount()).isEqualTo(1);

    assertThat(filter.remove(key)).isTrue();
    assertThat(filter.mightContain(key)).isFalse();
    assertThat(filter.approximateElementCount()).isZero();
    assertThat(filter.remove(key)).isFalse();
  }

  @Test
  void remove_halfOfTheStoredUrls_everyOtherStoredUrlStillFound() {
    int keys = 200_000;
    CuckooFilter filter = CuckooFilter.create(keys, 0.01);
    boolean[] stored = new boolean[keys];
    long storedCount = 0;
    for (int i = 0; i < keys; i++) {
      stored[i] = filter.put(url(0, i));
      storedCount += stored[i] ? 1 : 0;
    }

    long removed = 0;
    for (int i = 0; i < keys; i += 2) {
      if (stored[i]) {
        assertThat(filter.remove(url(0, i))).as("remove %s", url(0, i)).isTrue();
        removed++;
      }
    }

    int stillFoundRemoved = 0;
    for (int i = 0; i < keys; i++) {
      boolean found = filter.mightContain(url(0, i));
      if (i % 2 == 1 && stored[i] && !found) {
        throw new AssertionError("removing others lost " + url(0, i));
      } else if (i % 2 == 0 && found) {
        stillFoundRemoved++;
      }
    }
    assertThat(filter.approximateElementCount()).isEqualTo(storedCount - removed);
    assertThat(stillFoundRemoved).isLessThan(keys / 2 / 100);
  }

  @Test
  void remove_neverPutKeyWithAbsentFingerprint_returnsFalseAndChangesNothing() throws Exception {
    CuckooFilter filter = CuckooFilter.create(10_000, 0.01);
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

  /** The documented hazard: a never-put key sharing a stored key's fingerprint deletes it. */
  @Test
  void remove_neverPutKeySharingAFingerprint_deletesTheStoredKey() {
    CuckooFilter filter = CuckooFilter.create(1000, 0.01);
    for (int i = 0; i < 1000; i++) {
      filter.put(url(0, i));
    }
    int falsePositive = 0;
    while (!filter.mightContain(url(1, falsePositive))) {
      falsePositive++;
    }
    long count = filter.approximateElementCount();

    assertThat(filter.remove(url(1, falsePositive))).isTrue();

    assertThat(filter.approximateElementCount()).isEqualTo(count - 1);
    List<String> lost = new ArrayList<>();
    for (int i = 0; i < 1000; i++) {
      if (!filter.mightContain(url(0, i))) {
        lost.add(url(0, i));
      }
    }
    assertThat(lost).hasSize(1);
  }

  @Test
  void put_tableFull_throwsAndEveryEarlierKeyIsStillFound() throws Exception {
    CuckooFilter filter = CuckooFilter.create(1000, 0.01); // 512 buckets, 2048 slots
    List<String> stored = new ArrayList<>();
    int i = 0;
    byte[] before;
    Throwable full;
    do {
      before = serialize(filter);
      String key = url(0, i++);
      full = catchThrowable(() -> {
        if (filter.put(key)) {
          stored.add(key);
        }
      });
    } while (full == null);

    assertThat(full)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageStartingWith("cuckoo filter full: " + stored.size() + " fingerprints in 512"
            + " buckets of 4");
    assertThat(filter.loadFactor()).isGreaterThan(0.9);
    assertThat(serialize(filter)).as("the failed put undid its kicks").isEqualTo(before);
    assertThat(stored).allMatch(filter::mightContain);
    assertThat(filter.mightContain(url(0, i - 1))).isFalse();
    assertThat(filter.approximateElementCount()).isEqualTo(stored.size());

    // A removal frees a slot in the removed key's buckets: it can be put back.
    assertThat(filter.remove(stored.get(0))).isTrue();
    assertThat(filter.put(stored.get(0))).isTrue();
  }

  @Test
  void putAndRemove_churnFromFourThreads_readersNeverMissAStoredKey() throws Exception {
    // 121k keys fill 92% of the 131,072 slots: most puts by the writers kick, many far.
    CuckooFilter filter = CuckooFilter.create(120_000, 0.01);
    assertThat(filter.bucketCount()).isEqualTo(1 << 15);
    List<Hash128> stable = new ArrayList<>();
    for (int i = 0; i < 121_000; i++) {
      Hash128 hash = Hash128.of(url(0, i));
      if (filter.put(hash)) {
        stable.add(hash);
      }
    }
    AtomicBoolean writing = new AtomicBoolean(true);
    AtomicLong misses = new AtomicLong();
    CountDownLatch start = new CountDownLatch(1);
    ExecutorService pool = Executors.newFixedThreadPool(6);
    try {
      List<Future<?>> writers = new ArrayList<>();
      for (int t = 1; t <= 4; t++) {
        Hash128[] churn = new Hash128[10_000];
        for (int i = 0; i < churn.length; i++) {
          churn[i] = Hash128.of(url(t, i));
        }
        writers.add(pool.submit(() -> {
          start.await();
          for (int round = 0; round < churn.length; round += 250) {
            List<Hash128> mine = new ArrayList<>();
            for (int i = round; i < round + 250; i++) {
              if (filter.put(churn[i])) {
                mine.add(churn[i]);
              }
            }
            for (Hash128 hash : mine) {
              assertThat(filter.remove(hash)).isTrue();
            }
          }
          return null;
        }));
      }
      List<Future<?>> readers = new ArrayList<>();
      for (int r = 0; r < 2; r++) {
        readers.add(pool.submit(() -> {
          start.await();
          do {
            for (Hash128 hash : stable) {
              if (!filter.mightContain(hash)) {
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
    assertThat(filter.approximateElementCount()).isEqualTo(stable.size());
  }

  /**
   * Deterministic form of the race the churn test samples: a reader asking for a key whose
   * fingerprint a kick has just taken out of the table must wait for the put and find it.
   */
  @Test
  void mightContain_keyWhoseFingerprintIsMidKick_waitsForThePutAndFindsIt() throws Exception {
    CuckooFilter filter = CuckooFilter.create(1000, 0.01); // 2048 slots
    Map<List<Long>, Hash128> byBucketAndFingerprint = new HashMap<>();
    int i = 0;
    while (filter.loadFactor() < 0.9) {
      Hash128 hash = Hash128.of(url(0, i++));
      if (filter.put(hash)) {
        long fp = filter.fingerprint(hash);
        long first = filter.firstBucket(hash);
        byBucketAndFingerprint.put(List.of(first, fp), hash);
        byBucketAndFingerprint.put(List.of(filter.otherBucket(first, fp), fp), hash);
      }
    }
    ExecutorService reader = Executors.newSingleThreadExecutor();
    AtomicReference<Thread> readerThread = new AtomicReference<>();
    reader.submit(() -> readerThread.set(Thread.currentThread())).get();
    List<Future<Boolean>> answers = new ArrayList<>();
    filter.kickObserver = (bucket, fp) -> {
      Hash128 evicted = byBucketAndFingerprint.get(List.of(bucket, fp));
      if (evicted == null || !answers.isEmpty()) {
        return;
      }
      Future<Boolean> answer = reader.submit(() -> filter.mightContain(evicted));
      answers.add(answer);
      // Hold the write lock until the reader has answered or is parked waiting for it.
      while (!answer.isDone() && readerThread.get().getState() != Thread.State.WAITING) {
        Thread.onSpinWait();
      }
    };
    try {
      while (answers.isEmpty()) {
        filter.put(Hash128.of(url(1, i++)));
      }
      assertThat(answers.get(0).get()).as("the evicted key, asked for mid-kick").isTrue();
    } finally {
      filter.kickObserver = null;
      reader.shutdownNow();
    }
  }

  @Test
  void create_badArguments_messageNamesParameterAndValue() {
    assertThatThrownBy(() -> CuckooFilter.create(0, 0.01))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("expectedInsertions (0) must be > 0");
    assertThatThrownBy(() -> CuckooFilter.create(1000, -0.5))
        .hasMessage("falsePositiveRate (-0.5) must be in (0, 1)");
    assertThatThrownBy(() -> CuckooFilter.create(1000, 1e-12))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "falsePositiveRate (1.0E-12) needs fingerprints over 32 bits; the least a cuckoo"
                + " filter offers is 1.86e-09");
  }

  private static byte[] serialize(MembershipFilter filter) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    filter.writeTo(out);
    return out.toByteArray();
  }
}
