package dev.sieve.frontier.spill;

import dev.sieve.frontier.Lease;
import java.io.IOException;
import java.util.Arrays;

/**
 * The pending URLs of one politeness key, first in first out, held compactly ({@link
 * PendingCodec}) in three parts, in order: the <em>head</em> in memory, where URLs are taken
 * from; <em>runs</em> spilled to the store's {@link SegmentFiles}, oldest first; and the
 * <em>tail</em> in memory, where URLs are added. Head and tail are byte arrays of entries {@code
 * [varint length][entry bytes]}, the form chunks have on disk, so spilling writes them as they are
 * and a loaded chunk becomes the head without copying.
 *
 * <p>{@link #addLast} appends to the tail; {@link #pollFirst} takes from the head, which is
 * refilled from the next chunk of the first run or, when nothing is spilled, by taking over the
 * tail; {@link #addFirst} prepends to the head. The {@link PendingStore} spills tails (appended as
 * the last run) and heads (prepended as the first run) when its memory is over budget.
 *
 * <p>Not thread-safe: guarded by the frontier's lock. The store it belongs to accounts for its
 * memory.
 */
public final class PendingQueue {
  private static final int HEAD_SLACK = 32;

  final String key;
  final PendingStore store;

  byte[] head;
  int headPos;
  int headEnd;
  int headCount;

  /** A ring of runs, two longs each ({@link RunPointer#pointer}, {@link RunPointer#progress}). */
  long[] runs;
  int runFirst;
  int runCount;
  long runEntries;

  byte[] tail;
  int tailEnd;
  int tailCount;

  PendingQueue(String key, PendingStore store) {
    this.key = key;
    this.store = store;
  }

  public String key() {
    return key;
  }

  public void addLast(Lease lease) {
    addLastEntry(PendingCodec.encode(lease));
  }

  /**
   * Appends an entry in a form of the caller's ({@code serve}'s URLs are not {@link Lease}s): the
   * queue keeps, spills and returns its bytes as they are.
   */
  public void addLastEntry(byte[] entry) {
    int need = PendingCodec.varintSize(entry.length) + entry.length;
    if (tail == null || tail.length - tailEnd < need) {
      int capacity = tail == null ? 0 : tail.length;
      byte[] grown = new byte[Math.max(tailEnd + need, Math.max(64, capacity + (capacity >> 1)))];
      if (tail != null) {
        System.arraycopy(tail, 0, grown, 0, tailEnd);
      }
      store.memoryChanged(PendingStore.arrayBytes(grown) - PendingStore.arrayBytes(tail));
      tail = grown;
    }
    tailEnd = PendingCodec.writeVarint(tail, tailEnd, entry.length);
    System.arraycopy(entry, 0, tail, tailEnd, entry.length);
    tailEnd += entry.length;
    tailCount++;
    store.entriesChanged(1);
  }

  public void addFirst(Lease lease) {
    addFirstEntry(PendingCodec.encode(lease));
  }

  /** Prepends an entry in a form of the caller's, as {@link #addLastEntry} appends one. */
  public void addFirstEntry(byte[] entry) {
    int need = PendingCodec.varintSize(entry.length) + entry.length;
    if (head == null || headPos < need) {
      int live = headEnd - headPos;
      byte[] grown = new byte[HEAD_SLACK + need + live];
      if (head != null) {
        System.arraycopy(head, headPos, grown, HEAD_SLACK + need, live);
      }
      store.memoryChanged(PendingStore.arrayBytes(grown) - PendingStore.arrayBytes(head));
      head = grown;
      headPos = HEAD_SLACK + need;
      headEnd = grown.length;
    }
    headPos -= need;
    int at = PendingCodec.writeVarint(head, headPos, entry.length);
    System.arraycopy(entry, 0, head, at, entry.length);
    headCount++;
    store.entriesChanged(1);
  }

  /**
   * Removes and returns the first URL, or null when empty.
   *
   * @throws java.io.UncheckedIOException when the next spilled chunk cannot be read or is
   *     corrupt, naming the segment file and offset; the queue is unchanged, so the next call
   *     fails the same way
   */
  public Lease pollFirst() {
    if (headCount == 0 && !fillHead()) {
      return null;
    }
    int length = PendingCodec.readVarint(head, headPos);
    int at = headPos + PendingCodec.varintSize(length);
    Lease lease = PendingCodec.decode(head, at, length, key);
    advance(at + length);
    return lease;
  }

  /**
   * Removes and returns the first entry's bytes (as {@link #addLastEntry} took them), or null when
   * empty; fails as {@link #pollFirst} does.
   */
  public byte[] pollFirstEntry() {
    if (headCount == 0 && !fillHead()) {
      return null;
    }
    int length = PendingCodec.readVarint(head, headPos);
    int at = headPos + PendingCodec.varintSize(length);
    byte[] entry = Arrays.copyOfRange(head, at, at + length);
    advance(at + length);
    return entry;
  }

  private void advance(int next) {
    headPos = next;
    headCount--;
    store.entriesChanged(-1);
    if (headCount == 0) {
      dropHead();
    }
  }

  /** Receives entries in order: {@code bytes[offset, offset + length)}, not to be kept. */
  public interface EntryVisitor {
    void visit(byte[] bytes, int offset, int length);
  }

  /**
   * Hands every entry to {@code visitor} in queue order without taking any: the head, each
   * spilled run (read back, chunk by chunk), the tail.
   *
   * @throws java.io.UncheckedIOException when a spilled chunk cannot be read or is corrupt
   */
  public void forEachEntry(EntryVisitor visitor) {
    visitEntries(head, headPos, headEnd, visitor);
    SegmentFiles files = store.files();
    for (int i = 0; i < runCount; i++) {
      int slot = 2 * ((runFirst + i) % (runs.length / 2));
      long position = runs[slot];
      int left = RunPointer.entriesOf(runs[slot + 1]);
      int bytes = RunPointer.nextChunkBytesOf(runs[slot + 1]);
      while (left > 0) {
        byte[] chunk = files.readChunk(position, bytes, key.hashCode(), left);
        visitEntries(chunk, ChunkFormat.HEADER_BYTES, chunk.length, visitor);
        left -= ChunkFormat.chunkEntries(chunk);
        position = RunPointer.pointer(RunPointer.segmentOf(position),
            RunPointer.offsetOf(position) + bytes);
        bytes = ChunkFormat.chunkNextBytes(chunk);
      }
    }
    visitEntries(tail, 0, tailEnd, visitor);
  }

  private static void visitEntries(byte[] bytes, int from, int to, EntryVisitor visitor) {
    for (int at = from; bytes != null && at < to; ) {
      int length = PendingCodec.readVarint(bytes, at);
      at += PendingCodec.varintSize(length);
      visitor.visit(bytes, at, length);
      at += length;
    }
  }

  private boolean fillHead() {
    if (runCount > 0) {
      loadChunk();
      return true;
    }
    if (tailCount > 0) {
      dropHead();
      head = tail;
      headPos = 0;
      headEnd = tailEnd;
      headCount = tailCount;
      tail = null;
      tailEnd = 0;
      tailCount = 0;
      return true;
    }
    return false;
  }

  /** Makes the next chunk of the first run the head. */
  private void loadChunk() {
    int slot = 2 * runFirst;
    long position = runs[slot];
    long progress = runs[slot + 1];
    int left = RunPointer.entriesOf(progress);
    int bytes = RunPointer.nextChunkBytesOf(progress);
    SegmentFiles files = store.files();
    byte[] chunk = files.readChunk(position, bytes, key.hashCode(), left);
    int count = ChunkFormat.chunkEntries(chunk);
    int next = ChunkFormat.chunkNextBytes(chunk);
    left -= count;
    int segment = RunPointer.segmentOf(position);
    long offset = RunPointer.offsetOf(position);
    if ((left == 0) != (next == 0)) {
      throw ChunkFormat.corrupt(files.path(segment), offset,
          "the run has " + left + " entries left but the next chunk is " + next + " bytes");
    }
    dropHead();
    head = chunk;
    headPos = ChunkFormat.HEADER_BYTES;
    headEnd = chunk.length;
    headCount = count;
    store.memoryChanged(PendingStore.arrayBytes(chunk));
    runEntries -= count;
    if (left > 0) {
      runs[slot] = RunPointer.pointer(segment, offset + bytes);
      runs[slot + 1] = RunPointer.progress(left, next);
    } else {
      removeFirstRun();
      files.release(segment);
    }
  }

  public long size() {
    return headCount + runEntries + tailCount;
  }

  public boolean isEmpty() {
    return size() == 0;
  }

  /** Drops every URL; returns how many. */
  public long clear() {
    long dropped = size();
    dropHead();
    store.memoryChanged(-PendingStore.arrayBytes(tail));
    tail = null;
    tailEnd = 0;
    tailCount = 0;
    while (runCount > 0) {
      int segment = RunPointer.segmentOf(runs[2 * runFirst]);
      removeFirstRun();
      store.files().release(segment);
    }
    runEntries = 0;
    store.entriesChanged(-dropped);
    return dropped;
  }

  private void dropHead() {
    store.memoryChanged(-PendingStore.arrayBytes(head));
    head = null;
    headPos = 0;
    headEnd = 0;
    headCount = 0;
  }

  // ---- Runs ----

  void addRun(long position, long progress, boolean first) {
    int capacity = runs == null ? 0 : runs.length / 2;
    if (runCount == capacity) {
      long[] grown = new long[2 * Math.max(2, capacity * 2)];
      for (int i = 0; i < runCount; i++) {
        int from = 2 * ((runFirst + i) % capacity);
        grown[2 * i] = runs[from];
        grown[2 * i + 1] = runs[from + 1];
      }
      store.memoryChanged(PendingStore.arrayBytes(grown) - PendingStore.arrayBytes(runs));
      runs = grown;
      runFirst = 0;
      capacity = grown.length / 2;
    }
    int index;
    if (first) {
      runFirst = (runFirst - 1 + capacity) % capacity;
      index = runFirst;
    } else {
      index = (runFirst + runCount) % capacity;
    }
    runs[2 * index] = position;
    runs[2 * index + 1] = progress;
    runCount++;
  }

  private void removeFirstRun() {
    runFirst = (runFirst + 1) % (runs.length / 2);
    runCount--;
    if (runCount == 0) {
      store.memoryChanged(-PendingStore.arrayBytes(runs));
      runs = null;
      runFirst = 0;
    }
  }

  // ---- Spilling, driven by the store ----

  int tailCount() {
    return tailCount;
  }

  int headCount() {
    return headCount;
  }

  long tailMemory() {
    return PendingStore.arrayBytes(tail);
  }

  long headMemory() {
    return PendingStore.arrayBytes(head);
  }

  /** Writes the tail as a run; {@link #tailSpilled} makes it one once the pass is written. */
  long writeTail(SegmentFiles files, int chunkBytes, long[] progress) throws IOException {
    return files.appendRun(key.hashCode(), tail, 0, tailEnd, tailCount, chunkBytes, progress);
  }

  /** Writes the head as a run; {@link #headSpilled} makes it one once the pass is written. */
  long writeHead(SegmentFiles files, int chunkBytes, long[] progress) throws IOException {
    return files.appendRun(key.hashCode(), head, headPos, headEnd, headCount, chunkBytes, progress);
  }

  void tailSpilled(long position, long progress) {
    addRun(position, progress, false);
    runEntries += tailCount;
    store.memoryChanged(-PendingStore.arrayBytes(tail));
    tail = null;
    tailEnd = 0;
    tailCount = 0;
  }

  void headSpilled(long position, long progress) {
    addRun(position, progress, true);
    runEntries += headCount;
    dropHead();
  }

  /** Runs spilled, for tests. */
  int runCount() {
    return runCount;
  }

}
