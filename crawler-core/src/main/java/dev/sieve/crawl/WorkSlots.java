package dev.sieve.crawl;

import dev.sieve.fetch.FetchResult;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * Where a crawl's threads spend their time, and how many may spend it on the CPU: a page's fetch
 * runs on a thread of its own, as many at once as there are leases in flight; what follows it
 * (parse, Sieve, output) waits for one of {@code cpuThreads} permits, so that a thousand fetches
 * in flight do not parse a thousand pages at once. Counts the fetches in flight and their most.
 *
 * <p>A thread holds at most one permit, from its page's fetch until {@link #leaveCpu()}; nothing
 * it does meanwhile waits for another fetch, so permits are always given back.
 */
final class WorkSlots {
  private final Semaphore cpu;
  private final ThreadLocal<Boolean> holds = ThreadLocal.withInitial(() -> false);
  private final AtomicInteger fetching = new AtomicInteger();
  private final AtomicInteger mostFetching = new AtomicInteger();

  WorkSlots(int cpuThreads) {
    // Not fair: a thread already running takes a free permit at once, instead of handing it to
    // the longest waiter, which on a busy machine first waits for the scheduler (a convoy).
    this.cpu = new Semaphore(cpuThreads);
  }

  /**
   * Runs {@code fetch}, counted as in flight; then, when {@code page} (not a robots.txt or a
   * sitemap), takes a CPU permit for the work that follows, kept until {@link #leaveCpu()}.
   */
  FetchResult fetch(Supplier<FetchResult> fetch, boolean page) {
    int now = fetching.incrementAndGet();
    mostFetching.accumulateAndGet(now, Math::max);
    FetchResult result;
    try {
      result = fetch.get();
    } finally {
      fetching.decrementAndGet();
    }
    if (page && !holds.get()) {
      cpu.acquireUninterruptibly();
      holds.set(true);
    }
    return result;
  }

  /** Gives back this thread's CPU permit, if it holds one. */
  void leaveCpu() {
    if (holds.get()) {
      holds.set(false);
      cpu.release();
    }
  }

  /** Fetches in flight now. */
  int fetching() {
    return fetching.get();
  }

  /** The most fetches that were in flight at once. */
  int mostFetching() {
    return mostFetching.get();
  }
}
