package dev.sieve.frontier.spill;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import java.util.zip.CRC32C;

/**
 * The segment files that spilled pending URLs live in: shared, append-only files named {@code
 * pending-NNNNNNNN.seg} in one directory, each holding the chunks of many hosts.
 *
 * <p>A <em>chunk</em> is a run of one host's entries ({@code [varint length][entry bytes]}, the
 * in-memory form of a {@link PendingQueue}) behind a 20-byte header: body length, entry count,
 * the host key's hash, the length of the next chunk of the same run (0 for the last) and a CRC32C
 * of the header's first 16 bytes and the body, all big-endian ints. A spill writes each host's
 * entries as one <em>run</em> of consecutive chunks of bounded size, so loading the next chunk is
 * one read of a known length and never costs more than a chunk of memory. A run is addressed by
 * two longs ({@link RunPointer}): segment id and offset of its next chunk, and the entries left and
 * the next chunk's length.
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
  static final int HEADER_BYTES = ChunkFormat.HEADER_BYTES;
  static final long DEFAULT_SEGMENT_BYTES = 64L << 20;
  private static final String PREFIX = "pending-";
  private static final String SUFFIX = ".seg";
  private static final int MAX_SEGMENT_ID = (1 << 23) - 1;

  private final Path dir;
  private final long segmentBytes;
  private final TreeMap<Integer, Segment> segments = new TreeMap<>();
  private final CRC32C crc = new CRC32C();
  private final ByteBuffer header = ByteBuffer.allocate(HEADER_BYTES).order(ByteOrder.BIG_ENDIAN);
  private ByteBuffer writeBuffer;
  /** Where a run is cut into chunks, reused. */
  private int[] cuts = new int[64];
  private Segment current;
  private int nextId;
  private long diskBytes;
  private boolean dirUnsynced;
  /** Segments the last durable state refers to. */
  private Set<Integer> durable = Set.of();
  /** Segments the last written, not yet durable, state refers to; empty when none. */
  private Set<Integer> written = Set.of();

  // The pass being written: where it started, for abortPass.
  private Segment passSegment;
  private long passStart;
  private boolean passCreated;
  private long passEnd;

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
    for (int id : files.existingIds()) {
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
    for (int id : files.existingIds()) {
      files.nextId = Math.max(files.nextId, id + 1);
      if (!referenced.contains(id)) {
        Files.deleteIfExists(files.path(id));
      }
    }
    for (int id : referenced) {
      Path path = files.path(id);
      FileChannel channel;
      try {
        channel = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE);
      } catch (NoSuchFileException e) {
        throw new IOException(
            "pending segment " + path + " is missing: the saved frontier state refers to it");
      }
      Segment segment = new Segment(id, path, channel);
      segment.size = channel.size();
      files.segments.put(id, segment);
      files.diskBytes += segment.size;
      files.nextId = Math.max(files.nextId, id + 1);
    }
    files.durable = Set.copyOf(referenced);
    return files;
  }

  private List<Integer> existingIds() throws IOException {
    List<Integer> ids = new ArrayList<>();
    try (DirectoryStream<Path> stream = Files.newDirectoryStream(dir, PREFIX + "*" + SUFFIX)) {
      for (Path path : stream) {
        String name = path.getFileName().toString();
        String digits = name.substring(PREFIX.length(), name.length() - SUFFIX.length());
        if (digits.length() == 8 && digits.chars().allMatch(c -> c >= '0' && c <= '9')) {
          ids.add(Integer.parseInt(digits));
        }
      }
    }
    return ids;
  }

  Path path(int id) {
    return dir.resolve(String.format("%s%08d%s", PREFIX, id, SUFFIX));
  }

  Path dir() {
    return dir;
  }

  /** Bytes of segment files on disk, live or kept for a state. */
  long diskBytes() {
    return diskBytes;
  }

  int segmentCount() {
    return segments.size();
  }

  // ---- Writing ----

  /** Starts a spill pass; its runs are not readable until {@link #endPass}. */
  void beginPass() throws IOException {
    passCreated = false;
    if (current == null || current.size >= segmentBytes) {
      if (nextId > MAX_SEGMENT_ID) {
        throw new IOException("pending segments in " + dir + " ran out of ids (" + nextId + ")");
      }
      Path path = path(nextId);
      FileChannel channel =
          FileChannel.open(
              path,
              StandardOpenOption.CREATE,
              StandardOpenOption.TRUNCATE_EXISTING,
              StandardOpenOption.READ,
              StandardOpenOption.WRITE);
      Segment segment = new Segment(nextId++, path, channel);
      Segment previous = current;
      segments.put(segment.id, segment);
      current = segment;
      passCreated = true;
      dirUnsynced = true;
      if (previous != null) {
        deleteIfUnreferenced(previous);
      }
    }
    if (writeBuffer == null) {
      writeBuffer = ByteBuffer.allocate(256 << 10);
    }
    passSegment = current;
    passStart = current.size;
    passEnd = current.size;
  }

  /**
   * Appends one run: the entries {@code bytes[from, to)} ({@code count} of them) of the host
   * whose key hashes to {@code hostHash}, cut into chunks of at most {@code chunkBytes} body bytes
   * (or one entry, if larger). Returns the run's position; {@code progress} gets its progress.
   */
  long appendRun(int hostHash, byte[] bytes, int from, int to, int count, int chunkBytes,
      long[] progress) throws IOException {
    long start = passEnd;
    if (start + (to - from) + (long) HEADER_BYTES * count > RunPointer.MAX_OFFSET) {
      throw new IOException("pending segment " + current.path + " is too large");
    }
    // Cut first: each chunk's header names the length of the next.
    int chunkStart = from;
    int chunkCount = 0;
    int firstChunkBytes = 0;
    int entries = 0;
    int[] cuts = cutBuffer(count);
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
    return RunPointer.pointer(current.id, start);
  }

  private int[] cutBuffer(int count) {
    if (cuts.length < count + 1) {
      cuts = new int[count + 1];
    }
    return cuts;
  }

  private void put(byte[] bytes, int offset, int length) throws IOException {
    while (length > 0) {
      if (!writeBuffer.hasRemaining()) {
        flush();
      }
      int n = Math.min(length, writeBuffer.remaining());
      writeBuffer.put(bytes, offset, n);
      offset += n;
      length -= n;
      passEnd += n;
    }
  }

  private void flush() throws IOException {
    writeBuffer.flip();
    long at = passEnd - writeBuffer.remaining();
    while (writeBuffer.hasRemaining()) {
      at += current.channel.write(writeBuffer, at);
    }
    writeBuffer.clear();
  }

  /** Ends the pass: its runs are written and readable. */
  void endPass() throws IOException {
    flush();
    diskBytes += passEnd - current.size;
    current.size = passEnd;
    current.unsynced = true;
  }

  /** Forgets a pass that failed: the segment is as before (a segment the pass created is gone). */
  void abortPass() {
    writeBuffer.clear();
    passEnd = passSegment.size;
    if (passCreated) {
      segments.remove(passSegment.id);
      closeQuietly(passSegment);
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
   * @return the whole chunk, header included; entries start at {@link #HEADER_BYTES}
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
    byte[] chunk = new byte[bytes];
    ByteBuffer buffer = ByteBuffer.wrap(chunk);
    try {
      while (buffer.hasRemaining()) {
        int n = segment.channel.read(buffer, offset + buffer.position());
        if (n < 0) {
          throw ChunkFormat.corrupt(segment.path, offset,
              "short read: " + buffer.position() + " of " + bytes + " bytes (file truncated?)");
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(
          "pending segment " + segment.path + ": cannot read the chunk at offset " + offset + ": "
              + e.getMessage(), e);
    }
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
      if (segment.unsynced) {
        segment.channel.force(false);
        segment.unsynced = false;
      }
    }
    if (dirUnsynced) {
      try (FileChannel directory = FileChannel.open(dir, StandardOpenOption.READ)) {
        directory.force(true);
      } catch (IOException e) {
        // Some platforms cannot open a directory; file data is forced above.
      }
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
    if (segment == current && passSegment == current && passEnd > current.size) {
      return; // a pass is being written to it
    }
    segments.remove(segment.id);
    if (segment == current) {
      current = null;
    }
    closeQuietly(segment);
    try {
      Files.deleteIfExists(segment.path);
    } catch (IOException e) {
      throw new UncheckedIOException(
          "cannot delete pending segment " + segment.path + ": " + e.getMessage(), e);
    }
    diskBytes -= segment.size;
  }

  private static void closeQuietly(Segment segment) {
    try {
      segment.channel.close();
    } catch (IOException e) {
      // Nothing to keep.
    }
  }

  /** Ids of the segments held, for tests. */
  Set<Integer> segmentIds() {
    return new HashSet<>(segments.keySet());
  }

  int nextId() {
    return nextId;
  }

  private static final class Segment {
    final int id;
    final Path path;
    final FileChannel channel;
    long size;
    /** Live runs in this segment. */
    int runs;
    boolean unsynced;

    Segment(int id, Path path, FileChannel channel) {
      this.id = id;
      this.path = path;
      this.channel = channel;
    }
  }
}
