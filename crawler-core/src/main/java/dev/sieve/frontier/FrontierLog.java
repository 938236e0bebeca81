package dev.sieve.frontier;

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

  /** A leased URL is done. */
  void completed(Lease lease);

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
    public void completed(Lease lease) {}

    @Override
    public void skipped(String hostKey) {}
  };
}
