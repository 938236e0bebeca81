package dev.sieve.frontier.spill;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.Set;

/**
 * A {@link PendingQueue} in a saved state: its key, head entries, spilled runs (references into
 * segment files, not copies) and tail entries, as {@link PendingStore#writeState} writes them.
 */
final class QueueState {
  private QueueState() {}


  /**
   * Writes the queue in order: key, head entries, runs (references into segment files, whose ids
   * go to {@code segments}), tail entries.
   */
  static void write(PendingQueue q, DataOutputStream out, Set<Integer> segments)
      throws IOException {
    out.writeUTF(q.key);
    writeEntries(out, q.headCount, q.head, q.headPos, q.headEnd);
    out.writeInt(q.runCount);
    for (int i = 0; i < q.runCount; i++) {
      int slot = 2 * ((q.runFirst + i) % (q.runs.length / 2));
      int segment = RunPointer.segmentOf(q.runs[slot]);
      segments.add(segment);
      out.writeInt(segment);
      out.writeLong(RunPointer.offsetOf(q.runs[slot]));
      out.writeInt(RunPointer.entriesOf(q.runs[slot + 1]));
      out.writeInt(RunPointer.nextChunkBytesOf(q.runs[slot + 1]));
    }
    writeEntries(out, q.tailCount, q.tail, 0, q.tailEnd);
  }

  private static void writeEntries(DataOutputStream out, int count, byte[] bytes, int from, int to)
      throws IOException {
    out.writeInt(count);
    out.writeInt(to - from);
    if (to > from) {
      out.write(bytes, from, to - from);
    }
  }

  /**
   * Reads a queue written by {@link #write}; its runs are not yet retained in segment files,
   * see {@link #retainRuns}. Bad data is an IOException naming the queue and the problem.
   */
  static PendingQueue read(DataInputStream in, PendingStore store, Set<Integer> segments)
      throws IOException {
    PendingQueue queue = new PendingQueue(in.readUTF(), store);
    queue.headCount = readCount(in, queue.key, "head");
    queue.head = readEntries(queue, in, queue.headCount, "head");
    queue.headEnd = queue.head == null ? 0 : queue.head.length;
    int runCount = readCount(in, queue.key, "run");
    for (int i = 0; i < runCount; i++) {
      int segment = in.readInt();
      long offset = in.readLong();
      int entries = in.readInt();
      int nextBytes = in.readInt();
      if (segment < 0 || offset < 0 || entries < 1 || nextBytes < ChunkFormat.HEADER_BYTES) {
        throw new IOException("pending state: queue '" + queue.key + "': bad run (segment "
            + segment + ", offset " + offset + ", " + entries + " entries, chunk " + nextBytes
            + " bytes)");
      }
      segments.add(segment);
      queue.addRun(RunPointer.pointer(segment, offset),
          RunPointer.progress(entries, nextBytes), false);
      queue.runEntries += entries;
    }
    queue.tailCount = readCount(in, queue.key, "tail");
    queue.tail = readEntries(queue, in, queue.tailCount, "tail");
    queue.tailEnd = queue.tail == null ? 0 : queue.tail.length;
    store.entriesChanged(queue.size());
    return queue;
  }

  private static int readCount(DataInputStream in, String key, String what) throws IOException {
    int count = in.readInt();
    if (count < 0) {
      throw new IOException("pending state: queue '" + key + "': " + what + " count " + count
          + " is negative");
    }
    return count;
  }

  private static byte[] readEntries(PendingQueue queue, DataInputStream in, int count,
      String what) throws IOException {
    int bytes = in.readInt();
    if (bytes < 0 || bytes > (1 << 30) || (count == 0) != (bytes == 0)) {
      throw new IOException("pending state: queue '" + queue.key + "': " + what + " of " + count
          + " entries in " + bytes + " bytes");
    }
    if (bytes == 0) {
      return null;
    }
    byte[] entries = new byte[bytes];
    in.readFully(entries);
    int found = PendingCodec.countEntries(entries);
    if (found != count) {
      throw new IOException("pending state: queue '" + queue.key + "': " + what + " entries are malformed"
          + " (expected " + count + ")");
    }
    queue.store.memoryChanged(PendingStore.arrayBytes(entries));
    return entries;
  }

  /** Checks the runs read by {@link #read} against their files and marks them live. */
  static void retainRuns(PendingQueue q, SegmentFiles files) throws IOException {
    for (int i = 0; i < q.runCount; i++) {
      int slot = 2 * ((q.runFirst + i) % (q.runs.length / 2));
      files.checkInside(q.runs[slot], RunPointer.nextChunkBytesOf(q.runs[slot + 1]));
      files.retain(RunPointer.segmentOf(q.runs[slot]));
    }
  }
}
