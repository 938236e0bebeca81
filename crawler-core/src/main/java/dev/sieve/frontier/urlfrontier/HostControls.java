package dev.sieve.frontier.urlfrontier;

import dev.sieve.frontier.FrontierTime;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What this process tells the service about hosts: each queue's delay (the politeness delay when
 * it first queues links of a key, a Crawl-delay above it), Retry-After blocks, and the hosts it
 * skipped (their queue deleted, later links to them dropped here and counted). Thread-safe.
 */
final class HostControls {
  private static final Logger log = LoggerFactory.getLogger(HostControls.class);

  private final ServiceCalls calls;
  private final int defaultDelaySeconds;
  private final LongSupplier nowMillis;
  /** Keys whose delay this process set, to the seconds it set. */
  private final Map<String, Integer> delays = new ConcurrentHashMap<>();
  private final Set<String> skipped = ConcurrentHashMap.newKeySet();
  private final AtomicLong dropped = new AtomicLong();

  HostControls(ServiceCalls calls, Duration politenessDelay, LongSupplier nowMillis) {
    this.calls = calls;
    this.defaultDelaySeconds =
        (int) Math.min(Integer.MAX_VALUE, FrontierTime.seconds(politenessDelay));
    this.nowMillis = nowMillis;
  }

  /** Sets the politeness delay of a key this process has not set one for (once its queue exists). */
  void queued(String key) {
    delays.computeIfAbsent(key,
        k -> calls.setDelay(k, defaultDelaySeconds) ? defaultDelaySeconds : null);
  }

  /** Crawl-delay: the queue's delay, never below the politeness delay; a call only on a change. */
  void crawlDelay(String key, Duration delay) {
    int wanted = (int) Math.min(Integer.MAX_VALUE,
        Math.max(FrontierTime.seconds(delay), defaultDelaySeconds));
    Integer set = delays.get(key);
    if ((set == null || set != wanted) && calls.setDelay(key, wanted)) {
      delays.put(key, wanted);
    }
  }

  /** Retry-After: the queue produces nothing until {@code wait} from now. */
  void block(String key, Duration wait) {
    if (!calls.blockUntil(key, FrontierTime.secondAfter(nowMillis.getAsLong(), wait))) {
      log.debug("BlockQueueUntil: the service has no queue {}", key);
    }
  }

  /** Deletes the key's queue and drops its later links here; returns how many URLs it held. */
  long skip(String key) {
    skipped.add(key);
    long held = calls.deleteQueue(key);
    dropped.addAndGet(held);
    return held;
  }

  /** Whether a link of {@code key} is dropped (counted) because the host was skipped. */
  boolean dropsLink(String key) {
    if (skipped.contains(key)) {
      dropped.incrementAndGet();
      return true;
    }
    return false;
  }

  boolean skipped(String key) {
    return skipped.contains(key);
  }

  /** URLs dropped because their host was skipped: pending at the skip, and links later. */
  long dropped() {
    return dropped.get();
  }
}
