package dev.sieve.frontier.local;

import dev.sieve.files.RecordLog;
import dev.sieve.frontier.Lease;
import dev.sieve.frontier.spill.PendingCodec;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import java.util.zip.CRC32C;

/**
 * An append-only log of a frontier's changes since its last saved state: replayed over that state
 * it rebuilds the frontier. Records are {@code type, varint length, payload, CRC32C}. Written
 * under the frontier's lock; flushed to the operating system when a URL completes (its links
 * were added just before), so a {@code kill -9} loses at most the changes of URLs still in
 * flight, which are fetched again.
 *
 * <p>A record cut short at the end of the file (a crash mid-write) is ignored on replay; a bad
 * record followed by more data means corruption and fails the replay with the file and offset.
 */
final class Journal implements FrontierLog, Closeable {
  static final byte ADDED = 'A';
  static final byte TAKEN = 'T';
  static final byte RETURNED = 'R';
  static final byte COMPLETED = 'D';
  static final byte SKIPPED = 'S';
  /** A retry: the lease given back, then the counters its attempt changed. */
  static final byte RETRIED = 'Q';
  /** A completion in a recrawl: the URL's next lease, its wall-clock due time, the counters. */
  static final byte RECRAWLED = 'W';
  /** A URL due again queued last on its host: its URL. */
  static final byte DUE = 'U';

  private final Path file;
  private final FileChannel channel;
  private final OutputStream out;
  private final ByteArrayOutputStream record = new ByteArrayOutputStream(256);
  private final CRC32C crc = new CRC32C();
  private long records;

  private Journal(Path file, FileChannel channel) {
    this.file = file;
    this.channel = channel;
    this.out = new BufferedOutputStream(Channels.newOutputStream(channel), 64 * 1024);
  }

  /** Opens {@code file} for appending, creating it if needed. */
  static Journal open(Path file) throws IOException {
    FileChannel channel = FileChannel.open(
        file, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.APPEND);
    return new Journal(file, channel);
  }

  Path file() {
    return file;
  }

  long records() {
    return records;
  }

  @Override
  public void added(Lease lease) {
    append(ADDED, lease.hostKey(), PendingCodec.encode(lease));
  }

  @Override
  public void taken(String hostKey) {
    append(TAKEN, hostKey, null);
  }

  @Override
  public void returned(Lease lease) {
    append(RETURNED, lease.hostKey(), PendingCodec.encode(lease));
  }

  @Override
  public void completed(Lease lease, Map<String, Long> counts) {
    // The URL, then (after a NUL, which no URL holds) the counters it changed, in one record: a
    // crash keeps both or neither.
    byte[] url = lease.url().toString().getBytes(StandardCharsets.UTF_8);
    append(COMPLETED, lease.hostKey(), counts.isEmpty() ? url : concat(url, new byte[] {0}, Counts.encode(counts)));
    flush();
  }

  @Override
  public void retried(Lease lease, Map<String, Long> counts) {
    byte[] encoded = PendingCodec.encode(lease);
    byte[] length = new byte[PendingCodec.varintSize(encoded.length)];
    PendingCodec.writeVarint(length, 0, encoded.length);
    append(RETRIED, lease.hostKey(), concat(length, encoded, Counts.encode(counts)));
  }

  @Override
  public void recrawled(Lease next, long dueMillis, Map<String, Long> counts) {
    byte[] encoded = PendingCodec.encode(next);
    byte[] length = new byte[PendingCodec.varintSize(encoded.length)];
    PendingCodec.writeVarint(length, 0, encoded.length);
    byte[] due = ByteBuffer.allocate(Long.BYTES).putLong(dueMillis).array();
    append(RECRAWLED, next.hostKey(), concat(length, encoded, due, Counts.encode(counts)));
    flush();
  }

  @Override
  public void due(Lease due) {
    append(DUE, due.hostKey(), due.url().toString().getBytes(StandardCharsets.UTF_8));
  }

  private static byte[] concat(byte[]... parts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] part : parts) {
      out.write(part, 0, part.length);
    }
    return out.toByteArray();
  }

  /** Flushes the records so far to the operating system: they survive the process dying. */
  @Override
  public void flushed() {
    flush();
  }

  @Override
  public void skipped(String hostKey) {
    append(SKIPPED, hostKey, null);
    flush();
  }

  private void append(byte type, String hostKey, byte[] body) {
    byte[] key = hostKey.getBytes(StandardCharsets.UTF_8);
    int length = PendingCodec.varintSize(key.length) + key.length + (body == null ? 0 : body.length);
    ByteBuffer payload = ByteBuffer.allocate(length);
    PendingCodec.putVarint(payload, key.length);
    payload.put(key);
    if (body != null) {
      payload.put(body);
    }
    try {
      RecordLog.write(out, crc, type, payload.array());
      records++;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write journal " + file + ": " + e.getMessage(), e);
    }
  }

  /** Hands what was written to the operating system (enough to survive the process dying). */
  void flush() {
    try {
      out.flush();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write journal " + file + ": " + e.getMessage(), e);
    }
  }

  /** Flushes and forces the file to disk. */
  void sync() throws IOException {
    out.flush();
    channel.force(false);
  }

  @Override
  public void close() throws IOException {
    out.flush();
    channel.close();
  }

  /** Receives the records of a journal in order. */
  interface Replay {
    void added(String hostKey, byte[] lease);

    void taken(String hostKey);

    void returned(String hostKey, byte[] lease);

    void completed(String hostKey, String url, Map<String, Long> counts);

    void retried(String hostKey, byte[] lease, Map<String, Long> counts);

    void recrawled(String hostKey, byte[] next, long dueMillis, Map<String, Long> counts);

    void due(String hostKey, String url);

    void skipped(String hostKey);
  }

  /**
   * Replays {@code file}; a missing file replays nothing, a torn tail is logged and ignored.
   *
   * @throws IOException naming the file and offset of a corrupt record
   */
  static RecordLog.Replayed replay(Path file, Replay to) throws IOException {
    return RecordLog.replay(file, Journal::known,
        (type, payload, offset) -> apply(file, offset, type, payload, to));
  }

  private static boolean known(int type) {
    return type == ADDED || type == TAKEN || type == RETURNED || type == COMPLETED
        || type == SKIPPED || type == RETRIED || type == RECRAWLED || type == DUE;
  }

  private static void apply(Path file, long offset, byte type, byte[] payload, Replay to)
      throws IOException {
    ByteBuffer in = ByteBuffer.wrap(payload);
    int keyLength = PendingCodec.getVarint(in);
    String key = new String(payload, in.position(), keyLength, StandardCharsets.UTF_8);
    int rest = in.position() + keyLength;
    byte[] body = java.util.Arrays.copyOfRange(payload, rest, payload.length);
    switch (type) {
      case ADDED -> to.added(key, body);
      case TAKEN -> to.taken(key);
      case RETURNED -> to.returned(key, body);
      case COMPLETED -> {
        int nul = 0;
        while (nul < body.length && body[nul] != 0) {
          nul++;
        }
        Map<String, Long> counts = nul == body.length
            ? Map.of() : Counts.decode(java.util.Arrays.copyOfRange(body, nul + 1, body.length));
        to.completed(key, new String(body, 0, nul, StandardCharsets.UTF_8), counts);
      }
      case RETRIED -> {
        int length = PendingCodec.readVarint(body, 0);
        int start = PendingCodec.varintSize(length);
        to.retried(key, java.util.Arrays.copyOfRange(body, start, start + length),
            Counts.decode(java.util.Arrays.copyOfRange(body, start + length, body.length)));
      }
      case RECRAWLED -> {
        int length = PendingCodec.readVarint(body, 0);
        int start = PendingCodec.varintSize(length);
        int end = start + length;
        to.recrawled(key, java.util.Arrays.copyOfRange(body, start, end),
            ByteBuffer.wrap(body, end, Long.BYTES).getLong(),
            Counts.decode(java.util.Arrays.copyOfRange(body, end + Long.BYTES, body.length)));
      }
      case DUE -> to.due(key, new String(body, StandardCharsets.UTF_8));
      case SKIPPED -> to.skipped(key);
      default -> throw new IOException(
          "corrupt journal " + file + ": unknown record type " + type + " at offset " + offset);
    }
  }
}
