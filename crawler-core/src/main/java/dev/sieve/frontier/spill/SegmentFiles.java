package dev.sieve.frontier.spill;

import dev.sieve.files.Fsync;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Set;
import java.util.TreeMap;
import java.util.zip.CRC32C;

/**
 * The segment files that spilled pending URLs live in: shared, append-only files ({@link
 * Segment}) in one directory, each holding the chunks of many hosts.
 *
 * <p>A <em>chunk</em> is a run of one host's entries ({@code [varint length][entry bytes]}, the
 * in-memory form of a {@link PendingQueue}) behind a checksummed header ({@link ChunkFormat}),
 * which names the length of the next chunk of the same run. A spill writes each host's
 * entries as one <em>run</em> of consecutive chunks of bounded size, so loading the next chunk is
 * one read of a known length and never costs more than a chunk of memory. A run is addressed by
 * two longs ({@link RunPointer}): segment id and offset of its next chunk, and the entries left and
 * the next chunk's length. Runs are cut and written by a {@link RunWriter}.
 *
 * <p>A segment is deleted when no live run is in it and neither the last durable state nor the
 * last written state refers to it ({@link #stateWritten}, {@link #stateDurable}). Spills are
 * written in passes ({@link #beginPass}, {@link #endPass}, {@link #abortPass}); a pass goes to the
 * current segment, and a new segment is started before a pass once the current one has reached
 * {@link #segmentBytes}, so a segment may exceed it by one pass.
 *
 * <p>Not thread-safe: guarded by the frontier's lock.
 */
final class SegmentFiles {
  static final long DEFAULT_SEGMENT_BYTES = 64L << 20;
  private static final int HEADER_BYTES = ChunkFormat.HEADER_BYTES;
  private static final int MAX_SEGMENT_ID = (1 << 23) - 1;

  private final Path dir;
  private final long segmentBytes;
  private final TreeMap<Integer, Segment> segments = new TreeMap<>();
  private final CRC32C crc = new CRC32C();
  private final RunWriter writer = new RunWriter();
  private Segment current;
  private int nextId;
  private long diskBytes;
  private boolean dirUnsynced;
  /** Segments the last durable state refers to. */
  private Set<Integer> durable = Set.of();
  /** Segments the last written, not yet durable, state refers to; empty when none. */
  private Set<Integer> written = Set.of();

  // The pass being written: its segment, and whether the pass created it, for abortPass.
  private Segment passSegment;
  private boolean passCreated;

  private SegmentFiles(Path dir, long segmentBytes) {
    this.dir = dir;
    this.segmentBytes = segmentBytes;
  }

  /**
   * Segment files in {@code dir} for a new frontier: creates the directory and deletes segment
   * files an earlier run left there (nothing else), since no state of this frontier refers to
   * them.
   */
  static SegmentFiles create(Path dir, long segmentBytes) throws IOException {
    SegmentFiles files = new SegmentFiles(dir, segmentBytes);
    Files.createDirectories(dir);
    for (int id : Segment.existingIds(dir)) {
      Files.deleteIfExists(files.path(id));
      files.nextId = Math.max(files.nextId, id + 1);
    }
    return files;
  }

  /**
   * Segment files in {@code dir} for a frontier restored from a state that refers to {@code
   * referenced}: opens those (an IOException names one that is missing), keeps them as the
   * durable state's, and deletes the other segment files, written after that state.
   */
  static SegmentFiles restore(Path dir, long segmentBytes, Set<Integer> referenced, int nextId)
      throws IOException {
    SegmentFiles files = new SegmentFiles(dir, segmentBytes);
    Files.createDirectories(dir);
    files.nextId = nextId;
    for (int id : Segment.existingIds(dir)) {
      files.nextId = Math.max(files.nextId, id + 1);
      if (!referenced.contains(id)) {
        Files.deleteIfExists(files.path(id));
      }
    }
    for (int id : referenced) {
      Segment segment = Segment.open(dir, id);
      files.segments.put(id, segment);
      files.diskBytes += segment.size;
      files.nextId = Math.max(files.nextId, id + 1);
    }
    files.durable = Set.copyOf(referenced);
    return files;
  }

  Path path(int id) {
    return Segment.path(dir, id);
  }

  Path dir() {
    return dir;
  }

  /** Bytes of segment files on disk, live or kept for a state. */
  long diskBytes() {
    return diskBytes;
  }

  // ---- Writing ----

  /** Starts a spill pass; its runs are not readable until {@link #endPass}. */
  void beginPass() throws IOException {
    passCreated = false;
    if (current == null || current.size >= segmentBytes) {
      if (nextId > MAX_SEGMENT_ID) {
        throw new IOException("pending segments in " + dir + " ran out of ids (" + nextId + ")");
      }
      Segment segment = Segment.create(dir, nextId++);
      Segment previous = current;
      segments.put(segment.id, segment);
      current = segment;
      passCreated = true;
      dirUnsynced = true;
      if (previous != null) {
        deleteIfUnreferenced(previous);
      }
    }
    passSegment = current;
    writer.start(current);
  }

  /** Appends one run to the pass; see {@link RunWriter#appendRun}. */
  long appendRun(int hostHash, byte[] bytes, int from, int to, int count, int chunkBytes,
      long[] progress) throws IOException {
    return writer.appendRun(hostHash, bytes, from, to, count, chunkBytes, progress);
  }

  /** Ends the pass: its runs are written and readable. */
  void endPass() throws IOException {
    long end = writer.finish();
    diskBytes += end - current.size;
    current.size = end;
    current.unsynced = true;
  }

  /** Forgets a pass that failed: the segment is as before (a segment the pass created is gone). */
  void abortPass() {
    writer.abort();
    if (passCreated) {
      segments.remove(passSegment.id);
      passSegment.closeQuietly();
      try {
        Files.deleteIfExists(passSegment.path);
      } catch (IOException e) {
        // Unreferenced: a later create() or restore() deletes it.
      }
      current = null;
    }
  }

  /** A run in {@code segment} became live. */
  void retain(int segment) {
    segments.get(segment).runs++;
  }

  /** A run in {@code segment} was read to its end or dropped. */
  void release(int segment) {
    Segment s = segments.get(segment);
    s.runs--;
    deleteIfUnreferenced(s);
  }

  // ---- Reading ----

  /**
   * Reads the chunk at {@code position} of {@code bytes} bytes and checks it, with the host's
   * {@code hostHash} and the {@code entriesLeft} in its run.
   *
   * @return the whole chunk, header included; entries start at {@link ChunkFormat#HEADER_BYTES}
   * @throws UncheckedIOException when the read fails or the chunk is corrupt, naming the file
   *     and offset
   */
  byte[] readChunk(long position, int bytes, int hostHash, int entriesLeft) {
    int id = RunPointer.segmentOf(position);
    long offset = RunPointer.offsetOf(position);
    Segment segment = segments.get(id);
    if (segment == null) {
      throw ChunkFormat.corrupt(path(id), offset, "its segment is not open");
    }
    if (bytes < HEADER_BYTES) {
      throw ChunkFormat.corrupt(segment.path, offset, "chunk length " + bytes + " is below the header's");
    }
    byte[] chunk = segment.read(offset, bytes);
    ChunkFormat.check(chunk, crc, hostHash, entriesLeft, segment.path, offset);
    return chunk;
  }

  /** Checks that the chunk at {@code position} lies inside its segment file. */
  void checkInside(long position, int bytes) throws IOException {
    Segment segment = segments.get(RunPointer.segmentOf(position));
    long end = RunPointer.offsetOf(position) + bytes;
    if (segment == null || end > segment.size) {
      Path path = segment == null ? path(RunPointer.segmentOf(position)) : segment.path;
      throw new IOException("pending segment " + path + " is "
          + (segment == null ? "not open" : segment.size + " bytes")
          + " but the saved frontier state refers to bytes up to " + end + " (truncated?)");
    }
  }

  // ---- State retention ----

  /**
   * Makes everything written so far durable (fsync), before a state that refers to it is
   * written.
   */
  void sync() throws IOException {
    for (Segment segment : segments.values()) {
      segment.sync();
    }
    if (dirUnsynced) {
      Fsync.directory(dir);
      dirUnsynced = false;
    }
  }

  /** A state referring to {@code referenced} was written; it is kept until the next one. */
  void stateWritten(Set<Integer> referenced) {
    Set<Integer> superseded = written;
    written = Set.copyOf(referenced);
    deleteUnreferenced(superseded);
  }

  /** The last written state is durable: segments only earlier states refer to can go. */
  void stateDurable() {
    Set<Integer> superseded = durable;
    durable = written;
    written = Set.of();
    deleteUnreferenced(superseded);
  }

  private void deleteUnreferenced(Set<Integer> candidates) {
    for (int id : new ArrayList<>(candidates)) {
      Segment segment = segments.get(id);
      if (segment != null) {
        deleteIfUnreferenced(segment);
      }
    }
  }

  private void deleteIfUnreferenced(Segment segment) {
    if (segment.runs > 0 || durable.contains(segment.id) || written.contains(segment.id)) {
      return;
    }
    if (segment == current && writer.writingTo(segment)) {
      return; // a pass is being written to it
    }
    segments.remove(segment.id);
    if (segment == current) {
      current = null;
    }
    segment.closeQuietly();
    try {
      Files.deleteIfExists(segment.path);
    } catch (IOException e) {
      throw new UncheckedIOException(
          "cannot delete pending segment " + segment.path + ": " + e.getMessage(), e);
    }
    diskBytes -= segment.size;
  }

  int nextId() {
    return nextId;
  }
}
