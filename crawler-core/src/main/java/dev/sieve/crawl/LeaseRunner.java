package dev.sieve.crawl;

import dev.sieve.frontier.Lease;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs each lease the frontier hands out on a thread of its own, as soon as it is ready: the
 * leases in flight grow with the hosts that are ready (the frontier gives each at most its
 * per-host share) up to {@code maxInFlight}. Threads are made as needed and end when idle, so a
 * crawl of three hosts has three, and a host that answers in 10 s holds its own leases only. A
 * thread whose lease is done takes the next one that is ready at once itself, keeping its slot:
 * a host crawled one fetch at a time then goes on without two thread hand-offs per page.
 */
final class LeaseRunner {
  private static final Logger log = LoggerFactory.getLogger(LeaseRunner.class);

  /** Where leases come from. */
  interface Source {
    /** The next lease, waiting until one is ready; null when there is none to come. */
    Lease next() throws InterruptedException;

    /** The next lease if one is ready now, else null; never waits. */
    Lease poll();
  }

  private final int maxInFlight;
  private final Semaphore slots;
  private final AtomicInteger running = new AtomicInteger();
  private final ExecutorService threads;

  LeaseRunner(int maxInFlight) {
    this.maxInFlight = maxInFlight;
    this.slots = new Semaphore(maxInFlight);
    AtomicInteger made = new AtomicInteger();
    // No queue: a lease gets a thread at once (an idle one, else a new one); the slots bound them.
    this.threads = Executors.newCachedThreadPool(runnable -> {
      Thread thread = new Thread(runnable, "fetch-" + made.incrementAndGet());
      thread.setDaemon(true);
      return thread;
    });
  }

  /**
   * Takes leases from {@code source} while a slot is free, running {@code task} on each, until
   * the source has none or {@code stopping}; then waits for the leases in flight (when stopping,
   * at most {@code stopTimeout} before abandoning them).
   */
  void run(Source source, Consumer<Lease> task, BooleanSupplier stopping, Duration stopTimeout)
      throws InterruptedException {
    try {
      while (!stopping.getAsBoolean()) {
        slots.acquire();
        Lease lease;
        try {
          lease = source.next();
        } catch (RuntimeException | InterruptedException e) {
          slots.release();
          throw e;
        }
        if (lease == null) {
          slots.release();
          break;
        }
        running.incrementAndGet();
        threads.execute(() -> runFrom(lease, source, task, stopping));
      }
    } finally {
      threads.shutdown();
      awaitEnd(stopping, stopTimeout);
    }
  }

  /** Runs {@code first}, then each lease ready at once after it, on this thread and slot. */
  private void runFrom(Lease first, Source source, Consumer<Lease> task, BooleanSupplier stopping) {
    try {
      for (Lease lease = first; lease != null; lease = stopping.getAsBoolean() ? null : source.poll()) {
        task.accept(lease);
      }
    } finally {
      running.decrementAndGet();
      slots.release();
    }
  }

  private void awaitEnd(BooleanSupplier stopping, Duration stopTimeout) throws InterruptedException {
    while (!threads.awaitTermination(100, TimeUnit.MILLISECONDS)) {
      if (stopping.getAsBoolean()
          && !threads.awaitTermination(stopTimeout.toMillis(), TimeUnit.MILLISECONDS)) {
        log.warn("Stop: fetches still in flight after {}; abandoning them", stopTimeout);
        threads.shutdownNow();
        return;
      }
    }
  }

  /** Leases being worked on now. */
  int running() {
    return running.get();
  }

  int maxInFlight() {
    return maxInFlight;
  }
}
