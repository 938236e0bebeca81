package dev.sieve.frontier.queue;

import dev.sieve.frontier.FrontierTime;
import dev.sieve.frontier.spill.PendingStore;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Predicate;

/**
 * One queue of a crawl, named by its key: its pending URLs, how many of its URLs were completed,
 * and the client's controls (block, delay, crawl limit). Its {@link #salt} is unique within the
 * crawl's life, so that a queue deleted and created again starts with no URL seen.
 *
 * <p>A discovered URL goes to the queue's <em>fresh</em> part ({@link FreshUrls}: a few bytes per
 * URL in its crawl's {@link PendingStore}, spilled beyond the store's budget). GetURLs moves fresh
 * URLs into the <em>hot</em> part ({@link PendingUrls}: objects by due time and by lease expiry)
 * as it leases them; a known URL with a refetch date goes there directly. A URL updated while it
 * is still fresh is found by reading the fresh part, and its fresh copy is superseded. Not
 * thread-safe: guarded by the crawl's lock.
 */
public final class WorkQueue implements IndexedHeap.Slotted {
  /** The delay value meaning "the service's default". */
  static final long DEFAULT_DELAY = -1;

  /** Queues asleep by the time they wake ({@link ReadyQueues}). */
  static final Comparator<WorkQueue> BY_WAKE = Comparator.comparingLong(queue -> queue.wakeAt);

  final String key;
  final int salt;
  private final PendingStore store;
  /** Null while nothing is hot, so a drained queue costs a few fields. */
  private PendingUrls hot;
  /** Null while nothing is fresh. */
  private FreshUrls fresh;
  private long completed;
  private long blockedUntil;
  /** Milliseconds between two productions, or {@link #DEFAULT_DELAY}. */
  private long delayMillis = DEFAULT_DELAY;
  private long lastProduced;
  /** The epoch millisecond a lease of it was last given back (a known put of a leased URL). */
  private long lastReleased;
  private long crawlLimit;
  /** Set for good by {@link CrawlStore#SKIP}: discovered URLs are refused. */
  private boolean skipped;
  /** While asleep in {@link ReadyQueues}: the epoch millisecond it wakes, and its heap slot. */
  long wakeAt;
  private int heapSlot = -1;
  /** While awake in {@link ReadyQueues}: its neighbours in the turns. */
  boolean awake;
  WorkQueue prevTurn;
  WorkQueue nextTurn;

  /** A queue read back from a checkpoint, or new in its crawl with that salt. */
  WorkQueue(String key, int salt, PendingStore store) {
    this.key = key;
    this.salt = salt;
    this.store = store;
  }

  /** The string the crawl's Sieve remembers for {@code url} in this queue. */
  String seenKey(String url) {
    return salt + " " + url;
  }

  public String key() {
    return key;
  }

  public int salt() {
    return salt;
  }

  /** The hot entry of {@code url}, or null. */
  PendingUrl hotEntry(String url) {
    return hot == null ? null : hot.get(url);
  }

  /** {@code url} as it waits in the fresh part (read back if spilled), or null if not there. */
  PendingUrl freshEntry(String url) {
    return fresh == null ? null : fresh.find(url);
  }

  /** Adds a URL that is not pending, due at {@code due}, first stored at {@code created}. */
  void addFresh(String url, long due, byte[] metadata, long created) {
    if (fresh == null) {
      fresh = new FreshUrls(store, salt + " " + key);
    }
    fresh.add(url, due, metadata, created);
  }

  /** Adds a pending URL read back from a checkpoint. */
  public void restorePending(String url, long due, byte[] metadata, long created) {
    addFresh(url, due, metadata, created);
  }

  /**
   * Removes pending {@code url}, counting it completed; {@code wasFresh} says it was found in the
   * fresh part rather than the hot one.
   */
  void complete(String url, boolean wasFresh) {
    if (wasFresh) {
      fresh.supersede(url);
    } else if (hot != null && hot.remove(url) && hot.isEmpty()) {
      hot = null;
    }
    completed++;
  }

  /**
   * Makes {@code url} due at {@code due} with {@code metadata}, any lease ended: {@code entry} is
   * its hot entry, or null (then {@code wasFresh} says whether a fresh copy is to be dropped, and
   * {@code created} is the new hot entry's creation date).
   */
  void schedule(String url, PendingUrl entry, boolean wasFresh, long due, byte[] metadata,
      long created) {
    if (entry != null) {
      hot.reschedule(entry, due, metadata);
      return;
    }
    if (wasFresh) {
      fresh.supersede(url);
    }
    hot().add(new PendingUrl(url, due, metadata, created));
  }

  /**
   * Drops the pending URLs first stored before the epoch millisecond {@code cutoff}, leased or not;
   * returns how many. The crawl's Sieve still remembers them.
   */
  long purge(long cutoff) {
    return drop(url -> url.created < cutoff, true);
  }

  /**
   * Drops the pending URLs {@code which} selects, the leased ones too if {@code leased} (fresh ones
   * are never leased); returns how many.
   */
  private long drop(Predicate<PendingUrl> which, boolean leased) {
    long removed = 0;
    if (hot != null) {
      List<PendingUrl> gone = new ArrayList<>();
      for (PendingUrl url : hot.waitingInOrder()) {
        if (which.test(url)) {
          gone.add(url);
        }
      }
      for (PendingUrl url : leased ? hot.leasedInOrder() : List.<PendingUrl>of()) {
        if (which.test(url)) {
          gone.add(url);
        }
      }
      gone.forEach(url -> hot.remove(url.url));
      removed += gone.size();
      if (hot.isEmpty()) {
        hot = null;
      }
    }
    if (fresh != null) {
      List<String> gone = new ArrayList<>();
      fresh.forEach(url -> {
        if (which.test(url)) {
          gone.add(url.url);
        }
      });
      gone.forEach(fresh::supersede);
      removed += gone.size();
    }
    return removed;
  }

  /** When the delay counts from: the last production, or the later of it and the last release. */
  private long spacedFrom(boolean fromRelease) {
    return fromRelease ? Math.max(lastProduced, lastReleased) : lastProduced;
  }

  /** Whether {@code entry} (a hot entry of this queue) is leased now. */
  static boolean leased(PendingUrl entry, long now) {
    return entry != null && entry.heldUntil > now;
  }

  /** A lease of it was given back at {@code now}. */
  void released(long now) {
    lastReleased = Math.max(lastReleased, now);
  }

  /** Drops the URLs waiting, fresh or hot, not those leased; returns how many. */
  long dropWaiting() {
    return drop(url -> true, false);
  }

  private PendingUrls hot() {
    if (hot == null) {
      hot = new PendingUrls();
    }
    return hot;
  }

  /** Counts a URL completed that was not pending here. */
  void countCompleted() {
    completed++;
  }

  long size() {
    return (hot == null ? 0 : hot.size()) + (fresh == null ? 0 : fresh.size());
  }

  public long completed() {
    return completed;
  }

  /** URLs leased and not expired at {@code now}. */
  int inFlight(long now) {
    if (hot == null) {
      return 0;
    }
    hot.releaseExpired(now);
    return hot.inFlight();
  }

  /** Pending URLs in order: the waiting ones by due time, then the leased ones; empty when none. */
  List<PendingUrl> list() {
    List<PendingUrl> waiting = new ArrayList<>(hot == null ? List.of() : hot.waitingInOrder());
    if (fresh != null) {
      fresh.forEach(waiting::add);
      waiting.sort(PendingUrl.BY_DUE);
    }
    if (hot != null) {
      waiting.addAll(hot.leasedInOrder());
    }
    return waiting;
  }

  /**
   * Walks the pending URLs that {@code filter} matches in listing order (the waiting ones by due
   * time, ties in the order they came, then the leased ones), handing {@code sink} those from the
   * {@code from}-th on until it says stop; holds no more than references to the hot ones.
   *
   * @return how many matching URLs were passed, the one that said stop included
   */
  long walk(Predicate<String> filter, long from, Predicate<PendingUrl> sink) {
    List<PendingUrl> waiting = hot == null ? List.of() : hot.waitingInOrder();
    Walk walk = new Walk(filter, from, sink);
    int[] next = {0};
    if (fresh != null) {
      fresh.forEachWhile(url -> {
        while (next[0] < waiting.size() && waiting.get(next[0]).due <= url.due) {
          walk.offer(waiting.get(next[0]++));
        }
        walk.offer(url);
        return !walk.stopped;
      });
    }
    while (next[0] < waiting.size()) {
      walk.offer(waiting.get(next[0]++));
    }
    if (hot != null) {
      for (PendingUrl url : hot.leasedInOrder()) {
        walk.offer(url);
      }
    }
    return walk.matched;
  }

  /** A walk's progress: matching URLs passed, and whether its sink said stop. */
  private static final class Walk {
    private final Predicate<String> filter;
    private final long from;
    private final Predicate<PendingUrl> sink;
    long matched;
    boolean stopped;

    Walk(Predicate<String> filter, long from, Predicate<PendingUrl> sink) {
      this.filter = filter;
      this.from = from;
      this.sink = sink;
    }

    void offer(PendingUrl url) {
      if (stopped || !filter.test(url.url)) {
        return;
      }
      if (++matched > from) {
        stopped = !sink.test(url);
      }
    }
  }

  /** Pending URLs in order, as the service answers about them; empty when none. */
  public List<QueuedUrl> pendingUrls() {
    return list().stream().map(url -> QueuedUrl.of(key, url)).toList();
  }

  /**
   * Leases up to {@code maxPerQueue} due URLs if the queue may produce at {@code now}: not blocked,
   * under its crawl limit, its delay since the last production passed, and fewer than {@code
   * maxPerQueue} URLs in flight (the reference service's reading of max_urls_per_queue).
   */
  List<PendingUrl> take(long now, int maxPerQueue, long leaseUntil, long defaultDelay,
      boolean fromRelease) {
    if (size() == 0 || now < blockedUntil || (crawlLimit > 0 && completed >= crawlLimit)) {
      return List.of();
    }
    long delay = delayMillis == DEFAULT_DELAY ? defaultDelay : delayMillis;
    long since = spacedFrom(fromRelease);
    if (since != 0 && now - since < delay) {
      return List.of();
    }
    if (hot != null) {
      hot.releaseExpired(now);
      if (hot.inFlight() >= maxPerQueue) {
        return List.of();
      }
    }
    stage(maxPerQueue, now);
    if (hot == null) {
      return List.of();
    }
    List<PendingUrl> taken = hot.lease(now, maxPerQueue, leaseUntil);
    if (!taken.isEmpty()) {
      lastProduced = now;
    }
    return taken;
  }

  /**
   * The earliest epoch millisecond at which {@link #take} with these arguments might produce, as
   * the queue stands after a take at {@code now} produced nothing: its block's end, its delay
   * since it last produced, the first expiry of its {@code maxPerQueue} leases or more, the due
   * time of its first URL (known once nothing is fresh: the take staged them all). {@link
   * Long#MAX_VALUE} while only a change (a put, a control) can make it produce: nothing pending,
   * or its crawl limit met. Never later than the truth; at most {@code now} when unsure.
   */
  long readyAt(long now, int maxPerQueue, long defaultDelay, boolean fromRelease) {
    if (size() == 0 || (crawlLimit > 0 && completed >= crawlLimit)) {
      return Long.MAX_VALUE;
    }
    long at = blockedUntil;
    long delay = delayMillis == DEFAULT_DELAY ? defaultDelay : delayMillis;
    long since = spacedFrom(fromRelease);
    if (since != 0) {
      at = Math.max(at, FrontierTime.plus(since, delay));
    }
    if (hot != null) {
      hot.releaseExpired(now);
      if (hot.inFlight() >= maxPerQueue) {
        at = Math.max(at, hot.firstLeaseExpiry());
      } else if (fresh == null) {
        at = Math.max(at, Math.min(hot.firstWaitingDue(), hot.firstLeaseExpiry()));
      }
    }
    return at;
  }

  @Override
  public int heapSlot() {
    return heapSlot;
  }

  @Override
  public void heapSlot(int slot) {
    heapSlot = slot;
  }

  /**
   * Moves fresh URLs into the hot part until {@code want} wait there, the first of them due at
   * {@code now}, and every fresh URL due at the same instant as the last one moved, so that the hot
   * part orders them by URL as the reference service does; superseded copies are dropped on the
   * way.
   */
  private void stage(int want, long now) {
    long lastDue = Long.MIN_VALUE;
    while (fresh != null) {
      PendingUrl url = fresh.pollFirst();
      if (url == null) {
        fresh.release();
        fresh = null;
        break;
      }
      if (hot != null && hot.waiting() >= want && hot.firstWaitingDue() <= now
          && url.due > lastDue) {
        fresh.putBack();
        break;
      }
      hot().add(url);
      lastDue = url.due;
    }
  }

  /** Drops every pending URL (the queue is deleted). */
  void clear() {
    if (fresh != null) {
      fresh.release();
      fresh = null;
    }
    hot = null;
  }

  public long blockedUntil() {
    return blockedUntil;
  }

  /** Milliseconds between two productions, or -1 for the service's default. */
  public long delayMillis() {
    return delayMillis;
  }

  public long crawlLimit() {
    return crawlLimit;
  }

  /** Sets the completed count read back from a checkpoint. */
  public void restoreCompleted(long count) {
    completed = count;
  }

  /** True while blocked at {@code now}. */
  boolean blocked(long now) {
    return now < blockedUntil;
  }

  /** Blocks until the epoch millisecond {@code until}; 0 unblocks. */
  public void blockUntil(long until) {
    blockedUntil = until;
  }

  /** At least {@code millis} between two productions; -1 for the service's default. */
  public void delay(long millis) {
    delayMillis = millis;
  }

  /** At most {@code limit} completed URLs before the queue stops producing; 0 for no limit. */
  public void crawlLimit(long limit) {
    crawlLimit = limit;
  }

  /** Whether {@link CrawlStore#SKIP} skipped it: its discovered URLs are refused. */
  public boolean skipped() {
    return skipped;
  }

  /** Marks it skipped for good (see {@link CrawlStore#SKIP}); its pending URLs are dropped apart. */
  public void skip() {
    skipped = true;
  }

  /**
   * Whether a new discovered URL is refused, and why: {@link PutResult#SKIPPED}, {@link
   * PutResult#OVER_BUDGET} when it holds {@code budget} URLs (pending and completed; 0: none), else
   * null.
   */
  PutResult refusal(long budget) {
    if (skipped) {
      return PutResult.SKIPPED;
    }
    return budget > 0 && size() + completed >= budget ? PutResult.OVER_BUDGET : null;
  }
}
