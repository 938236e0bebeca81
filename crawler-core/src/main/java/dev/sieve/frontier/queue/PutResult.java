package dev.sieve.frontier.queue;

/** What one put (a PutURLs item, a crawl's link) did to a crawl. */
public enum PutResult {
  /** A discovered URL never seen: now pending. */
  CREATED,
  /** A discovered URL the Sieve says was seen (or, with probability ε, wrongly): dropped. */
  SEEN,
  /** A known URL with a refetch date: pending from that date, any lease ended. */
  SCHEDULED,
  /** A known URL without a refetch date: no longer pending, never handed out again. */
  COMPLETED,
  /**
   * A discovered URL never seen, refused: its queue already holds the put's budget of URLs
   * (pending, leased and completed). The Sieve remembers it, so it is refused once.
   */
  OVER_BUDGET,
  /** A discovered URL never seen, refused: its queue was skipped ({@link CrawlStore#SKIP}). */
  SKIPPED;

  /**
   * Whether the put changed a queue (created, scheduled or completed the URL); false when it was
   * seen or refused, which a client's ack calls SKIPPED.
   */
  public boolean changedQueue() {
    return this == CREATED || this == SCHEDULED || this == COMPLETED;
  }

  /** The counter this result adds to. */
  public String counter() {
    return switch (this) {
      case CREATED -> "put.discovered.created";
      case SEEN -> "put.discovered.seen";
      case SCHEDULED -> "put.known.scheduled";
      case COMPLETED -> "put.known.completed";
      case OVER_BUDGET -> "put.discovered.over_budget";
      case SKIPPED -> "put.discovered.skipped";
    };
  }
}
