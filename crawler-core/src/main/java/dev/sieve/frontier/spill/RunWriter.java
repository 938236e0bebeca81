package dev.sieve.frontier.spill;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.zip.CRC32C;

/**
 * Appends runs to the end of one segment during a spill pass: cuts each run into chunks of
 * bounded size ({@link ChunkFormat}) and writes them through one reused buffer. What it wrote is
 * on disk after {@link #finish}; the segment's size is left to the caller. Not thread-safe:
 * guarded by the frontier's lock.
 */
final class RunWriter {
  private static final int HEADER_BYTES = ChunkFormat.HEADER_BYTES;

  private final CRC32C crc = new CRC32C();
  private final ByteBuffer header = ByteBuffer.allocate(HEADER_BYTES).order(ByteOrder.BIG_ENDIAN);
  private ByteBuffer buffer;
  /** Where a run is cut into chunks, reused. */
  private int[] cuts = new int[64];
  private Segment segment;
  /** Where the next byte goes: the end of what this pass wrote, buffered or not. */
  private long end;

  /** Starts writing at the end of {@code segment}. */
  void start(Segment segment) {
    if (buffer == null) {
      buffer = ByteBuffer.allocate(256 << 10);
    }
    this.segment = segment;
    this.end = segment.size;
  }

  /** Whether bytes of this pass that {@code segment}'s size does not count yet go to it. */
  boolean writingTo(Segment segment) {
    return this.segment == segment && end > segment.size;
  }

  /**
   * Appends one run: the entries {@code bytes[from, to)} ({@code count} of them) of the host
   * whose key hashes to {@code hostHash}, cut into chunks of at most {@code chunkBytes} body bytes
   * (or one entry, if larger). Returns the run's position; {@code progress} gets its progress.
   */
  long appendRun(int hostHash, byte[] bytes, int from, int to, int count, int chunkBytes,
      long[] progress) throws IOException {
    long start = end;
    if (start + (to - from) + (long) HEADER_BYTES * count > RunPointer.MAX_OFFSET) {
      throw new IOException("pending segment " + segment.path + " is too large");
    }
    // Cut first: each chunk's header names the length of the next.
    int cutCount = cut(bytes, from, to, count, chunkBytes);
    int firstChunkBytes = 0;
    int chunkFrom = from;
    for (int i = 0; i < cutCount; i++) {
      int chunkTo = cuts[i];
      int nextBytes = i + 1 < cutCount ? HEADER_BYTES + cuts[i + 1] - chunkTo : 0;
      ChunkFormat.header(header, crc, bytes, chunkFrom, chunkTo, hostHash, nextBytes);
      if (i == 0) {
        firstChunkBytes = HEADER_BYTES + chunkTo - chunkFrom;
      }
      put(header.array(), 0, HEADER_BYTES);
      put(bytes, chunkFrom, chunkTo - chunkFrom);
      chunkFrom = chunkTo;
    }
    progress[0] = RunPointer.progress(count, firstChunkBytes);
    return RunPointer.pointer(segment.id, start);
  }

  /** Fills {@link #cuts} with the end of each chunk of the run; returns how many chunks. */
  private int cut(byte[] bytes, int from, int to, int count, int chunkBytes) {
    if (cuts.length < count + 1) {
      cuts = new int[count + 1];
    }
    int chunkStart = from;
    int chunkCount = 0;
    int entries = 0;
    int cutCount = 0;
    for (int at = from; at < to; ) {
      int length = PendingCodec.readVarint(bytes, at);
      int next = at + PendingCodec.varintSize(length) + length;
      if (chunkCount > 0 && next - chunkStart > chunkBytes) {
        cuts[cutCount++] = at;
        chunkStart = at;
        chunkCount = 0;
      }
      chunkCount++;
      entries++;
      at = next;
    }
    if (entries != count) {
      throw new IllegalStateException("run holds " + entries + " entries, expected " + count);
    }
    cuts[cutCount++] = to;
    return cutCount;
  }

  private void put(byte[] bytes, int offset, int length) throws IOException {
    while (length > 0) {
      if (!buffer.hasRemaining()) {
        flush();
      }
      int n = Math.min(length, buffer.remaining());
      buffer.put(bytes, offset, n);
      offset += n;
      length -= n;
      end += n;
    }
  }

  private void flush() throws IOException {
    buffer.flip();
    segment.write(buffer, end - buffer.remaining());
    buffer.clear();
  }

  /** Writes out what is buffered; returns the end of what this pass wrote. */
  long finish() throws IOException {
    flush();
    return end;
  }

  /** Forgets what this pass wrote: the next byte goes to the segment's end again. */
  void abort() {
    buffer.clear();
    end = segment.size;
  }
}
