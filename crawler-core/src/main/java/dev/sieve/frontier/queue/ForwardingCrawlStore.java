package dev.sieve.frontier.queue;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A {@link CrawlStore} that hands every call to another, for a store that changes a few calls of
 * one it wraps (e.g. journals the ones that change the crawl): it overrides those and inherits the
 * rest. Thread-safe as the store it wraps.
 */
public abstract class ForwardingCrawlStore extends CrawlStore {
  private final CrawlStore delegate;

  protected ForwardingCrawlStore(CrawlStore delegate) {
    this.delegate = delegate;
  }

  /** The store every call goes to. */
  protected final CrawlStore delegate() {
    return delegate;
  }

  @Override
  public String id() {
    return delegate.id();
  }

  @Override
  public PutResult put(String key, String url, boolean discovered, long refetchFrom,
      byte[] metadata, long queueBudget, long now) {
    return delegate.put(key, url, discovered, refetchFrom, metadata, queueBudget, now);
  }

  @Override
  public PutResult[] putAll(List<? extends UrlPut> items, long queueBudget, long now) {
    return delegate.putAll(items, queueBudget, now);
  }

  @Override
  public int take(String key, TakeLimits limits, long now, List<QueuedUrl> out) {
    return delegate.take(key, limits, now, out);
  }

  @Override
  public QueueStats stats(String key, long now) {
    return delegate.stats(key, now);
  }

  @Override
  public long deleteQueue(String key) {
    return delegate.deleteQueue(key);
  }

  @Override
  public int queueCount() {
    return delegate.queueCount();
  }

  @Override
  public boolean hasQueue(String key) {
    return delegate.hasQueue(key);
  }

  @Override
  public boolean metQueue(String key) {
    return delegate.metQueue(key);
  }

  @Override
  public long purge(String key, long cutoff) {
    return delegate.purge(key, cutoff);
  }

  @Override
  public boolean control(String key, byte op, long value) {
    return delegate.control(key, op, value);
  }

  @Override
  public Optional<QueuedUrl> status(String key, String url) {
    return delegate.status(key, url);
  }

  @Override
  public List<String> queueKeys(boolean includeInactive, long now) {
    return delegate.queueKeys(includeInactive, now);
  }

  @Override
  public List<QueuedUrl> list(String key, String filter, boolean ignoreCase, long start,
      long size) {
    return delegate.list(key, filter, ignoreCase, start, size);
  }

  @Override
  public List<QueuedUrl> listNext(ListCursor cursor, int max, long maxBytes) {
    return delegate.listNext(cursor, max, maxBytes);
  }

  @Override
  public long count(String key, String filter, boolean ignoreCase) {
    return delegate.count(key, filter, ignoreCase);
  }

  @Override
  public Map<String, Long> filterStats() {
    return delegate.filterStats();
  }

  @Override
  public Map<String, Long> counters() {
    return delegate.counters();
  }

  @Override
  public CrawlSnapshot snapshot(long now) {
    return delegate.snapshot(now);
  }
}
