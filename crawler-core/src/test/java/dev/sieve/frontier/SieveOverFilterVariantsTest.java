package dev.sieve.frontier;

import static dev.sieve.testing.SyntheticUrls.url;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sieve.bloom.ScalableBloomFilter;
import dev.sieve.testing.FilterVariant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The Sieve's exactly-once push holds in front of every member of the filter family. */
class SieveOverFilterVariantsTest {
  private static final double FPP = 1e-6;
  private static ExecutorService pool;

  @BeforeAll
  static void startPool() {
    pool = Executors.newFixedThreadPool(16);
  }

  @AfterAll
  static void stopPool() {
    pool.shutdownNow();
  }

  static Stream<Arguments> variantsFiveTimes() {
    return FilterVariant.all().stream()
        .flatMap(v -> IntStream.rangeClosed(1, 5).mapToObj(run -> Arguments.of(v, run)));
  }

  @ParameterizedTest(name = "{0}, run {1}")
  @MethodSource("variantsFiveTimes")
  void push_sameUrlsFromSixteenThreads_eachEnqueuedExactlyOnce(FilterVariant variant, int run)
      throws Exception {
    // Nearly empty, as in SieveTest: a URL dropped as a false positive is then all but impossible,
    // so every URL not enqueued would be one lost to a race.
    SieveQueue sieve = SieveQueue.over(variant.create(1_000_000, FPP), FPP, warning -> {});
    int urls = 5_000;

    int accepted = pushFromSixteenThreads(sieve, urls);

    List<String> popped = popAll(sieve);
    assertThat(accepted).isEqualTo(urls);
    assertThat(popped).hasSize(urls).doesNotHaveDuplicates();
  }

  @RepeatedTest(5)
  void push_sameUrlsFromSixteenThreadsWhileScalableGrows_noUrlEnqueuedTwice() throws Exception {
    ScalableBloomFilter filter = ScalableBloomFilter.create(500, FPP);
    SieveQueue sieve = SieveQueue.over(filter, FPP, warning -> {});
    int urls = 5_000;

    int accepted = pushFromSixteenThreads(sieve, urls);

    List<String> popped = popAll(sieve);
    assertThat(filter.layers()).isEqualTo(4); // 500 + 1,000 + 2,000 < 5,000 ≤ 7,500
    assertThat(popped).hasSize(accepted).doesNotHaveDuplicates();
    // The first layers are small tables at a tight rate, where BloomFilter's index has a
    // false-positive floor of order 1/(m·k): allow the odd URL dropped as seen.
    assertThat(accepted).isBetween(urls - 2, urls);
    assertThat(popped).allMatch(filter::mightContain);
  }

  private static int pushFromSixteenThreads(SieveQueue sieve, int urls) throws Exception {
    return SieveTest.pushFromSixteenThreads(pool, sieve, urls);
  }


  private static List<String> popAll(SieveQueue sieve) {
    List<String> popped = new ArrayList<>();
    for (Optional<PendingUrl> next = sieve.pop(); next.isPresent(); next = sieve.pop()) {
      popped.add(next.get().url());
    }
    return popped;
  }
}
