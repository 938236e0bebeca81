package dev.sieve.frontier.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** A batch's per-shard calls run side by side, and a failure comes back after all of them ended. */
class ShardCallsTest {
  @Test
  void runAll_callsThatWaitForEachOther_allRunAtOnce() {
    int n = 4;
    CyclicBarrier all = new CyclicBarrier(n);
    AtomicInteger passed = new AtomicInteger();
    List<Runnable> calls = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      calls.add(() -> {
        try {
          all.await(30, TimeUnit.SECONDS); // one after another, the first would wait in vain
          passed.incrementAndGet();
        } catch (InterruptedException | BrokenBarrierException | TimeoutException e) {
          throw new IllegalStateException("the calls did not run at once", e);
        }
      });
    }

    try (ShardCalls shardCalls = new ShardCalls()) {
      shardCalls.runAll(calls);
    }

    assertThat(passed).hasValue(n);
  }

  @Test
  void runAll_oneCallFails_rethrowsItOnceTheOthersEnded() {
    AtomicInteger ended = new AtomicInteger();
    List<Runnable> calls = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      int call = i;
      calls.add(() -> {
        if (call == 1) {
          throw new RedisFrontierException("shard 1 failed");
        }
        ended.incrementAndGet();
      });
    }

    try (ShardCalls shardCalls = new ShardCalls()) {
      assertThatThrownBy(() -> shardCalls.runAll(calls))
          .isInstanceOf(RedisFrontierException.class).hasMessage("shard 1 failed");
    }

    assertThat(ended).hasValue(4);
  }
}
