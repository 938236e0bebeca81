package dev.sieve.frontier.queue;

import dev.sieve.frontier.FrontierTime;
import java.util.ArrayList;
import java.util.List;

/**
 * The turns of one crawl's queues: which queue GetURLs (or a crawl's take) asks next. A queue is
 * in one of three places:
 *
 * <ul>
 *   <li><b>awake</b>: it might produce now; asked in turn, round-robin (a queue that produced goes
 *       to the back);
 *   <li><b>asleep</b> until an epoch millisecond before which it cannot produce ({@link
 *       WorkQueue#readyAt}: its block, its delay since it last produced, its leases' expiry, its
 *       URLs' due times), in a heap by that time;
 *   <li><b>idle</b>: it cannot produce until it changes (nothing pending, or its crawl limit met).
 * </ul>
 *
 * <p>A take asks the awake queues only, and a queue that cannot produce is put to sleep (or idle)
 * as it is asked, so a take costs O(log q) for each queue it asks that produced or fell asleep,
 * not a visit of every queue. Whatever may make a queue produce sooner wakes it: a put into it, a
 * control ({@link #wake}); a take with a larger max_urls_per_queue or a shorter default delay than
 * the queues asleep were judged by, or one counting the delay from productions only where they
 * were judged counting it from releases too ({@link TakeLimits#fromRelease}), wakes them all,
 * since their times assumed those.
 *
 * <p>The awake queues are a list threaded through the queues themselves ({@link
 * WorkQueue#nextTurn}), so a queue costs two references and a heap slot here, nothing while idle.
 * Not thread-safe: guarded by the crawl's lock.
 */
final class ReadyQueues {
  /** The first and last awake queue; null when none is. */
  private WorkQueue first;
  private WorkQueue last;
  private final IndexedHeap<WorkQueue> asleep = new IndexedHeap<>(WorkQueue.BY_WAKE);
  /** The least max_urls_per_queue and the longest default delay the queues asleep assumed. */
  private int sleptAtMaxPerQueue = Integer.MAX_VALUE;
  private long sleptAtDefaultDelay = 0;
  /** Whether a queue asleep was judged by its delay from its last release. */
  private boolean sleptFromRelease;

  /** Wakes {@code queue}, new or changed: it goes to the back unless it was awake already. */
  void wake(WorkQueue queue) {
    if (!queue.awake) {
      asleep.remove(queue);
      append(queue);
    }
  }

  /** Forgets {@code queue} (deleted). */
  void remove(WorkQueue queue) {
    asleep.remove(queue);
    unlink(queue);
  }

  /**
   * Leases due URLs into {@code out} from the queues in turn, within {@code limits}, as {@link
   * WorkQueue#take} each; returns how many queues produced.
   */
  int take(TakeLimits limits, long now, List<QueuedUrl> out) {
    long defaultDelay = limits.defaultDelayMillis();
    wakeDue(now, limits.maxPerQueue(), defaultDelay, limits.fromRelease());
    long leaseUntil = FrontierTime.plus(now, limits.leaseMillis());
    List<WorkQueue> produced = new ArrayList<>();
    for (WorkQueue queue = first, next; queue != null; queue = next) {
      if (produced.size() >= limits.maxQueues() || out.size() >= limits.maxUrls()) {
        break;
      }
      next = queue.nextTurn;
      if (lease(queue, limits, now, leaseUntil, out)) {
        produced.add(queue);
        continue;
      }
      // Judged by the per-queue limit itself, not by what is left of this take's URLs: a queue
      // that met the latter can produce in the next take.
      long readyAt = queue.readyAt(now, limits.maxPerQueue(), defaultDelay,
          limits.fromRelease());
      if (readyAt > now) {
        unlink(queue);
        if (readyAt != Long.MAX_VALUE) {
          sleep(queue, readyAt, now, limits.maxPerQueue(), defaultDelay, limits.fromRelease());
        }
      }
    }
    for (WorkQueue queue : produced) {
      served(queue);
    }
    return produced.size();
  }

  /**
   * Leases due URLs of {@code queue} alone into {@code out}, within {@code limits}; returns
   * whether it produced (it then goes to the back of the turns, if awake).
   */
  boolean takeFrom(WorkQueue queue, TakeLimits limits, long now, List<QueuedUrl> out) {
    if (limits.maxQueues() <= 0 || out.size() >= limits.maxUrls()
        || !lease(queue, limits, now, FrontierTime.plus(now, limits.leaseMillis()), out)) {
      return false;
    }
    served(queue);
    return true;
  }

  /** One queue's {@link WorkQueue#take} within what is left of {@code limits}; true if it produced. */
  private static boolean lease(WorkQueue queue, TakeLimits limits, long now, long leaseUntil,
      List<QueuedUrl> out) {
    List<PendingUrl> taken = queue.take(now,
        Math.min(limits.maxPerQueue(), limits.maxUrls() - out.size()), leaseUntil,
        limits.defaultDelayMillis(), limits.fromRelease());
    for (PendingUrl entry : taken) {
      out.add(QueuedUrl.of(queue.key, entry));
    }
    return !taken.isEmpty();
  }

  /** Moves {@code queue}, which produced, to the back of the turns if it is awake. */
  private void served(WorkQueue queue) {
    if (queue.awake) {
      unlink(queue);
      append(queue);
    }
  }

  private void append(WorkQueue queue) {
    queue.awake = true;
    queue.prevTurn = last;
    queue.nextTurn = null;
    if (last == null) {
      first = queue;
    } else {
      last.nextTurn = queue;
    }
    last = queue;
  }

  private void unlink(WorkQueue queue) {
    if (!queue.awake) {
      return;
    }
    if (queue.prevTurn == null) {
      first = queue.nextTurn;
    } else {
      queue.prevTurn.nextTurn = queue.nextTurn;
    }
    if (queue.nextTurn == null) {
      last = queue.prevTurn;
    } else {
      queue.nextTurn.prevTurn = queue.prevTurn;
    }
    queue.prevTurn = null;
    queue.nextTurn = null;
    queue.awake = false;
  }

  /** Puts {@code queue} to sleep until {@code until}, noting what its time assumed. */
  private void sleep(WorkQueue queue, long until, long now, int maxPerQueue, long defaultDelay,
      boolean fromRelease) {
    queue.wakeAt = until;
    asleep.add(queue);
    sleptFromRelease |= fromRelease;
    if (queue.inFlight(now) >= maxPerQueue) {
      sleptAtMaxPerQueue = Math.min(sleptAtMaxPerQueue, maxPerQueue);
    }
    if (queue.delayMillis() == WorkQueue.DEFAULT_DELAY) {
      sleptAtDefaultDelay = Math.max(sleptAtDefaultDelay, defaultDelay);
    }
  }

  /** Wakes the queues whose time came, or all of them if this take asks more than they assumed. */
  private void wakeDue(long now, int maxPerQueue, long defaultDelay, boolean fromRelease) {
    boolean all = maxPerQueue > sleptAtMaxPerQueue || defaultDelay < sleptAtDefaultDelay
        || (sleptFromRelease && !fromRelease);
    while (asleep.size() > 0 && (all || asleep.peek().wakeAt <= now)) {
      append(asleep.poll());
    }
    if (asleep.size() == 0) {
      sleptAtMaxPerQueue = Integer.MAX_VALUE;
      sleptAtDefaultDelay = 0;
      sleptFromRelease = false;
    }
  }
}
