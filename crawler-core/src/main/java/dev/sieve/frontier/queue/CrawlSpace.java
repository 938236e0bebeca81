package dev.sieve.frontier.queue;

import dev.sieve.frontier.Sieve;
import dev.sieve.frontier.spill.PendingStore;
import java.io.IOException;
import java.util.Collection;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * One crawl ID's namespace: its queues and its own {@link Sieve}, which remembers every URL ever
 * put in a queue (as {@link WorkQueue#seenKey}). Pending URLs are strings in their queues; a
 * completed URL is only bits in the Sieve. Queues are served round-robin, those that cannot
 * produce set aside until they can ({@link ReadyQueues}). Thread-safe: every method holds this
 * crawl's lock.
 */
public final class CrawlSpace extends CrawlStore {
  final String id;
  final Counters counters = new Counters();
  private final Sieve sieve;
  /** The Sieve's answers, or (benchmark baseline only) an exact set's. */
  private final SeenKeys seen;
  private final Map<String, WorkQueue> queues = new LinkedHashMap<>();
  private final ReadyQueues turns = new ReadyQueues();
  /** The counter of each {@link PutResult}, by ordinal, once it counted. */
  private final LongAdder[] results = new LongAdder[PutResult.values().length];
  private final PendingStore store;
  /** Completed URLs as strings on disk; null when not kept. */
  private final CompletedLog completedLog;
  private final CrawlListing listing;
  private int nextSalt;
  /** Set once DeleteCrawl removed this crawl: puts must go to the crawl created anew. */
  private boolean retired;

  /** A crawl that keeps its pending URLs in memory. */
  CrawlSpace(String id, Sieve sieve) {
    this(id, sieve, 0, SeenKeys.of(sieve), PendingStore.inMemory());
  }

  /**
   * A crawl that asks {@code seen} whether a URL was seen, whose next new queue takes salt {@code
   * nextSalt}, and whose fresh URLs live in {@code store}.
   */
  CrawlSpace(String id, Sieve sieve, int nextSalt, SeenKeys seen, PendingStore store) {
    this(id, sieve, nextSalt, seen, store, null);
  }

  /** As above, keeping its completed URLs in {@code completedLog} (null: not kept). */
  CrawlSpace(String id, Sieve sieve, int nextSalt, SeenKeys seen, PendingStore store,
      CompletedLog completedLog) {
    this.id = id;
    this.sieve = sieve;
    this.nextSalt = nextSalt;
    this.seen = seen;
    this.store = store;
    this.completedLog = completedLog;
    this.listing = new CrawlListing(queues, completedLog, seen);
  }

  /**
   * One crawl in this process, as a crawl runs on it: {@code sieve} its own, its fresh URLs in
   * {@code store}, no completed URLs kept but in the Sieve.
   */
  public static CrawlSpace inProcess(String id, Sieve sieve, PendingStore store) {
    return new CrawlSpace(id, sieve, 0, SeenKeys.of(sieve), store, null);
  }

  @Override
  public String id() {
    return id;
  }

  /** Adds a queue read back from a checkpoint. */
  public synchronized WorkQueue restoreQueue(String key, int salt) {
    WorkQueue queue = new WorkQueue(key, salt, store);
    queues.put(key, queue);
    turns.wake(queue);
    return queue;
  }

  /** What a checkpoint reads of a crawl, under its lock. */
  public interface Reader {
    void read(String id, Sieve sieve, int nextSalt, Collection<WorkQueue> queues)
        throws IOException;
  }

  /** Hands this crawl to {@code reader}, holding its lock meanwhile. */
  public synchronized void read(Reader reader) throws IOException {
    reader.read(id, sieve, nextSalt, queues.values());
  }

  /**
   * Applies one item: a discovered URL is created only if the Sieve never saw it in this queue; a
   * known URL is updated (completed with {@code refetchFrom} 0, else due from then), created if
   * it was not pending.
   *
   * @return what the item did, or null if this crawl was deleted meanwhile (put it again into
   *     the crawl of that ID, created anew, so that an acknowledged URL is never lost)
   */
  @Override
  public synchronized PutResult put(String key, String url, boolean discovered, long refetchFrom,
      byte[] metadata, long queueBudget, long now) {
    if (retired) {
      return null;
    }
    WorkQueue queue = queue(key);
    PutResult result;
    String seenKey = queue.seenKey(url);
    if (discovered) {
      if (!seen.admit(seenKey)) {
        result = PutResult.SEEN;
      } else if ((result = queue.refusal(queueBudget)) == null) {
        queue.addFresh(url, now, metadata, now);
        store.enforceBudget();
        result = PutResult.CREATED;
      }
    } else {
      PendingUrl entry = queue.hotEntry(url);
      if (WorkQueue.leased(entry, now)) {
        queue.released(now);
      }
      // Only a URL the Sieve saw can wait in the fresh part: the others cost no read.
      PendingUrl freshEntry = entry == null && seen.mightHaveSeen(seenKey)
          ? queue.freshEntry(url) : null;
      boolean fresh = freshEntry != null;
      boolean isNew = entry == null && !fresh && seen.admit(seenKey);
      if (refetchFrom == 0) {
        if (entry != null || fresh) {
          queue.complete(url, fresh);
        } else if (isNew) {
          queue.countCompleted();
        }
        if ((entry != null && !entry.completedLogged) || fresh || isNew) {
          logCompleted(queue, url);
        }
        result = PutResult.COMPLETED;
      } else {
        queue.schedule(url, entry, fresh, refetchFrom, metadata,
            fresh ? freshEntry.created : now);
        if (entry == null && !fresh && !isNew) {
          queue.hotEntry(url).completedLogged = true; // completed before: in the log already
        }
        result = PutResult.SCHEDULED;
      }
    }
    if (result.changedQueue()) {
      turns.wake(queue);
    }
    count(result);
    return result;
  }

  private WorkQueue queue(String key) {
    return queues.computeIfAbsent(key, k -> new WorkQueue(k, nextSalt++, store));
  }

  private void count(PutResult result) {
    LongAdder counter = results[result.ordinal()];
    if (counter == null) {
      counter = counters.adder(result.counter());
      results[result.ordinal()] = counter;
    }
    counter.increment();
  }

  /**
   * As {@link #put} each, but a batch of discovered URLs only (PutDiscovered's, or PutURLs' when
   * it holds no known URL) asks the Sieve in one pass ({@link SeenKeys#admitAll}).
   */
  @Override
  public synchronized PutResult[] putAll(List<? extends UrlPut> items, long queueBudget,
      long now) {
    if (retired || !items.stream().allMatch(UrlPut::discovered)) {
      return retired ? new PutResult[items.size()] : super.putAll(items, queueBudget, now);
    }
    List<String> seenKeys = new ArrayList<>(items.size());
    WorkQueue[] into = new WorkQueue[items.size()];
    for (int i = 0; i < into.length; i++) {
      into[i] = queue(items.get(i).key());
      seenKeys.add(into[i].seenKey(items.get(i).url()));
    }
    boolean[] isNew = new boolean[into.length];
    seen.admitAll(seenKeys, isNew);
    PutResult[] out = new PutResult[into.length];
    for (int i = 0; i < into.length; i++) {
      out[i] = isNew[i] ? into[i].refusal(queueBudget) : PutResult.SEEN;
      if (out[i] == null) {
        turns.wake(into[i]);
        into[i].addFresh(items.get(i).url(), now, items.get(i).metadata(), now);
        out[i] = PutResult.CREATED;
      }
      count(out[i]);
    }
    store.enforceBudget();
    return out;
  }

  /**
   * Leases due URLs into {@code out}: from queue {@code key} only, or from every queue in turn,
   * at most {@code maxPerQueue} per queue, from at most {@code maxQueues} queues, at most {@code
   * maxUrls} in all.
   *
   * @return how many queues produced
   */
  @Override
  public synchronized int take(String key, TakeLimits limits, long now, List<QueuedUrl> out) {
    int produced;
    if (key == null) {
      produced = turns.take(limits, now, out);
    } else {
      WorkQueue queue = queues.get(key);
      produced = queue != null && turns.takeFrom(queue, limits, now, out) ? 1 : 0;
    }
    counters.add("get.leased", out.size());
    return produced;
  }

  /** Totals over queue {@code key}, or over every queue when it is null. */
  @Override
  public synchronized QueueStats stats(String key, long now) {
    QueueStats stats = QueueStats.NONE;
    for (WorkQueue queue : key == null ? queues.values() : single(key)) {
      stats = stats.plus(queue, now);
    }
    return stats;
  }

  @Override
  public synchronized long purge(String key, long cutoff) {
    long removed = 0;
    for (WorkQueue queue : key == null ? queues.values() : single(key)) {
      removed += queue.purge(cutoff);
      turns.wake(queue); // its leases may be gone
    }
    return removed;
  }

  /** Removes queue {@code key}; returns how many URLs were pending in it, -1 if there was none. */
  @Override
  public synchronized long deleteQueue(String key) {
    WorkQueue queue = queues.remove(key);
    if (queue == null) {
      return -1;
    }
    turns.remove(queue);
    long pending = queue.size();
    queue.clear();
    return pending;
  }

  @Override
  public synchronized int queueCount() {
    return queues.size();
  }

  @Override
  public synchronized boolean hasQueue(String key) {
    return queues.containsKey(key);
  }

  /** Marks this crawl deleted (see {@link #put}); returns the URLs that were pending in it. */
  public synchronized long retire() {
    retired = true;
    if (completedLog != null) {
      completedLog.delete();
    }
    return pending();
  }

  private void logCompleted(WorkQueue queue, String url) {
    if (completedLog != null) {
      completedLog.append(queue.salt, url);
    }
  }

  /**
   * Forces the completed-URL log to disk, for a checkpoint under this crawl's lock; returns its
   * length (0 when none is kept), which {@link Crawls#restore} opens it back to.
   */
  public long syncCompleted() {
    return completedLog == null ? 0 : completedLog.sync();
  }

  /** The completed-URL log's file name, for a checkpoint; empty when none is kept. */
  public String completedLogName() {
    return completedLog == null ? "" : completedLog.file().getFileName().toString();
  }

  /** Closes the completed-URL log (the service stops). */
  synchronized void closeLog() {
    if (completedLog != null && !retired) {
      completedLog.close();
    }
  }

  /** Bytes of this crawl's spilled pending URLs on disk. */
  synchronized long spilledBytes() {
    return store.diskBytes();
  }

  /** URLs pending in all queues. */
  public synchronized long pending() {
    long total = 0;
    for (WorkQueue queue : queues.values()) {
      total += queue.size();
    }
    return total;
  }

  /** Applies {@code change} to queue {@code key}; false if there is no such queue. */
  private synchronized boolean withQueue(String key, Consumer<WorkQueue> change) {
    WorkQueue queue = queues.get(key);
    if (queue != null) {
      change.accept(queue);
      turns.wake(queue);
    }
    return queue != null;
  }

  /** The state of {@code url} in queue {@code key}: see {@link CrawlListing#status}. */
  @Override
  public synchronized Optional<QueuedUrl> status(String key, String url) {
    return listing.status(key, url);
  }

  /** Queue keys in key order: all, or only those not blocked and with URLs pending. */
  @Override
  public synchronized List<String> queueKeys(boolean includeInactive, long now) {
    return listing.keys(includeInactive, now);
  }

  /** Pending URLs of queue {@code key} (all when null): see {@link CrawlListing#pending}. */
  synchronized List<QueuedUrl> list(String key, Predicate<String> filter, long start, long size) {
    return listing.pending(key, filter, start, size);
  }

  @Override
  public List<QueuedUrl> list(String key, String filter, boolean ignoreCase, long start,
      long size) {
    return list(key, urlFilter(filter, ignoreCase), start, size);
  }

  /** Completed URLs first, then pending ones: see {@link CrawlListing}. */
  @Override
  public synchronized List<QueuedUrl> listNext(ListCursor cursor, int max, long maxBytes) {
    if (retired) {
      cursor.done = true;
      return List.of();
    }
    return listing.next(cursor, max, maxBytes);
  }

  /** Completed and pending URLs, as {@link #listNext} lists them. */
  @Override
  public synchronized long count(String key, String filter, boolean ignoreCase) {
    return retired ? 0 : listing.count(new ListCursor(key, filter, ignoreCase, 0));
  }

  @Override
  public boolean control(String key, byte op, long value) {
    if (op == DELETE_QUEUE) {
      return deleteQueue(key) >= 0;
    }
    if (op == PURGE) {
      purge(key.isEmpty() ? null : key, value);
      return true;
    }
    return withQueue(key, queue -> {
      switch (op) {
        case BLOCK -> queue.blockUntil(value);
        case DELAY -> queue.delay(value);
        case SKIP -> {
          queue.skip();
          counters.add(SKIPPED_DROPPED, queue.dropWaiting());
        }
        default -> queue.crawlLimit(value);
      }
    });
  }

  @Override
  public Map<String, Long> counters() {
    return counters.snapshot("");
  }

  /** The Sieve's estimate of URLs it saw, its estimated and target rates, bits and layers. */
  @Override
  public Map<String, Long> filterStats() {
    return filterStats(sieve.approximateSeen(), sieve.expectedFpp(), sieve.targetFpp(),
        sieve.filterBits(), sieve.filterLayers());
  }

  /** This crawl's totals, filter estimate and counters, for monitoring. */
  @Override
  public CrawlSnapshot snapshot(long now) {
    QueueStats totals = stats(null, now);
    return new CrawlSnapshot(id, totals.size(), totals.inFlight(), totals.queues(),
        totals.activeQueues(), totals.completed(), sieve.approximateSeen(), sieve.expectedFpp(),
        counters.snapshot(""));
  }

  private List<WorkQueue> single(String key) {
    WorkQueue queue = queues.get(key);
    return queue == null ? List.of() : List.of(queue);
  }
}
