package dev.sieve.frontier.queue;

import java.util.List;

/**
 * One queue of a crawl, named by its key: its pending URLs (none kept once drained), how many of
 * its URLs were completed, and the client's controls (block, delay, crawl limit). Its {@link #salt}
 * is unique within the crawl's life, so that a queue deleted and created again starts with no
 * URL seen. Not thread-safe: guarded by the crawl's lock.
 */
public final class WorkQueue {
  /** The delay value meaning "the service's default". */
  static final int DEFAULT_DELAY = -1;

  final String key;
  final int salt;
  /** Null while no URL is pending, so a drained queue costs a few fields. */
  private PendingUrls pending;
  private long completed;
  private long blockedUntil;
  private int delaySeconds = DEFAULT_DELAY;
  private long lastProduced;
  private long crawlLimit;

  /** A queue read back from a checkpoint, or new in its crawl with that salt. */
  public WorkQueue(String key, int salt) {
    this.key = key;
    this.salt = salt;
  }

  /** The string the crawl's Sieve remembers for {@code url} in this queue. */
  String seenKey(String url) {
    return salt + " " + url;
  }

  PendingUrl pending(String url) {
    return pending == null ? null : pending.get(url);
  }

  void add(PendingUrl url) {
    if (pending == null) {
      pending = new PendingUrls();
    }
    pending.add(url);
  }

  void reschedule(PendingUrl url, long due, byte[] metadata) {
    pending.reschedule(url, due, metadata);
  }

  /** Removes a pending URL, counting it completed. */
  void complete(String url) {
    if (pending != null && pending.remove(url) && pending.isEmpty()) {
      pending = null;
    }
    completed++;
  }

  /** Counts a URL completed that was not pending here. */
  void countCompleted() {
    completed++;
  }

  int size() {
    return pending == null ? 0 : pending.size();
  }

  public long completed() {
    return completed;
  }

  /** URLs leased and not expired at {@code now}. */
  int inFlight(long now) {
    if (pending == null) {
      return 0;
    }
    pending.releaseExpired(now);
    return pending.inFlight();
  }

  public String key() {
    return key;
  }

  public int salt() {
    return salt;
  }

  /** Adds a pending URL read back from a checkpoint. */
  public void restorePending(String url, long due, byte[] metadata) {
    add(new PendingUrl(url, due, metadata));
  }

  /** Pending URLs in order, as the service answers about them; empty when none. */
  public List<QueuedUrl> pendingUrls() {
    return list().stream().map(url -> QueuedUrl.of(key, url)).toList();
  }

  /** Pending URLs in order; empty when none. */
  List<PendingUrl> list() {
    return pending == null ? List.of() : pending.inOrder();
  }

  /**
   * Leases up to {@code maxPerQueue} due URLs if the queue may produce at {@code now}: not blocked,
   * under its crawl limit, its delay since the last production passed, and fewer than {@code
   * maxPerQueue} URLs in flight (the reference service's reading of max_urls_per_queue).
   */
  List<PendingUrl> take(long now, int maxPerQueue, long leaseUntil, int defaultDelay) {
    if (pending == null || now < blockedUntil || (crawlLimit > 0 && completed >= crawlLimit)) {
      return List.of();
    }
    int delay = delaySeconds == DEFAULT_DELAY ? defaultDelay : delaySeconds;
    if (lastProduced != 0 && now < lastProduced + delay) {
      return List.of();
    }
    pending.releaseExpired(now);
    if (pending.inFlight() >= maxPerQueue) {
      return List.of();
    }
    List<PendingUrl> taken = pending.lease(now, maxPerQueue, leaseUntil);
    if (!taken.isEmpty()) {
      lastProduced = now;
    }
    return taken;
  }

  public long blockedUntil() {
    return blockedUntil;
  }

  public int delaySeconds() {
    return delaySeconds;
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

  /** Blocks until the epoch second {@code until}; 0 unblocks. */
  public void blockUntil(long until) {
    blockedUntil = until;
  }

  public void delay(int seconds) {
    delaySeconds = seconds;
  }

  /** At most {@code limit} completed URLs before the queue stops producing; 0 for no limit. */
  public void crawlLimit(long limit) {
    crawlLimit = limit;
  }
}
