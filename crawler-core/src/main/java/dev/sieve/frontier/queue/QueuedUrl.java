package dev.sieve.frontier.queue;

/**
 * A URL as the service answers about it, taken out of its crawl's lock: its queue key, the URL, its
 * refetch date in epoch milliseconds (0 for completed, never to be fetched again), its metadata as
 * kept by {@link PendingUrl#metadata} (null for none), and the epoch millisecond it was first stored
 * (0 when not known, as for a completed URL only the Sieve remembers).
 */
public record QueuedUrl(String key, String url, long refetchFrom, byte[] metadata, long created) {
  static QueuedUrl of(String key, PendingUrl entry) {
    return new QueuedUrl(key, entry.url, entry.due, entry.metadata, entry.created);
  }
}
