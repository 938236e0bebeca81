package dev.sieve.frontier.local;

import com.google.common.base.Ticker;
import dev.sieve.frontier.Politeness;
import dev.sieve.frontier.QueueKey;
import dev.sieve.frontier.FrontierListener;
import dev.sieve.frontier.FrontierSettings;
import dev.sieve.frontier.Sieve;
import dev.sieve.frontier.spill.PendingStore;
import java.io.DataInputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;

/** Settings of a {@link LocalFrontier}, validated once in {@link #build()} or a restore. */
public final class LocalFrontierBuilder {
  private final Sieve sieve;
  private Ticker ticker = Ticker.systemTicker();
  private Politeness politeness = Politeness.DEFAULT;
  private Path spillDir;
  private Function<Set<String>, Map<String, Map<String, Long>>> recordedElsewhere = urls -> Map.of();
  private long pendingMemoryBytes = Long.MAX_VALUE;
  private long segmentBytes = PendingStore.DEFAULT_SEGMENT_BYTES;
  private Duration recrawlAfter;
  private Clock clock = Clock.systemUTC();
  private Function<Map<String, Instant>, Map<String, Map<String, Long>>> recordedSince =
      urls -> Map.of();

  LocalFrontierBuilder(Sieve sieve) {
    this.sieve = Objects.requireNonNull(sieve, "sieve");
  }

  public LocalFrontierBuilder ticker(Ticker ticker) {
    this.ticker = Objects.requireNonNull(ticker, "ticker");
    return this;
  }

  /** How each politeness key is treated (default {@link Politeness#DEFAULT}). */
  public LocalFrontierBuilder politeness(Politeness politeness) {
    this.politeness = Objects.requireNonNull(politeness, "politeness");
    return this;
  }

  /** The least time between fetch starts of one key (default 1 s): {@link Politeness#withDelay}. */
  public LocalFrontierBuilder politenessDelay(Duration delay) {
    return politeness(politeness.withDelay(Objects.requireNonNull(delay, "politenessDelay")));
  }

  /** At most this many fetches of one key at once (default 1). */
  public LocalFrontierBuilder maxInFlightPerHost(int max) {
    return politeness(politeness.withMaxInFlightPerHost(max));
  }

  /** At most this many URLs queued per key over the whole crawl (default unlimited). */
  public LocalFrontierBuilder maxUrlsPerHost(long max) {
    return politeness(politeness.withMaxUrlsPerHost(max));
  }

  /** What a politeness key is (default the host). */
  public LocalFrontierBuilder queueKey(QueueKey queueKey) {
    return politeness(politeness.withQueueKey(Objects.requireNonNull(queueKey, "queueKey")));
  }

  /**
   * The ticker, politeness, memory budget and recrawl interval of {@code settings}, pending URLs
   * past the budget spilled to {@code spill}, and what {@code listener} recorded before a crash
   * (see {@link #recordedElsewhere} and {@link #recordedSince}).
   */
  public LocalFrontierBuilder settings(FrontierSettings settings, Path spill, FrontierListener listener) {
    return ticker(settings.ticker).politeness(settings.politeness)
        .spillTo(spill, settings.pendingMemoryBytes).recrawlAfter(settings.recrawlAfter)
        .recordedElsewhere(listener::recordedBefore).recordedSince(listener::recordedSince);
  }

  /**
   * Keeps pending URLs within {@code pendingMemoryBytes} of memory (estimated, per-host records
   * included) and spills the rest to segment files in {@code dir}, which is created if need be
   * and should belong to this frontier alone: segment files found there when it is built are
   * deleted, and when it is restored those the state does not refer to. Default: every pending
   * URL in memory.
   */
  public LocalFrontierBuilder spillTo(Path dir, long pendingMemoryBytes) {
    this.spillDir = Objects.requireNonNull(dir, "dir");
    this.pendingMemoryBytes = pendingMemoryBytes;
    return this;
  }

  /** The size at which a spill file is closed and a new one started (default 64 MiB); tests. */
  LocalFrontierBuilder segmentBytes(long segmentBytes) {
    this.segmentBytes = segmentBytes;
    return this;
  }

  /**
   * After a crash, given the URLs that were in flight, returns those whose record was already
   * written (with the counters their records stand for): they are not fetched again. Default:
   * none.
   */
  public LocalFrontierBuilder recordedElsewhere(Function<Set<String>, Map<String, Map<String, Long>>> recorded) {
    this.recordedElsewhere = Objects.requireNonNull(recorded, "recorded");
    return this;
  }

  /**
   * Makes each URL done due again {@code interval} after it was done (null, the default: never);
   * the frontier is then never finished.
   */
  public LocalFrontierBuilder recrawlAfter(Duration interval) {
    this.recrawlAfter = interval;
    return this;
  }

  /** The wall clock that due times of refetches are kept in (default UTC). */
  public LocalFrontierBuilder clock(Clock clock) {
    this.clock = Objects.requireNonNull(clock, "clock");
    return this;
  }

  /**
   * After a crash, given the refetches that were in flight (each URL with when its previous
   * fetch was recorded), returns those recorded since (as {@link #recordedElsewhere}).
   */
  public LocalFrontierBuilder recordedSince(
      Function<Map<String, Instant>, Map<String, Map<String, Long>>> recorded) {
    this.recordedSince = Objects.requireNonNull(recorded, "recorded");
    return this;
  }

  public LocalFrontier build() {
    validate();
    PendingStore store = spillDir == null
        ? PendingStore.inMemory()
        : PendingStore.spilling(spillDir, pendingMemoryBytes, segmentBytes);
    return new LocalFrontier(sieve, ticker, politeness, store, recordedElsewhere, recrawl());
  }

  /**
   * Builds a frontier from a state saved by {@link LocalFrontierState#writeState}: its hosts with
   * their admitted counts, skips and delays, its pending URLs in order with the in-flight leases
   * first in their hosts (dropped and counted if the host was skipped), and its counters of
   * dropped URLs. A state with spilled URLs needs {@link #spillTo} with the same directory.
   * The Sieve is not part of the state: pass one restored by the caller.
   *
   * @throws IOException if the state is malformed or a spill file it refers to is missing or
   *     short; the message names the problem and the file
   */
  public LocalFrontier restore(DataInputStream in) throws IOException {
    return restore(in, List.of());
  }

  /**
   * Builds a frontier from a saved state and the journals written after it (see {@link
   * LocalFrontierState#replay}); the leases out at save time, and those taken in the journals and
   * never given back, go first in their hosts' queues.
   */
  public LocalFrontier restore(DataInputStream in, List<Path> journals) throws IOException {
    validate();
    LocalFrontier[] made = new LocalFrontier[1];
    Snapshot.Restored restored = Snapshot.read(in, spillDir, pendingMemoryBytes, segmentBytes, store -> {
      made[0] = new LocalFrontier(sieve, ticker, politeness, store, recordedElsewhere, recrawl());
      return made[0].schedule;
    });
    LocalFrontier frontier = made[0];
    frontier.leasedOut = restored.leasedOut();
    frontier.state().replay(journals);
    return frontier;
  }

  private Recrawl recrawl() {
    return new Recrawl(recrawlAfter, clock, recordedSince);
  }

  private void validate() {
    if (recrawlAfter != null && recrawlAfter.compareTo(Duration.ofMillis(1)) < 0) {
      throw new IllegalArgumentException("recrawlAfter (" + recrawlAfter + ") must be >= 1 ms");
    }
    if (spillDir != null) {
      PendingStore.checkBudget(pendingMemoryBytes);
    }
    if (segmentBytes <= 0) {
      throw new IllegalArgumentException("segmentBytes (" + segmentBytes + ") must be > 0");
    }
  }
}
