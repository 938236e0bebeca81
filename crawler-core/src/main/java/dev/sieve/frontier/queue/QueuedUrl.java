package dev.sieve.frontier.queue;

/**
 * A URL as the service answers about it, taken out of its crawl's lock: its queue key, the URL, its
 * refetch date in epoch seconds (0 for completed, never to be fetched again), and its metadata as
 * kept by {@link PendingUrl#metadata} (null for none).
 */
public record QueuedUrl(String key, String url, long refetchFrom, byte[] metadata) {
  static QueuedUrl of(String key, PendingUrl entry) {
    return new QueuedUrl(key, entry.url, entry.due, entry.metadata);
  }
}
