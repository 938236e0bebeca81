package dev.sieve.frontier.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisDataException;

/** Riding out Redis being unreachable, on a fake clock: what is retried, how long, and how often. */
class RedisOutageTest {
  private long now;
  private final List<Long> slept = new ArrayList<>();
  private final RedisOutage outage = new RedisOutage("redis://127.0.0.1:1", Duration.ofSeconds(10),
      () -> now, nanos -> {
        slept.add(nanos);
        now += nanos;
      });

  @Test
  void call_failingWhileRedisIsUnreachable_isTriedAgainWithBackoffUntilItAnswers() {
    AtomicInteger attempts = new AtomicInteger();
    String answer = outage.call(() -> {
      if (attempts.incrementAndGet() <= 3) {
        throw failure(new JedisConnectionException("Connection refused"));
      }
      return "lease";
    }, () -> false);

    assertThat(answer).isEqualTo("lease");
    assertThat(slept).containsExactly(ms(100), ms(200), ms(400));
    assertThat(outage.outages()).isEqualTo(1);
    outage.call(() -> "again", () -> false);
    assertThat(outage.outages()).as("a call that answers at once is no outage").isEqualTo(1);
  }

  @Test
  void call_whileRedisLoadsItsData_isTriedAgain() {
    AtomicInteger attempts = new AtomicInteger();
    assertThat(outage.call(() -> {
      if (attempts.incrementAndGet() == 1) {
        throw failure(new JedisDataException("LOADING Redis is loading the dataset in memory"));
      }
      return 1;
    }, () -> false)).isEqualTo(1);
    assertThat(slept).hasSize(1);
  }

  @Test
  void call_refusedByRedis_isThrownAtOnce() {
    UncheckedIOException refused = failure(new JedisDataException("ERR Error running script"));
    assertThatThrownBy(() -> outage.call(thrower(refused), () -> false)).isSameAs(refused);
    assertThat(slept).isEmpty();
    assertThat(outage.outages()).isZero();
  }

  @Test
  void call_unreachablePastPatience_throwsSayingHowLong() {
    UncheckedIOException down = failure(new JedisConnectionException("Connection refused"));
    assertThatThrownBy(() -> outage.call(thrower(down), () -> false))
        .isInstanceOf(UncheckedIOException.class).cause()
        .hasMessage("Redis frontier at redis://127.0.0.1:1 failed to take: Connection refused"
            + " (unreachable for 10.0 s)");
    assertThat(slept.stream().mapToLong(Long::longValue).sum()).isEqualTo(ms(10_000));
    assertThat(slept.get(slept.size() - 1)).as("the last wait ends at the patience")
        .isLessThan(ms(5_000));
    assertThat(slept).allSatisfy(nanos -> assertThat(nanos).isLessThanOrEqualTo(ms(5_000)));
  }

  @Test
  void call_abandoned_stopsWaiting() {
    UncheckedIOException down = failure(new JedisConnectionException("Connection refused"));
    assertThatThrownBy(() -> outage.call(thrower(down), () -> true))
        .hasMessageContaining("unreachable for 0.0 s");
    assertThat(slept).isEmpty();
  }

  @Test
  void call_withoutPatience_throwsAtOnce() {
    RedisOutage none = new RedisOutage("r", Duration.ZERO, () -> now, slept::add);
    UncheckedIOException down = failure(new JedisConnectionException("Connection refused"));
    assertThatThrownBy(() -> none.call(thrower(down), () -> false)).isSameAs(down);
    assertThat(slept).isEmpty();
  }

  private static UncheckedIOException failure(Exception cause) {
    return new UncheckedIOException(new IOException(
        "Redis frontier at redis://127.0.0.1:1 failed to take: " + cause.getMessage(), cause));
  }

  private static <T> Supplier<T> thrower(RuntimeException e) {
    return () -> {
      throw e;
    };
  }

  private static long ms(long millis) {
    return TimeUnit.MILLISECONDS.toNanos(millis);
  }
}
