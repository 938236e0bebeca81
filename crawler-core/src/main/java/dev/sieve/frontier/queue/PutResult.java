package dev.sieve.frontier.queue;

/** What one PutURLs item did to a crawl. */
public enum PutResult {
  /** A discovered URL never seen: now pending. */
  CREATED,
  /** A discovered URL the Sieve says was seen (or, with probability ε, wrongly): dropped. */
  SEEN,
  /** A known URL with a refetch date: pending from that date, any lease ended. */
  SCHEDULED,
  /** A known URL without a refetch date: no longer pending, never handed out again. */
  COMPLETED;

  /** The counter this result adds to. */
  public String counter() {
    return switch (this) {
      case CREATED -> "put.discovered.created";
      case SEEN -> "put.discovered.seen";
      case SCHEDULED -> "put.known.scheduled";
      case COMPLETED -> "put.known.completed";
    };
  }
}
