package dev.sieve.frontier.durable;

import dev.sieve.frontier.queue.CrawlSpace;
import dev.sieve.frontier.queue.ForwardingCrawlStore;
import dev.sieve.frontier.queue.PutResult;
import dev.sieve.frontier.queue.UrlPut;
import java.util.List;

/**
 * One crawl of a {@link DurableStore}: each call that changes the crawl is applied and journaled
 * as one step ({@link DurableState#apply}), so the journal replays to the state the calls left;
 * leases ({@link #take}) are not journaled (after a restart a leased URL is pending again). Every
 * other call reads the crawl as it is. Thread-safe.
 */
final class DurableCrawl extends ForwardingCrawlStore {
  private final DurableState state;

  DurableCrawl(CrawlSpace crawl, DurableState state) {
    super(crawl);
    this.state = state;
  }

  /**
   * Puts {@code url}, journaled unless it changed no queue (seen, refused, or the crawl was
   * deleted): a refused URL is only bits in the Sieve, which the next checkpoint keeps (a crash
   * before it forgets them: refused again when found again).
   */
  @Override
  public PutResult put(String key, String url, boolean discovered, long refetchFrom,
      byte[] metadata, long queueBudget, long now) {
    return state.apply(journal -> {
      PutResult result = delegate().put(key, url, discovered, refetchFrom, metadata, queueBudget,
          now);
      if (changedQueue(result)) {
        journal.accept(Change.put(id(), key, url, discovered, refetchFrom, metadata, now));
      }
      return result;
    });
  }

  /**
   * As {@link #put} each, in one step: replayed one record at a time, a batch must have been
   * applied one item at a time too, so this store does not take the in-memory batch's one Sieve
   * pass.
   */
  @Override
  public PutResult[] putAll(List<? extends UrlPut> items, long queueBudget, long now) {
    return state.apply(journal -> {
      PutResult[] results = new PutResult[items.size()];
      for (int i = 0; i < results.length; i++) {
        UrlPut item = items.get(i);
        results[i] = delegate().put(item.key(), item.url(), item.discovered(),
            item.refetchFrom(), item.metadata(), queueBudget, now);
        if (changedQueue(results[i])) {
          journal.accept(Change.put(id(), item.key(), item.url(), item.discovered(),
              item.refetchFrom(), item.metadata(), now));
        }
      }
      return results;
    });
  }

  private static boolean changedQueue(PutResult result) {
    return result != null && result.changedQueue();
  }

  @Override
  public long deleteQueue(String key) {
    return state.apply(journal -> {
      long removed = delegate().deleteQueue(key);
      if (removed >= 0) {
        journal.accept(Change.queue(id(), key, DELETE_QUEUE, 0));
      }
      return removed;
    });
  }

  /** Purges, journaled as a {@link #PURGE} control (an empty key: every queue) when any went. */
  @Override
  public long purge(String key, long cutoff) {
    return state.apply(journal -> {
      long removed = delegate().purge(key, cutoff);
      if (removed != 0) {
        journal.accept(Change.queue(id(), key == null ? "" : key, PURGE, cutoff));
      }
      return removed;
    });
  }

  @Override
  public boolean control(String key, byte op, long value) {
    return state.apply(journal -> {
      boolean found = delegate().control(key, op, value);
      if (found) {
        journal.accept(Change.queue(id(), key, op, value));
      }
      return found;
    });
  }
}
