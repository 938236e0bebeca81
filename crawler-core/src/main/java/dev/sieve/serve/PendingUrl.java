package dev.sieve.serve;

import java.util.Comparator;

/**
 * One URL waiting in a queue: its string, when it is due, the lease it is under, and the client's
 * metadata. Mutable, guarded by its crawl's lock; the sets ordered by {@link #BY_DUE} and {@link
 * #BY_LEASE} must drop it before {@link #due} or {@link #heldUntil} change.
 */
final class PendingUrl {
  /** Due first, then by URL, as the reference service orders a queue. */
  static final Comparator<PendingUrl> BY_DUE =
      Comparator.<PendingUrl>comparingLong(p -> p.due).thenComparing(p -> p.url);
  /** Earliest lease expiry first. */
  static final Comparator<PendingUrl> BY_LEASE =
      Comparator.<PendingUrl>comparingLong(p -> p.heldUntil).thenComparing(p -> p.url);

  final String url;
  /** Epoch second from which it may be handed out. */
  long due;
  /** Epoch second its lease ends; 0 while not leased. */
  long heldUntil;
  /** The client's metadata as a serialized {@code URLInfo} holding only it; null when none. */
  byte[] metadata;

  PendingUrl(String url, long due, byte[] metadata) {
    this.url = url;
    this.due = due;
    this.metadata = metadata;
  }
}
