package dev.sieve.frontier.local;

import dev.sieve.frontier.Lease;

/**
 * Hears every change to a {@link LocalFrontier}'s queues, in order, under the frontier's lock: a
 * journal that, replayed over a saved state, rebuilds the frontier exactly. Implementations must
 * be quick and must not call back into the frontier.
 */
interface FrontierLog {
  /** A new URL was admitted by the Sieve and queued last on its host. */
  void added(Lease lease);

  /** The first URL of {@code hostKey}'s queue was leased. */
  void taken(String hostKey);

  /** A leased URL went back first in its host's queue (a retry or an untried lease). */
  void returned(Lease lease);

  /** A leased URL is done, having changed the crawl's {@code counts} by these amounts. */
  void completed(Lease lease, java.util.Map<String, Long> counts);

  /**
   * A leased URL is done, having changed {@code counts}, and is due again at {@code dueMillis}
   * (wall-clock) with {@code next}, its next lease.
   */
  void recrawled(Lease next, long dueMillis, java.util.Map<String, Long> counts);

  /** {@link #completed}, or in a recrawl ({@code due} not null) {@link #recrawled}. */
  default void completed(Lease lease, Recrawl.Due due, java.util.Map<String, Long> counts) {
    if (due == null) {
      completed(lease, counts);
    } else {
      recrawled(due.lease(), due.dueMillis(), counts);
    }
  }

  /** A URL due again was queued last on its host ({@code due}, its lease). */
  void due(Lease due);

  /** A leased URL went back for another attempt (its lease), having changed {@code counts}. */
  void retried(Lease lease, java.util.Map<String, Long> counts);

  /** What was logged so far must survive the process dying (it is about to be relied on). */
  void flushed();

  /** The host was skipped: its queue dropped. */
  void skipped(String hostKey);

  /** Logs nothing. */
  FrontierLog NONE = new FrontierLog() {
    @Override
    public void added(Lease lease) {}

    @Override
    public void taken(String hostKey) {}

    @Override
    public void returned(Lease lease) {}

    @Override
    public void completed(Lease lease, java.util.Map<String, Long> counts) {}

    @Override
    public void retried(Lease lease, java.util.Map<String, Long> counts) {}

    @Override
    public void recrawled(Lease next, long dueMillis, java.util.Map<String, Long> counts) {}

    @Override
    public void due(Lease due) {}

    @Override
    public void flushed() {}

    @Override
    public void skipped(String hostKey) {}
  };
}
