package dev.sieve.frontier.queue;

/**
 * One URL offered to a crawl, as {@link CrawlStore#put} takes it: its queue key, URL, kind
 * (discovered or known), refetch date (epoch milliseconds; 0 for none) and metadata (or null). The
 * gRPC layer's items implement it, so a batch reaches a store without being copied.
 */
public interface UrlPut {
  String key();

  String url();

  boolean discovered();

  long refetchFrom();

  byte[] metadata();
}
