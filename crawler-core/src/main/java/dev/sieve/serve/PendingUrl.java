package dev.sieve.serve;

/**
 * One URL waiting in a queue: its string, when it is due, the lease it is under, and the client's
 * metadata. Mutable, guarded by its crawl's lock; its {@link PendingBucket} (that of its due
 * second, or of its lease's expiry while leased) must drop it before {@link #due} or {@link
 * #heldUntil} change.
 */
final class PendingUrl {
  final String url;
  /** Epoch second from which it may be handed out. */
  long due;
  /** Epoch second its lease ends; 0 while not leased. */
  long heldUntil;
  /** The client's metadata as a serialized {@code URLInfo} holding only it; null when none. */
  byte[] metadata;
  /** Where it is in its {@link PendingBucket}. */
  int slot;

  PendingUrl(String url, long due, byte[] metadata) {
    this.url = url;
    this.due = due;
    this.metadata = metadata;
  }
}
