package dev.sieve.frontier.local;

import dev.sieve.frontier.LastFetch;
import dev.sieve.frontier.Lease;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.function.Function;

/**
 * The URLs a recrawling {@link LocalFrontier} has done, each waiting until it is due again: {@code
 * interval} after it was done. Due times are kept twice: in ticker time, which schedules, and as
 * wall-clock milliseconds, which a saved state and its journal keep, so that a resumed crawl
 * finds a URL due at the instant it was due before. Not thread-safe: guarded by the frontier's
 * lock.
 */
final class Recrawl {
  /** A URL waiting: its next lease and when it is due. */
  record Due(Lease lease, long dueNanos, long dueMillis) {}

  private final Duration interval;
  private final Clock clock;
  /** After a crash: of the refetches in flight (URL → when last recorded), those recorded since. */
  final Function<Map<String, Instant>, Map<String, Map<String, Long>>> recordedSince;
  /** By due time; URLs found overdue on a restore keep their order. */
  private final PriorityQueue<Due> waiting = new PriorityQueue<>(
      Comparator.comparingLong(Due::dueNanos).thenComparingLong(Due::dueMillis));

  Recrawl(Duration interval, Clock clock,
      Function<Map<String, Instant>, Map<String, Map<String, Long>>> recordedSince) {
    this.interval = interval;
    this.clock = clock;
    this.recordedSince = recordedSince;
  }

  /** Whether URLs done are due again. */
  boolean enabled() {
    return interval != null;
  }

  /** Schedules {@code lease}'s URL, done now, to be due again one interval from now. */
  Due schedule(Lease lease, long nowNanos) {
    Due due = new Due(lease.refetch(), nowNanos + interval.toNanos(),
        clock.millis() + interval.toMillis());
    waiting.add(due);
    return due;
  }

  /** A URL done before this process started, due at {@code dueMillis} wall-clock time. */
  void restore(Lease lease, long dueMillis, long nowNanos) {
    long wait = Math.max(0, dueMillis - clock.millis());
    waiting.add(new Due(lease, nowNanos + wait * 1_000_000, dueMillis));
  }

  /**
   * A URL in flight at a crash whose record was written though its completion was not
   * journaled: done at the restart, due one interval later.
   */
  void recordedAtCrash(Lease lease, long nowNanos) {
    LastFetch last = lease.last();
    Instant now = clock.instant();
    schedule(lease.fetched(last == null ? new LastFetch(1, now, null, null, null, null)
        : new LastFetch(last.fetches() + 1, now, last.etag(), last.lastModified(), last.recordId(),
            last.recordDate())), nowNanos);
  }

  /** The first URL due by {@code nowNanos}, taken out; null when none is. */
  Lease pollDue(long nowNanos) {
    Due first = waiting.peek();
    if (first == null || first.dueNanos() - nowNanos > 0) {
      return null;
    }
    return waiting.poll().lease();
  }

  /** Nanoseconds until the first URL is due: 0 if one is, -1 if none waits. */
  long nanosUntilDue(long nowNanos) {
    Due first = waiting.peek();
    return first == null ? -1 : Math.max(0, first.dueNanos() - nowNanos);
  }

  boolean isEmpty() {
    return waiting.isEmpty();
  }

  int size() {
    return waiting.size();
  }

  /** Every URL waiting, in no order (for a saved state). */
  List<Due> all() {
    return new ArrayList<>(waiting);
  }

  /** Takes every URL waiting out, in no order (for a replay, which restores them after). */
  List<Due> drain() {
    List<Due> all = all();
    waiting.clear();
    return all;
  }
}
