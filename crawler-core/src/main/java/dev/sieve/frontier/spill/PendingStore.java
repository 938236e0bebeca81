package dev.sieve.frontier.spill;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every pending URL of a frontier, one {@link PendingQueue} per politeness key, with the memory
 * they take accounted: either all in memory ({@link #inMemory}) or within a memory budget, the
 * rest spilled to segment files in a directory ({@link #spilling}).
 *
 * <p><b>Memory</b> counts what the JVM holds for pending URLs: the byte arrays of heads, tails and
 * run pointers (array header and padding included; entries are their encoded bytes and a varint
 * length, no per-entry object) and {@link #HOST_OVERHEAD} plus the key's length per host, which
 * covers the frontier's record of the host as well as the queue. When a spilling store is over
 * budget ({@link #enforceBudget}), it writes the largest tails, then if need be the largest heads,
 * to disk until it is at three quarters of the budget; chunks are at most {@link #chunkBytes()}
 * (a quarter of the budget shared by the hosts, between 512 B and 64 KiB), so the heads of all
 * hosts, one chunk each, stay within that quarter.
 *
 * <p><b>Errors.</b> A spill that cannot be written throws an {@link UncheckedIOException} naming
 * the directory, and keeps the URLs in memory. A spilled chunk that cannot be read, or is corrupt
 * (CRC32C, length or header mismatch), throws an UncheckedIOException naming the file and offset
 * from {@link PendingQueue#pollFirst}, every time it is tried: the crawl stops on it rather than
 * losing URLs silently.
 *
 * <p><b>State.</b> {@link #writeState} writes every queue in order: head entries, then references
 * to the spilled runs (not copies), then tail entries; {@link #readState} reads it back over the
 * same directory. Segment files a written state refers to are kept until a later state is written
 * and declared durable with {@link #stateDurable}, so the last durable state always finds its
 * data.
 *
 * <p>Not thread-safe: guarded by the frontier's lock.
 */
public final class PendingStore {
  /**
   * Bytes per host beyond its pending URLs: the frontier's {@code HostQueue} (56) with its map
   * entry (~40) and key String (40 + the key's length), the {@link PendingQueue} (72), and slots in
   * the ready heap and the store's list (8).
   */
  static final int HOST_OVERHEAD = 216;

  static final int ARRAY_HEADER = 16;
  static final int MIN_CHUNK_BYTES = 512;
  static final int MAX_CHUNK_BYTES = 64 << 10;
  /** The size at which a spill file is closed and a new one started, by default (64 MiB). */
  public static final long DEFAULT_SEGMENT_BYTES = SegmentFiles.DEFAULT_SEGMENT_BYTES;

  private static final Logger log = LoggerFactory.getLogger(PendingStore.class);
  private static final int MAGIC = 0x53504e44; // "SPND"
  private static final int VERSION = 1;

  private SegmentFiles files;
  private final long budget;
  private final List<PendingQueue> queues = new ArrayList<>();
  private long entries;
  private long memoryBytes;
  private long spillAt;
  private boolean warnedOverhead;
  private long spills;

  private PendingStore(SegmentFiles files, long budget) {
    this.files = files;
    this.budget = budget;
    this.spillAt = budget;
  }

  /** A store that keeps every pending URL in memory. */
  public static PendingStore inMemory() {
    return new PendingStore(null, Long.MAX_VALUE);
  }

  /**
   * A store that keeps pending URLs within {@code memoryBudgetBytes} of memory, the rest in
   * segment files in {@code dir}. The directory is created if need be; segment files left in it
   * by an earlier run are deleted (use {@link #readState} to resume from them).
   *
   * @throws IllegalArgumentException if the budget is not positive
   * @throws UncheckedIOException if the directory cannot be prepared
   */
  static PendingStore spilling(Path dir, long memoryBudgetBytes) {
    return spilling(dir, memoryBudgetBytes, SegmentFiles.DEFAULT_SEGMENT_BYTES);
  }

  public static PendingStore spilling(Path dir, long memoryBudgetBytes, long segmentBytes) {
    Objects.requireNonNull(dir, "dir");
    checkBudget(memoryBudgetBytes);
    try {
      return new PendingStore(SegmentFiles.create(dir, segmentBytes), memoryBudgetBytes);
    } catch (IOException e) {
      throw new UncheckedIOException(
          "cannot prepare the pending spill directory " + dir + ": " + e.getMessage(), e);
    }
  }

  public static void checkBudget(long memoryBudgetBytes) {
    if (memoryBudgetBytes <= 0) {
      throw new IllegalArgumentException(
          "pendingMemoryBytes (" + memoryBudgetBytes + ") must be > 0");
    }
  }

  /** A new, empty queue for {@code key}. */
  public PendingQueue queue(String key) {
    return add(new PendingQueue(key, this));
  }

  private PendingQueue add(PendingQueue queue) {
    queues.add(queue);
    memoryChanged(HOST_OVERHEAD + queue.key().length());
    return queue;
  }

  /** Drops {@code queue}'s URLs (its spilled runs released) and the queue itself. */
  public void remove(PendingQueue queue) {
    queue.clear();
    if (queues.remove(queue)) {
      memoryChanged(-(HOST_OVERHEAD + queue.key().length()));
    }
  }

  /** The queues, in the order they were made. */
  public List<PendingQueue> queues() {
    return Collections.unmodifiableList(queues);
  }

  SegmentFiles files() {
    return files;
  }

  void entriesChanged(long delta) {
    entries += delta;
  }

  void memoryChanged(long delta) {
    memoryBytes += delta;
  }

  /** Pending URLs in all queues. */
  public long size() {
    return entries;
  }

  /** Bytes of memory the pending URLs take, estimated. */
  public long memoryBytes() {
    return memoryBytes;
  }

  /** Bytes of segment files on disk (0 in memory). */
  public long diskBytes() {
    return files == null ? 0 : files.diskBytes();
  }

  /** Spill passes so far. */
  long spills() {
    return spills;
  }

  /** Body bytes per spilled chunk: a quarter of the budget shared by the hosts, bounded. */
  int chunkBytes() {
    long share = budget / 4 / Math.max(1, queues.size());
    return (int) Math.max(MIN_CHUNK_BYTES, Math.min(MAX_CHUNK_BYTES, share));
  }

  /**
   * Spills to disk if memory is over budget (nothing for an in-memory store).
   *
   * @throws UncheckedIOException if the spill cannot be written; nothing is lost
   */
  public void enforceBudget() {
    if (files == null || memoryBytes <= spillAt) {
      return;
    }
    long target = budget - budget / 4;
    long projected = memoryBytes;
    List<PendingQueue> tails = new ArrayList<>();
    List<PendingQueue> heads = new ArrayList<>();
    List<PendingQueue> byTail = new ArrayList<>();
    for (PendingQueue queue : queues) {
      if (queue.tailCount() > 0) {
        byTail.add(queue);
      }
    }
    byTail.sort(Comparator.comparingLong(PendingQueue::tailMemory).reversed());
    for (PendingQueue queue : byTail) {
      if (projected <= target) {
        break;
      }
      tails.add(queue);
      projected -= queue.tailMemory();
    }
    if (projected > target) {
      List<PendingQueue> byHead = new ArrayList<>();
      for (PendingQueue queue : queues) {
        if (queue.headCount() > 0) {
          byHead.add(queue);
        }
      }
      byHead.sort(Comparator.comparingLong(PendingQueue::headMemory).reversed());
      for (PendingQueue queue : byHead) {
        if (projected <= target) {
          break;
        }
        heads.add(queue);
        projected -= queue.headMemory();
      }
    }
    if (!tails.isEmpty() || !heads.isEmpty()) {
      spill(tails, heads);
    }
    if (memoryBytes > budget) {
      // What is left cannot be spilled (per-host records, run pointers): spill again only after
      // real growth, not on every call.
      spillAt = Math.max(budget, memoryBytes + budget / 4);
      if (!warnedOverhead) {
        warnedOverhead = true;
        log.warn("Pending URL memory budget {} B is too small for {} hosts ({} B in memory after"
            + " spilling every pending URL it could): raise it", budget, queues.size(), memoryBytes);
      }
    } else {
      spillAt = budget;
    }
  }

  private void spill(List<PendingQueue> tails, List<PendingQueue> heads) {
    int chunkBytes = chunkBytes();
    long[] tailRuns = new long[2 * tails.size()];
    long[] headRuns = new long[2 * heads.size()];
    long[] progress = new long[1];
    try {
      files.beginPass();
      for (int i = 0; i < tails.size(); i++) {
        tailRuns[2 * i] = tails.get(i).writeTail(files, chunkBytes, progress);
        tailRuns[2 * i + 1] = progress[0];
      }
      for (int i = 0; i < heads.size(); i++) {
        headRuns[2 * i] = heads.get(i).writeHead(files, chunkBytes, progress);
        headRuns[2 * i + 1] = progress[0];
      }
      files.endPass();
    } catch (IOException e) {
      files.abortPass();
      throw new UncheckedIOException(
          "cannot spill pending URLs to " + files.dir() + ": " + e.getMessage(), e);
    }
    for (int i = 0; i < tails.size(); i++) {
      files.retain(RunPointer.segmentOf(tailRuns[2 * i]));
      tails.get(i).tailSpilled(tailRuns[2 * i], tailRuns[2 * i + 1]);
    }
    for (int i = 0; i < heads.size(); i++) {
      files.retain(RunPointer.segmentOf(headRuns[2 * i]));
      heads.get(i).headSpilled(headRuns[2 * i], headRuns[2 * i + 1]);
    }
    spills++;
  }

  // ---- State ----

  /**
   * Writes every queue, in order, to {@code out}: head entries inline, spilled runs as references
   * into segment files (forced to disk first), tail entries inline. Segment files the state refers
   * to are kept until a later state is written and declared durable.
   */
  public void writeState(DataOutputStream out) throws IOException {
    if (files != null) {
      files.sync();
    }
    out.writeInt(MAGIC);
    out.writeInt(VERSION);
    out.writeInt(files == null ? 0 : files.nextId());
    out.writeInt(queues.size());
    Set<Integer> segments = new HashSet<>();
    for (PendingQueue queue : queues) {
      QueueState.write(queue, out, segments);
    }
    out.writeInt(MAGIC);
    if (files != null) {
      files.stateWritten(segments);
    }
  }

  /**
   * The state last written by {@link #writeState} is durable: segment files that only earlier
   * states (and no pending URL) refer to are deleted.
   */
  public void stateDurable() {
    if (files != null) {
      files.stateDurable();
    }
  }

  /**
   * Reads a store written by {@link #writeState}. With a {@code dir}, the store spills there within
   * {@code memoryBudgetBytes}, keeps the segment files the state refers to until a later state is
   * durable, and deletes the other segment files in {@code dir}; without one, the state must not
   * refer to any segment.
   *
   * @throws IOException if the state is malformed or a segment file it refers to is missing or
   *     short; the message names the problem and the file
   */
  static PendingStore readState(DataInputStream in, Path dir, long memoryBudgetBytes)
      throws IOException {
    return readState(in, dir, memoryBudgetBytes, SegmentFiles.DEFAULT_SEGMENT_BYTES);
  }

  public static PendingStore readState(
      DataInputStream in, Path dir, long memoryBudgetBytes, long segmentBytes) throws IOException {
    if (dir != null) {
      checkBudget(memoryBudgetBytes);
    }
    int magic = in.readInt();
    if (magic != MAGIC) {
      throw new IOException(String.format(
          "pending state: bad magic %08x, expected %08x (not a frontier state?)", magic, MAGIC));
    }
    int version = in.readInt();
    if (version != VERSION) {
      throw new IOException("pending state: version " + version + " is not " + VERSION);
    }
    int nextId = in.readInt();
    int count = in.readInt();
    if (count < 0) {
      throw new IOException("pending state: queue count " + count + " is negative");
    }
    PendingStore store = new PendingStore(null, dir == null ? Long.MAX_VALUE : memoryBudgetBytes);
    Set<Integer> segments = new HashSet<>();
    for (int i = 0; i < count; i++) {
      store.add(QueueState.read(in, store, segments));
    }
    if (in.readInt() != MAGIC) {
      throw new IOException("pending state: no end marker after " + count + " queues");
    }
    if (dir == null) {
      if (!segments.isEmpty()) {
        throw new IOException("pending state refers to " + segments.size()
            + " spilled segment files, but the frontier has no spill directory");
      }
      return store;
    }
    store.files = SegmentFiles.restore(dir, segmentBytes, segments, nextId);
    for (PendingQueue queue : store.queues) {
      QueueState.retainRuns(queue, store.files);
    }
    return store;
  }

  /** The estimated memory of {@code array} (0 for null), header included. */
  static long arrayBytes(byte[] array) {
    return array == null ? 0 : ARRAY_HEADER + ((array.length + 7L) & ~7L);
  }

  static long arrayBytes(long[] array) {
    return array == null ? 0 : ARRAY_HEADER + 8L * array.length;
  }
}
