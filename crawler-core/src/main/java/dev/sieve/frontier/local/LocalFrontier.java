package dev.sieve.frontier.local;

import com.google.common.base.Ticker;
import dev.sieve.bloom.Hash128;
import dev.sieve.frontier.Frontier;
import dev.sieve.frontier.Lease;
import dev.sieve.frontier.QueueKey;
import dev.sieve.frontier.Sieve;
import dev.sieve.frontier.spill.PendingCodec;
import dev.sieve.frontier.spill.PendingQueue;
import dev.sieve.frontier.spill.PendingStore;
import dev.sieve.url.Url;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * The in-process {@link Frontier}: the {@link Sieve} in front of per-host queues in memory, scheduled
 * politely.
 *
 * <p>A URL enters once, when the Sieve first sees it, into the queue of its politeness key (its
 * host, or registrable domain). A host is ready when no more than {@code maxInFlightPerHost - 1}
 * of its fetches are in flight and its politeness delay has passed: fetch starts of one host are
 * at least the delay apart, and with one fetch in flight per host (the default) the next starts
 * no sooner than the delay after the previous one completed. Workers take from whichever host is
 * ready soonest, so many hosts keep every worker busy while each host sees the promised spacing.
 *
 * <p>Every {@link Lease} taken must be given back once with {@link #complete} or {@link #retry}.
 * The frontier is finished when nothing is pending and nothing is leased; {@link #take} then
 * returns null to every worker.
 *
 * <p><b>Memory.</b> Pending URLs are held compactly, a few bytes beyond the URL's, plus a few
 * hundred bytes per host. With {@link Builder#spillTo} they stay within a memory budget, the rest
 * in checksummed segment files read back in order per host; a spilled chunk that cannot be read
 * or is corrupt makes {@link #poll()} and {@link #take()} throw an {@link
 * java.io.UncheckedIOException} naming the file and offset, every time, rather than lose URLs.
 *
 * <p><b>State.</b> {@link #writeState} saves pending URLs (spilled ones by reference), in-flight
 * leases and per-host counts; {@link Builder#restore} builds a frontier from it. Segment files a
 * saved state refers to are kept until {@link #stateDurable()} declares a later state durable.
 *
 * <p>Thread-safe. Time comes from the injected {@link Ticker}, so scheduling is tested without
 * sleeping ({@link #poll()} never blocks).
 */
public final class LocalFrontier implements Frontier {
  private static final int STATE_MAGIC = 0x53465254; // "SFRT"
  private static final int STATE_VERSION = 1;

  private final Sieve sieve;
  private final RecentlySeen recentlySeen = new RecentlySeen();
  private final Ticker ticker;
  private final long delayNanos;
  private final int maxInFlightPerHost;
  private final long maxUrlsPerHost;
  private final QueueKey queueKey;

  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();
  private final Map<String, HostQueue> hosts = new HashMap<>();
  private final PendingStore store;
  private final ReadyHeap ready = new ReadyHeap();
  /** Leases taken and not given back, oldest first, with how many of each. */
  private final Map<Lease, Integer> leased = new LinkedHashMap<>();
  /** Where every change goes, in order (a journal); guarded by {@link #lock}. */
  private FrontierLog log = FrontierLog.NONE;
  /**
   * After a restore, the leases that were out when the state was saved, by URL: held aside while
   * journals are replayed, then queued first. Guarded by {@link #lock}.
   */
  private Map<String, Lease> restoredOut = new LinkedHashMap<>();
  private long inFlight;
  private boolean closed;
  /** The crawl's counters as changed by completed and retried leases; guarded by {@link #lock}. */
  private final Map<String, Long> counts = new java.util.TreeMap<>();
  /** After a crash: of the URLs that were in flight, those already recorded, with their counts. */
  private final java.util.function.Function<java.util.Set<String>, Map<String, Map<String, Long>>> recordedElsewhere;

  private final AtomicLong droppedByHostBudget = new AtomicLong();
  private final AtomicLong droppedBySkippedHost = new AtomicLong();

  private LocalFrontier(Builder builder, PendingStore store) {
    this.sieve = builder.sieve;
    this.ticker = builder.ticker;
    this.delayNanos = builder.politenessDelay.toNanos();
    this.maxInFlightPerHost = builder.maxInFlightPerHost;
    this.maxUrlsPerHost = builder.maxUrlsPerHost;
    this.queueKey = builder.queueKey;
    this.store = store;
    this.recordedElsewhere = builder.recordedElsewhere;
  }

  public static Builder builder(Sieve sieve) {
    return new Builder(sieve);
  }

  /**
   * Offers a seed or link. Returns true if the Sieve had never seen it and it was queued; false if
   * it was (or might have been) seen, or its host is over its page budget or skipped (both
   * counted).
   */
  @Override
  public boolean push(Url url, int depth) {
    return offer(url, depth, List.of());
  }

  /**
   * Offers the target of a redirect from {@code from}: like a link, at the same depth, remembering
   * the chain so that loops and long chains can be told apart.
   */
  @Override
  public boolean pushRedirect(Url target, Lease from) {
    List<String> chain = new ArrayList<>(from.redirectChain());
    chain.add(from.url());
    return offer(target, from.depth(), chain);
  }

  private boolean offer(Url url, int depth, List<String> chain) {
    String key = queueKey.of(url);
    lock.lock();
    try {
      // Under the lock, so that a saved state never holds a URL in the filter but not in a queue.
      boolean added = sieve.admit(url.toString()) && enqueue(url.toString(), key, depth, chain);
      store.enforceBudget();
      return added;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Offers a page's links in one batch. Outside the lock, the links the Sieve has seen (most links
   * of a page) are dropped: first those it recently reported seen ({@link RecentlySeen}), then,
   * after hashing the rest and starting their filter loads together, those the filter holds
   * ({@link Sieve#mightHaveSeen(Hash128)}, final once true). The remaining few are checked-and-set
   * and queued under one acquisition of the lock.
   */
  @Override
  public int pushAll(List<Url> urls, int depth) {
    int count = urls.size();
    Url[] unknown = new Url[count];
    Hash128[] hashes = new Hash128[count];
    int probed = 0;
    for (Url url : urls) {
      if (!recentlySeen.contains(url)) {
        unknown[probed] = url;
        hashes[probed++] = Hash128.of(url.toString());
      }
    }
    sieve.prefetch(hashes, probed);
    int candidates = 0;
    for (int i = 0; i < probed; i++) {
      if (sieve.mightHaveSeen(hashes[i])) {
        recentlySeen.add(unknown[i]);
      } else {
        unknown[candidates] = unknown[i];
        hashes[candidates++] = hashes[i];
      }
    }
    if (candidates == 0) {
      return 0;
    }
    String[] keys = new String[candidates];
    for (int c = 0; c < candidates; c++) {
      keys[c] = queueKey.of(unknown[c]); // may resolve DNS: not under the lock
    }
    lock.lock();
    try {
      int added = 0;
      for (int c = 0; c < candidates; c++) {
        if (sieve.admit(hashes[c])) {
          recentlySeen.add(unknown[c]);
          if (enqueue(unknown[c].toString(), keys[c], depth, List.of())) {
            added++;
          }
        }
      }
      store.enforceBudget();
      return added;
    } finally {
      lock.unlock();
    }
  }

  /** Queues a URL the Sieve just admitted, unless its host is skipped or over budget (counted). */
  private boolean enqueue(String url, String key, int depth, List<String> chain) {
    HostQueue host = hosts.computeIfAbsent(key, k -> new HostQueue(k, delayNanos, store.queue(k)));
    if (host.skipped) {
      droppedBySkippedHost.incrementAndGet();
      return false;
    }
    if (host.admitted >= maxUrlsPerHost) {
      droppedByHostBudget.incrementAndGet();
      return false;
    }
    host.admitted++;
    Lease lease = new Lease(url, depth, key, 0, chain);
    host.pending.addLast(lease);
    log.added(lease);
    reschedule(host);
    return true;
  }

  /**
   * Takes the next URL from the host that is ready soonest, waiting for one to become ready.
   *
   * @return the lease, or null when the frontier is finished or closed
   */
  @Override
  public Lease take() throws InterruptedException {
    lock.lockInterruptibly();
    try {
      while (true) {
        if (closed || (store.size() == 0 && inFlight == 0)) {
          changed.signalAll();
          return null;
        }
        Lease lease = pollLocked();
        if (lease != null) {
          return lease;
        }
        HostQueue next = ready.peek();
        if (next == null) {
          changed.await();
        } else {
          changed.awaitNanos(Math.max(1, next.readyAt - ticker.read()));
        }
      }
    } finally {
      lock.unlock();
    }
  }

  /** Takes the next URL whose host is ready now, or returns null without waiting. */
  @Override
  public Lease poll() {
    lock.lock();
    try {
      return closed ? null : pollLocked();
    } finally {
      lock.unlock();
    }
  }

  private Lease pollLocked() {
    HostQueue host = ready.peek();
    long now = ticker.read();
    if (host == null || host.readyAt - now > 0) {
      return null;
    }
    // Taken before the host leaves the heap: if a spilled chunk is corrupt, the host stays first
    // in line and the error repeats rather than its URLs being stranded.
    Lease lease = host.pending.pollFirst();
    log.taken(host.key);
    ready.poll();
    inFlight++;
    host.inFlight++;
    leased.merge(lease, 1, Integer::sum);
    host.readyAt = now + host.delayNanos;
    reschedule(host);
    return lease;
  }

  /** Gives back a lease whose URL is done (fetched, failed for good, or denied). */
  @Override
  public void complete(Lease lease) {
    complete(lease, Map.of());
  }

  /**
   * Gives back a lease whose URL is done, with the counters its crawl changed: they are journaled
   * with the completion (a crash keeps both or neither) and added to {@link #counts()}.
   */
  @Override
  public void complete(Lease lease, Map<String, Long> delta) {
    lock.lock();
    try {
      HostQueue host = release(lease);
      log.completed(lease, delta);
      Counts.add(counts, delta);
      if (maxInFlightPerHost == 1) {
        // Not in the heap: its only fetch was in flight.
        host.readyAt = Math.max(host.readyAt, ticker.read() + host.delayNanos);
      }
      reschedule(host);
      // Heads loaded by poll count too; checked here, after the lease is given back.
      store.enforceBudget();
    } finally {
      lock.unlock();
    }
  }

  /**
   * Gives back a lease to be tried again, first in its host's queue, no sooner than {@code
   * backoff} from now (the host waits too).
   */
  @Override
  public void retry(Lease lease, Duration backoff) {
    retry(lease, backoff, Map.of());
  }

  /** {@link #retry(Lease, Duration)}, journaling the counters the attempt changed with it. */
  @Override
  public void retry(Lease lease, Duration backoff, Map<String, Long> delta) {
    lock.lock();
    try {
      HostQueue host = release(lease);
      unschedule(host);
      Lease again = lease.nextAttempt();
      host.pending.addFirst(again);
      if (delta.isEmpty()) {
        log.returned(again);
      } else {
        log.retried(again, delta);
        Counts.add(counts, delta);
      }
      host.readyAt = Math.max(host.readyAt, ticker.read() + Math.max(host.delayNanos, backoff.toNanos()));
      reschedule(host);
      store.enforceBudget();
    } finally {
      lock.unlock();
    }
  }

  /**
   * Gives back a lease untried, first in its host's queue, e.g. when the worker's politeness slot
   * went to the host's robots.txt: the host's delay applies as after {@link #complete}.
   */
  @Override
  public void putBack(Lease lease) {
    lock.lock();
    try {
      HostQueue host = release(lease);
      unschedule(host);
      host.pending.addFirst(lease);
      log.returned(lease);
      host.readyAt = Math.max(host.readyAt, ticker.read() + host.delayNanos);
      reschedule(host);
      store.enforceBudget();
    } finally {
      lock.unlock();
    }
  }

  /** Holds every fetch of the host until {@code wait} from now, e.g. for a Retry-After header. */
  @Override
  public void delayHost(String hostKey, Duration wait) {
    updateHost(hostKey, host -> host.readyAt = Math.max(host.readyAt, ticker.read() + wait.toNanos()));
  }

  /** Spaces the host's fetches at least {@code delay} apart, e.g. for a robots.txt Crawl-delay. */
  @Override
  public void setHostDelay(String hostKey, Duration delay) {
    updateHost(hostKey, host -> host.delayNanos = Math.max(delayNanos, delay.toNanos()));
  }

  /**
   * Drops the host's pending URLs and every later one (each counted), e.g. when its Crawl-delay
   * is beyond what the crawl accepts.
   *
   * @return the number of pending URLs dropped now
   */
  @Override
  public int skipHost(String hostKey) {
    int[] dropped = {0};
    updateHost(hostKey, host -> {
      host.skipped = true;
      dropped[0] = (int) host.pending.clear();
      log.skipped(host.key);
    });
    droppedBySkippedHost.addAndGet(dropped[0]);
    return dropped[0];
  }

  /**
   * Leases up to {@code max} of the host's pending URLs now, first in line first, whatever its
   * delay and in-flight limit; each is journaled as taken, like a lease from {@link #take}.
   */
  @Override
  public List<Lease> takeAll(String hostKey, int max) {
    lock.lock();
    try {
      HostQueue host = hosts.get(hostKey);
      if (host == null || closed) {
        return List.of();
      }
      unschedule(host);
      List<Lease> taken = new ArrayList<>();
      while (taken.size() < max && !host.pending.isEmpty()) {
        Lease lease = host.pending.pollFirst();
        log.taken(host.key);
        inFlight++;
        host.inFlight++;
        leased.merge(lease, 1, Integer::sum);
        taken.add(lease);
      }
      reschedule(host);
      return taken;
    } finally {
      lock.unlock();
    }
  }

  private void updateHost(String hostKey, Consumer<HostQueue> update) {
    lock.lock();
    try {
      HostQueue host = hosts.computeIfAbsent(hostKey, k -> new HostQueue(k, delayNanos, store.queue(k)));
      unschedule(host);
      update.accept(host);
      reschedule(host);
    } finally {
      lock.unlock();
    }
  }

  private HostQueue release(Lease lease) {
    HostQueue host = hosts.get(lease.hostKey());
    Integer taken = leased.get(lease);
    if (host == null || host.inFlight == 0 || taken == null) {
      throw new IllegalStateException("lease not taken from this frontier: " + lease);
    }
    if (taken == 1) {
      leased.remove(lease);
    } else {
      leased.put(lease, taken - 1);
    }
    host.inFlight--;
    inFlight--;
    return host;
  }

  /** Takes the host out of the ready heap before its ready time changes. */
  private void unschedule(HostQueue host) {
    ready.remove(host);
  }

  /** Puts the host in the ready heap if it can be leased from; wakes waiting workers. */
  private void reschedule(HostQueue host) {
    if (!host.scheduled() && host.eligible(maxInFlightPerHost)) {
      ready.add(host);
    }
    changed.signalAll();
  }

  /** Stops handing out URLs: {@link #take} returns null from now on. */
  @Override
  public void close() {
    lock.lock();
    try {
      closed = true;
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /** True when nothing is pending or in flight. */
  @Override
  public boolean isFinished() {
    return locked(() -> store.size() == 0 && inFlight == 0);
  }

  /** Nanoseconds until some host is ready: 0 if one is ready now, -1 if none has pending URLs. */
  public long nanosUntilReady() {
    lock.lock();
    try {
      HostQueue next = ready.peek();
      return next == null ? -1 : Math.max(0, next.readyAt - ticker.read());
    } finally {
      lock.unlock();
    }
  }

  /** URLs waiting in host queues. */
  @Override
  public long pending() {
    return locked(() -> store.size());
  }

  /** Bytes of memory the pending URLs and per-host records take, estimated. */
  public long pendingMemoryBytes() {
    return locked(() -> store.memoryBytes());
  }

  /** Bytes of spill files on disk: spilled URLs, and data kept for the last saved state. */
  public long pendingDiskBytes() {
    return locked(() -> store.diskBytes());
  }

  /** {@link #pendingMemoryBytes()} per pending URL (0 when none is pending), for reporting. */
  public double bytesPerPendingUrl() {
    return locked(() -> store.size() == 0 ? 0 : (double) store.memoryBytes() / store.size());
  }

  /**
   * Saves the frontier to {@code out}, under its lock: per host its admitted count, skip flag and
   * delay; the in-flight leases, which a restored frontier queues first in their hosts; the
   * pending URLs in order, spilled ones as references into the spill files (forced to disk
   * first). Counters of dropped URLs are saved too. Timing (delays in progress, Retry-After) is
   * not: a restored frontier finds every host ready.
   *
   * <p>The spill files this state refers to are kept until a later state is written and {@link
   * #stateDurable()} is called; call it once the caller has made this state durable.
   */
  public void writeState(DataOutputStream out) throws IOException {
    lock.lock();
    try {
      out.writeInt(STATE_MAGIC);
      out.writeInt(STATE_VERSION);
      out.writeLong(droppedByHostBudget.get());
      out.writeLong(droppedBySkippedHost.get());
      out.writeInt(hosts.size());
      for (HostQueue host : hosts.values()) {
        out.writeUTF(host.key);
        out.writeLong(host.admitted);
        out.writeBoolean(host.skipped);
        out.writeLong(host.delayNanos);
      }
      out.writeLong(inFlight);
      for (Map.Entry<Lease, Integer> entry : leased.entrySet()) {
        byte[] bytes = PendingCodec.encode(entry.getKey());
        for (int i = 0; i < entry.getValue(); i++) {
          out.writeUTF(entry.getKey().hostKey());
          out.writeInt(bytes.length);
          out.write(bytes);
        }
      }
      store.writeState(out);
      out.writeInt(STATE_MAGIC);
    } finally {
      lock.unlock();
    }
  }

  /**
   * Declares the state last written by {@link #writeState} durable (e.g. fsynced and renamed into
   * place): spill files that only earlier states refer to may now be deleted.
   */
  public void stateDurable() {
    lock.lock();
    try {
      store.stateDurable();
    } finally {
      lock.unlock();
    }
  }

  /** Reads a state written by {@link #writeState} into a new frontier with these settings. */
  private static LocalFrontier restore(Builder builder, DataInputStream in) throws IOException {
    int magic = in.readInt();
    if (magic != STATE_MAGIC) {
      throw new IOException(String.format(
          "frontier state: bad magic %08x, expected %08x (not a frontier state?)",
          magic, STATE_MAGIC));
    }
    int version = in.readInt();
    if (version != STATE_VERSION) {
      throw new IOException("frontier state: version " + version + " is not " + STATE_VERSION);
    }
    long droppedByBudget = in.readLong();
    long droppedBySkip = in.readLong();
    int hostCount = in.readInt();
    if (hostCount < 0) {
      throw new IOException("frontier state: host count " + hostCount + " is negative");
    }
    Map<String, long[]> saved = new HashMap<>();
    for (int i = 0; i < hostCount; i++) {
      String key = in.readUTF();
      long admitted = in.readLong();
      boolean skipped = in.readBoolean();
      long delay = in.readLong();
      saved.put(key, new long[] {admitted, skipped ? 1 : 0, delay});
    }
    long leaseCount = in.readLong();
    if (leaseCount < 0 || leaseCount > Integer.MAX_VALUE) {
      throw new IOException("frontier state: in-flight count " + leaseCount + " is out of range");
    }
    List<Lease> inFlight = new ArrayList<>();
    for (long i = 0; i < leaseCount; i++) {
      String key = in.readUTF();
      int length = in.readInt();
      if (length < 0 || length > (1 << 24)) {
        throw new IOException("frontier state: in-flight lease of " + length + " bytes");
      }
      byte[] bytes = new byte[length];
      in.readFully(bytes);
      try {
        inFlight.add(PendingCodec.decode(bytes, key));
      } catch (RuntimeException e) {
        throw new IOException("frontier state: in-flight lease of host '" + key + "' is malformed");
      }
    }
    PendingStore store = PendingStore.readState(
        in, builder.spillDir, builder.pendingMemoryBytes, builder.segmentBytes);
    if (in.readInt() != STATE_MAGIC) {
      throw new IOException("frontier state: no end marker after the pending URLs");
    }
    LocalFrontier frontier = new LocalFrontier(builder, store);
    frontier.droppedByHostBudget.set(droppedByBudget);
    frontier.droppedBySkippedHost.set(droppedBySkip);
    for (PendingQueue queue : store.queues()) {
      HostQueue host = new HostQueue(queue.key(), frontier.delayNanos, queue);
      long[] values = saved.get(queue.key());
      if (values == null) {
        throw new IOException("frontier state: host '" + queue.key() + "' has pending URLs but no"
            + " record");
      }
      host.admitted = values[0];
      host.skipped = values[1] != 0;
      host.delayNanos = Math.max(frontier.delayNanos, values[2]);
      frontier.hosts.put(host.key, host);
    }
    if (frontier.hosts.size() != saved.size()) {
      throw new IOException("frontier state: " + saved.size() + " host records but "
          + frontier.hosts.size() + " host queues");
    }
    for (Lease lease : inFlight) {
      if (!frontier.hosts.containsKey(lease.hostKey())) {
        throw new IOException("frontier state: in-flight lease of unknown host '"
            + lease.hostKey() + "'");
      }
      frontier.restoredOut.put(lease.url(), lease);
    }
    return frontier;
  }

  /**
   * Runs {@code action} with the frontier paused: no URL is added, leased or given back until it
   * returns. Used to save a state consistent with the Sieve's filter and to switch journals.
   */
  public <T> T paused(Callable<T> action) throws Exception {
    lock.lock();
    try {
      return action.call();
    } finally {
      lock.unlock();
    }
  }

  /** Makes what was journaled so far survive the process dying, before the caller relies on it. */
  @Override
  public void flushLog() {
    lock.lock();
    try {
      log.flushed();
    } finally {
      lock.unlock();
    }
  }

  /**
   * The counters changed by completed and retried leases since the crawl began (restored ones
   * included); consistent with a state written in the same {@link #paused} action.
   */
  public Map<String, Long> counts() {
    lock.lock();
    try {
      return new java.util.TreeMap<>(counts);
    } finally {
      lock.unlock();
    }
  }

  /** Adds counters saved with the state this frontier was restored from. */
  public void addCounts(Map<String, Long> saved) {
    lock.lock();
    try {
      Counts.add(counts, saved);
    } finally {
      lock.unlock();
    }
  }

  /**
   * Journals every later change to {@code file} (appending), closing the previous journal: the
   * switch happens under the lock, so each change is in exactly one journal.
   */
  public void journalTo(Path file) throws IOException {
    swapLog(Journal.open(file));
  }

  /** Closes the journal, if any; later changes are not journaled. */
  public void closeJournal() throws IOException {
    swapLog(FrontierLog.NONE);
  }

  private void swapLog(FrontierLog next) throws IOException {
    FrontierLog previous;
    lock.lock();
    try {
      previous = log;
      log = next;
    } finally {
      lock.unlock();
    }
    if (previous instanceof Journal journal) {
      journal.close();
    }
  }

  /**
   * Replays journals written after the state this frontier was restored from (or, for a frontier
   * built empty, since the crawl began), in order, then queues the URLs that were leased when the
   * process stopped first in their hosts, to be fetched again. Call once, before any other use.
   * The Sieve must be the one saved with the state: replayed URLs are put into it.
   *
   * @throws IOException if a journal is corrupt (its file and offset named)
   */
  public void replay(List<Path> journals) throws IOException {
    lock.lock();
    try {
      Replayer replayer = new Replayer();
      for (Path journal : journals) {
        Journal.replay(journal, replayer);
      }
      if (!restoredOut.isEmpty()) {
        // Recorded before the crash, though the completion was not journaled: done, not again.
        Map<String, Map<String, Long>> done = recordedElsewhere.apply(Set.copyOf(restoredOut.keySet()));
        done.forEach((url, delta) -> {
          restoredOut.remove(url);
          Counts.add(counts, delta);
        });
      }
      List<Lease> again = new ArrayList<>(restoredOut.values());
      restoredOut = new LinkedHashMap<>();
      for (int i = again.size() - 1; i >= 0; i--) {
        Lease lease = again.get(i);
        HostQueue host = host(lease.hostKey());
        if (host.skipped) {
          droppedBySkippedHost.incrementAndGet();
        } else {
          host.pending.addFirst(lease);
        }
      }
      for (HostQueue host : hosts.values()) {
        reschedule(host);
      }
      store.enforceBudget();
    } finally {
      lock.unlock();
    }
  }

  private HostQueue host(String key) {
    return hosts.computeIfAbsent(key, k -> new HostQueue(k, delayNanos, store.queue(k)));
  }

  /** Applies journal records to the queues, tracking the leases out by URL. */
  private final class Replayer implements Journal.Replay {
    @Override
    public void added(String hostKey, byte[] entry) {
      Lease lease = PendingCodec.decode(entry, hostKey);
      sieve.admit(lease.url()); // the filter said new then; its answer now does not matter
      HostQueue host = host(hostKey);
      host.admitted++;
      host.pending.addLast(lease);
    }

    @Override
    public void taken(String hostKey) {
      Lease lease = host(hostKey).pending.pollFirst();
      if (lease != null) {
        restoredOut.put(lease.url(), lease);
      }
    }

    @Override
    public void returned(String hostKey, byte[] entry) {
      Lease lease = PendingCodec.decode(entry, hostKey);
      restoredOut.remove(lease.url());
      host(hostKey).pending.addFirst(lease);
    }

    @Override
    public void completed(String hostKey, String url, Map<String, Long> delta) {
      restoredOut.remove(url);
      Counts.add(counts, delta);
    }

    @Override
    public void retried(String hostKey, byte[] entry, Map<String, Long> delta) {
      returned(hostKey, entry);
      Counts.add(counts, delta);
    }

    @Override
    public void skipped(String hostKey) {
      HostQueue host = host(hostKey);
      host.skipped = true;
      droppedBySkippedHost.addAndGet(host.pending.clear());
    }
  }

  /** Leases taken and not yet given back. */
  @Override
  public long inFlight() {
    return locked(() -> inFlight);
  }

  /** The number of politeness keys seen. */
  @Override
  public int hosts() {
    return locked(() -> hosts.size());
  }

  /** New URLs not queued because their host had reached its page budget. */
  @Override
  public long droppedByHostBudget() {
    return droppedByHostBudget.get();
  }

  /** URLs dropped because their host was skipped. */
  @Override
  public long droppedBySkippedHost() {
    return droppedBySkippedHost.get();
  }

  /** The politeness key of {@code url}. */
  @Override
  public String hostKey(Url url) {
    return queueKey.of(url);
  }

  @Override
  public long approximateSeen() {
    return sieve.approximateSeen();
  }

  @Override
  public double seenFpp() {
    return sieve.expectedFpp();
  }

  @Override
  public int seenLayers() {
    return sieve.filterLayers();
  }

  @Override
  public long droppedByFullFilter() {
    return sieve.refusedFull();
  }

  @Override
  public int capacityWarnings() {
    return sieve.capacityWarnings();
  }

  /** Reads state under the lock: for counters, read now and then. */
  private <T> T locked(java.util.function.Supplier<T> read) {
    lock.lock();
    try {
      return read.get();
    } finally {
      lock.unlock();
    }
  }

  /** Settings of a {@link LocalFrontier}, validated once in {@link #build()}. */
  public static final class Builder {
    private final Sieve sieve;
    private Ticker ticker = Ticker.systemTicker();
    private Duration politenessDelay = Duration.ofSeconds(1);
    private int maxInFlightPerHost = 1;
    private long maxUrlsPerHost = Long.MAX_VALUE;
    private QueueKey queueKey = QueueKey.HOST;
    private Path spillDir;
    private java.util.function.Function<Set<String>, Map<String, Map<String, Long>>> recordedElsewhere =
        urls -> Map.of();
    private long pendingMemoryBytes = Long.MAX_VALUE;
    private long segmentBytes = PendingStore.DEFAULT_SEGMENT_BYTES;

    private Builder(Sieve sieve) {
      this.sieve = Objects.requireNonNull(sieve, "sieve");
    }

    public Builder ticker(Ticker ticker) {
      this.ticker = Objects.requireNonNull(ticker, "ticker");
      return this;
    }

    /** The least time between fetch starts of one host (default 1 s). */
    public Builder politenessDelay(Duration delay) {
      this.politenessDelay = Objects.requireNonNull(delay, "politenessDelay");
      return this;
    }

    /** At most this many fetches of one host at once (default 1). */
    public Builder maxInFlightPerHost(int max) {
      this.maxInFlightPerHost = max;
      return this;
    }

    /** At most this many URLs queued per host over the whole crawl (default unlimited). */
    public Builder maxUrlsPerHost(long max) {
      this.maxUrlsPerHost = max;
      return this;
    }

    public Builder queueKey(QueueKey queueKey) {
      this.queueKey = Objects.requireNonNull(queueKey, "queueKey");
      return this;
    }

    /**
     * Keeps pending URLs within {@code pendingMemoryBytes} of memory (estimated, per-host records
     * included) and spills the rest to segment files in {@code dir}, which is created if need be
     * and should belong to this frontier alone: segment files found there when it is built are
     * deleted, and when it is restored those the state does not refer to. Default: every pending
     * URL in memory.
     */
    public Builder spillTo(Path dir, long pendingMemoryBytes) {
      this.spillDir = Objects.requireNonNull(dir, "dir");
      this.pendingMemoryBytes = pendingMemoryBytes;
      return this;
    }

    /** The size at which a spill file is closed and a new one started (default 64 MiB); tests. */
    Builder segmentBytes(long segmentBytes) {
      this.segmentBytes = segmentBytes;
      return this;
    }

    /**
     * After a crash, given the URLs that were in flight, returns those whose record was already
     * written (with the counters their records stand for): they are not fetched again. Default:
     * none.
     */
    public Builder recordedElsewhere(
        java.util.function.Function<java.util.Set<String>, Map<String, Map<String, Long>>> recorded) {
      this.recordedElsewhere = java.util.Objects.requireNonNull(recorded, "recorded");
      return this;
    }

    public LocalFrontier build() {
      validate();
      PendingStore store = spillDir == null
          ? PendingStore.inMemory()
          : PendingStore.spilling(spillDir, pendingMemoryBytes, segmentBytes);
      return new LocalFrontier(this, store);
    }

    /**
     * Builds a frontier from a state saved by {@link LocalFrontier#writeState}: its hosts with
     * their admitted counts, skips and delays, its pending URLs in order with the in-flight leases
     * first in their hosts (dropped and counted if the host was skipped), and its counters of
     * dropped URLs. A state with spilled URLs needs {@link #spillTo} with the same directory.
     * The Sieve is not part of the state: pass one restored by the caller.
     *
     * @throws IOException if the state is malformed or a spill file it refers to is missing or
     *     short; the message names the problem and the file
     */
    public LocalFrontier restore(DataInputStream in) throws IOException {
      return restore(in, List.of());
    }

    /**
     * Builds a frontier from a saved state and the journals written after it (see {@link
     * LocalFrontier#replay}); the leases out at save time, and those taken in the journals and
     * never given back, go first in their hosts' queues.
     */
    public LocalFrontier restore(DataInputStream in, List<Path> journals) throws IOException {
      validate();
      LocalFrontier frontier = LocalFrontier.restore(this, in);
      frontier.replay(journals);
      return frontier;
    }

    private void validate() {
      if (spillDir != null) {
        PendingStore.checkBudget(pendingMemoryBytes);
      }
      if (segmentBytes <= 0) {
        throw new IllegalArgumentException("segmentBytes (" + segmentBytes + ") must be > 0");
      }
      if (politenessDelay.isNegative()) {
        throw new IllegalArgumentException(
            "politenessDelay (" + politenessDelay + ") must be >= 0");
      }
      if (maxInFlightPerHost < 1) {
        throw new IllegalArgumentException(
            "maxInFlightPerHost (" + maxInFlightPerHost + ") must be >= 1");
      }
      if (maxUrlsPerHost < 1) {
        throw new IllegalArgumentException("maxUrlsPerHost (" + maxUrlsPerHost + ") must be >= 1");
      }
    }
  }
}
