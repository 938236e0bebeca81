package dev.sieve.frontier.local;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.common.base.Ticker;
import dev.sieve.frontier.LastFetch;
import dev.sieve.frontier.Lease;
import dev.sieve.frontier.Sieve;
import dev.sieve.url.Url;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A recrawling frontier: each URL done is due again one interval later, with what its fetch left,
 * and a saved state plus journals keep the wall-clock due times across a restart.
 */
class LocalFrontierRecrawlTest {
  private static final Duration INTERVAL = Duration.ofSeconds(10);
  private static final long SECOND = 1_000_000_000L;

  @TempDir Path dir;

  private final Time time = new Time(Instant.parse("2026-11-27T08:00:00Z"), 5_000 * SECOND);

  @Test
  void complete_recrawl_dueAgainOneIntervalLaterWithItsLastFetch() {
    LocalFrontier frontier = builder(time, Sieve.create(1000, 1e-6)).build();
    frontier.push(url("http://a.example/"), 0, null, null);
    Lease first = frontier.poll();

    frontier.complete(first.fetched(fetched(1, "\"v1\"")), Map.of("pages", 1L));

    assertThat(frontier.poll()).isNull();
    assertThat(frontier.isFinished()).isFalse();
    assertThat(frontier.nanosUntilReady()).isEqualTo(INTERVAL.toNanos());
    time.advance(INTERVAL.toNanos() - 1);
    assertThat(frontier.poll()).isNull();
    time.advance(1);
    Lease again = frontier.poll();
    assertThat(again.url()).hasToString("http://a.example/");
    assertThat(again.attempt()).isZero();
    assertThat(again.refetchNumber()).isEqualTo(1);
    assertThat(again.last().etag()).isEqualTo("\"v1\"");
  }

  @Test
  void complete_recrawlAfterRetries_refetchStartsAtAttemptZero() {
    LocalFrontier frontier = builder(time, Sieve.create(1000, 1e-6)).build();
    frontier.push(url("http://a.example/"), 0, null, null);
    Lease first = frontier.poll();
    frontier.retry(first, Duration.ZERO, Map.of());
    time.advance(2 * SECOND);
    Lease retried = frontier.poll();

    frontier.complete(retried.fetched(fetched(1, null)), Map.of());
    time.advance(INTERVAL.toNanos());

    assertThat(retried.attempt()).isEqualTo(1);
    assertThat(frontier.poll().attempt()).isZero();
  }

  @Test
  void restore_stateThenJournal_keepsWallClockDueTimes() throws Exception {
    Sieve sieve = Sieve.create(1000, 1e-6);
    LocalFrontier live = builder(time, sieve).build();
    live.state().journalTo(dir.resolve("journal-0.log"));
    live.push(url("http://a.example/"), 0, null, null);
    live.push(url("http://b.example/"), 0, null, null);
    live.complete(live.poll().fetched(fetched(1, "\"a\"")), Map.of());  // a: due at 08:00:10
    Checkpoint checkpoint = Checkpoint.take(live, sieve, dir.resolve("journal-1.log"));
    time.advance(3 * SECOND);
    live.complete(live.poll().fetched(fetched(1, "\"b\"")), Map.of());  // b: due at 08:00:13, journaled
    live.state().closeJournal();

    // Another process, 5 s later by the wall clock, whose ticker starts elsewhere.
    Time later = new Time(time.clock.instant().plusSeconds(5), 77 * SECOND);
    LocalFrontier restored = checkpoint.restore(builder(later, checkpoint.sieve()),
        List.of(dir.resolve("journal-1.log")));

    assertThat(restored.poll()).isNull();
    assertThat(restored.nanosUntilReady()).isEqualTo(2 * SECOND);  // a, due at 08:00:10
    later.advance(2 * SECOND);
    Lease a = restored.poll();
    assertThat(a.url()).hasToString("http://a.example/");
    assertThat(a.last().etag()).isEqualTo("\"a\"");
    assertThat(restored.poll()).isNull();
    assertThat(restored.nanosUntilReady()).isEqualTo(3 * SECOND);  // b, due at 08:00:13
    later.advance(3 * SECOND);
    assertThat(restored.poll().last().etag()).isEqualTo("\"b\"");
  }

  @Test
  void replay_dueThenTakenAtCrash_queuedAgainAtOnce() throws Exception {
    Lease refetch = crashWithRefetchInFlight();

    LocalFrontier restored = builder(time, Sieve.create(1000, 1e-6)).build();
    restored.state().replay(List.of(dir.resolve("journal-0.log")));

    Lease again = restored.poll();
    assertThat(again).isEqualTo(refetch);
    assertThat(again.refetchNumber()).isEqualTo(1);
    assertThat(restored.poll()).isNull();
  }

  @Test
  void replay_refetchRecordedBeforeCrash_notFetchedAgainUntilOneIntervalLater() throws Exception {
    crashWithRefetchInFlight();  // its record was written, its completion not journaled

    LocalFrontier restored = builder(time, Sieve.create(1000, 1e-6))
        .recordedSince(urls -> Map.of("http://a.example/", Map.of("pages", 1L)))
        .build();
    restored.state().replay(List.of(dir.resolve("journal-0.log")));

    assertThat(restored.poll()).isNull();
    assertThat(restored.nanosUntilReady()).isEqualTo(INTERVAL.toNanos());
    assertThat(restored.state().counts()).containsEntry("pages", 1L);
  }

  /**
   * A journaled frontier whose one URL was fetched, became due again and was taken: in flight when
   * the process dies. Returns that lease.
   */
  private Lease crashWithRefetchInFlight() throws Exception {
    LocalFrontier live = builder(time, Sieve.create(1000, 1e-6)).build();
    live.state().journalTo(dir.resolve("journal-0.log"));
    live.push(url("http://a.example/"), 0, null, null);
    live.complete(live.poll().fetched(fetched(1, "\"a\"")), Map.of());
    time.advance(INTERVAL.toNanos());
    Lease refetch = live.poll();
    live.state().closeJournal();
    return refetch;
  }

  private LastFetch fetched(int fetches, String etag) {
    return new LastFetch(fetches, time.clock.instant(), etag, null, null, null);
  }

  private static LocalFrontierBuilder builder(Time time, Sieve sieve) {
    return LocalFrontier.builder(sieve).ticker(time.ticker).clock(time.clock)
        .politenessDelay(Duration.ZERO).recrawlAfter(INTERVAL);
  }

  private static Url url(String url) {
    return Url.parse(url).orElseThrow();
  }

  /** A ticker and a wall clock that move together when advanced. */
  private static final class Time {
    private final AtomicLong nanos;
    private final Instant wallAtStart;
    private final long tickerAtStart;
    final Ticker ticker = new Ticker() {
      @Override
      public long read() {
        return nanos.get();
      }
    };
    final Clock clock = new Clock() {
      @Override
      public Instant instant() {
        return wallAtStart.plusNanos(nanos.get() - tickerAtStart);
      }

      @Override
      public ZoneId getZone() {
        return ZoneOffset.UTC;
      }

      @Override
      public Clock withZone(ZoneId zone) {
        throw new UnsupportedOperationException();
      }
    };

    Time(Instant wall, long tickerStart) {
      this.nanos = new AtomicLong(tickerStart);
      this.wallAtStart = wall;
      this.tickerAtStart = tickerStart;
    }

    void advance(long delta) {
      nanos.addAndGet(delta);
    }
  }
}
