package dev.sieve.frontier.redis;

import dev.sieve.frontier.queue.CrawlStore;
import dev.sieve.frontier.queue.ForwardingCrawlStore;
import dev.sieve.frontier.queue.PutResult;
import dev.sieve.frontier.queue.QueueStats;
import dev.sieve.frontier.queue.QueuedUrl;
import dev.sieve.frontier.queue.TakeLimits;
import dev.sieve.frontier.queue.UrlPut;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * One crawl in Redis as a crawl process uses it: each call a crawl makes (puts, takes, controls,
 * totals, counters) rides out an outage of Redis ({@link RedisOutage}) for up to the lease
 * duration, where {@code serve} answers UNAVAILABLE at once; past that, or for any other failure,
 * the call throws an {@link java.io.UncheckedIOException} naming Redis. Closing it closes the
 * store it came from. Thread-safe.
 */
public final class PatientCrawlStore extends ForwardingCrawlStore implements AutoCloseable {
  private final RedisStore store;
  private final RedisOutage outage;
  private final BooleanSupplier abandon;

  PatientCrawlStore(RedisStore store, CrawlStore crawl, String where, Duration patience,
      BooleanSupplier abandon) {
    super(crawl);
    this.store = store;
    this.outage = RedisOutage.of(where, patience);
    this.abandon = abandon;
  }

  private <T> T patiently(Supplier<T> call) {
    return outage.call(call, abandon);
  }

  @Override
  public PutResult put(String key, String url, boolean discovered, long refetchFrom,
      byte[] metadata, long queueBudget, long now) {
    return patiently(() -> super.put(key, url, discovered, refetchFrom, metadata, queueBudget,
        now));
  }

  @Override
  public PutResult[] putAll(List<? extends UrlPut> items, long queueBudget, long now) {
    return patiently(() -> super.putAll(items, queueBudget, now));
  }

  @Override
  public int take(String key, TakeLimits limits, long now, List<QueuedUrl> out) {
    return patiently(() -> {
      int before = out.size();
      try {
        return super.take(key, limits, now, out);
      } catch (RuntimeException e) {
        out.subList(before, out.size()).clear(); // a failed call's partial answer is not kept
        throw e;
      }
    });
  }

  @Override
  public QueueStats stats(String key, long now) {
    return patiently(() -> super.stats(key, now));
  }

  @Override
  public boolean control(String key, byte op, long value) {
    return patiently(() -> super.control(key, op, value));
  }

  @Override
  public Map<String, Long> counters() {
    return patiently(super::counters);
  }

  @Override
  public Map<String, Long> filterStats() {
    return patiently(super::filterStats);
  }

  /** Outages ridden out or under way so far. */
  public long outages() {
    return outage.outages();
  }

  @Override
  public void close() {
    store.close();
  }
}
