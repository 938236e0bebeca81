package dev.sieve.files;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.function.IntPredicate;
import java.util.zip.CRC32C;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes ({@link #write}) and reads an append-only log of checksummed records, each {@code type byte, varint payload length,
 * payload, CRC32C of type and payload (big-endian int)}: the format of the crawl's and the
 * service's journals.
 *
 * <p>A crash mid-write (kill -9) leaves the file a prefix of what was written, so at most its
 * last record is incomplete: that torn tail is logged once and ignored. Anything else is
 * corruption and fails the replay naming the file and offset, so nothing acknowledged is ever
 * dropped in silence. The two are told apart by what follows the first bad record: a torn tail
 * is the end of the file, while a damaged length or checksum in the middle has whole records
 * after it. Not thread-safe; one replay at a time per file.
 */
public final class RecordLog {
  /** More bytes than this after a bad record cannot be one torn record. */
  static final int MAX_TORN_TAIL = 1 << 20;

  private static final Logger log = LoggerFactory.getLogger(RecordLog.class);

  private RecordLog() {}

  /**
   * Writes one record of {@code type} with {@code payload} to {@code out}, framed as {@link
   * #replay} reads it; {@code crc} is the writer's, reset here.
   */
  public static void write(OutputStream out, CRC32C crc, byte type, byte[] payload)
      throws IOException {
    byte[] header = new byte[1 + varintSize(payload.length)];
    header[0] = type;
    int at = 1;
    for (int value = payload.length; ; value >>>= 7) {
      if ((value & ~0x7f) == 0) {
        header[at] = (byte) value;
        break;
      }
      header[at++] = (byte) ((value & 0x7f) | 0x80);
    }
    crc.reset();
    crc.update(type);
    crc.update(payload);
    int sum = (int) crc.getValue();
    out.write(header);
    out.write(payload);
    out.write(new byte[] {(byte) (sum >>> 24), (byte) (sum >>> 16), (byte) (sum >>> 8), (byte) sum});
  }

  /** Receives each whole record of a log, in order, with its offset in the file. */
  @FunctionalInterface
  public interface Reader {
    void record(byte type, byte[] payload, long offset) throws IOException;
  }

  /** What a replay found: the records handed on, and whether a torn tail was ignored. */
  public record Replayed(long records, boolean tornTail) {}

  /**
   * Hands every whole record of {@code file} to {@code to}; a missing file replays nothing.
   *
   * @param knownType the record types the log's writer writes, to tell a record from noise
   * @throws IOException naming the file and offset of a corrupt record
   */
  public static Replayed replay(Path file, IntPredicate knownType, Reader to) throws IOException {
    if (!Files.exists(file)) {
      return new Replayed(0, false);
    }
    long size = Files.size(file);
    long records = 0;
    long offset = 0;
    CRC32C crc = new CRC32C();
    try (InputStream raw = Files.newInputStream(file);
        DataInputStream in = new DataInputStream(new BufferedInputStream(raw, 64 * 1024))) {
      while (offset < size) {
        long start = offset;
        int type;
        int length;
        byte[] payload;
        int stored;
        try {
          type = in.readUnsignedByte();
          length = readVarint(in);
          if (length < 0 || length > size - start) {
            return torn(file, knownType, start, size, records, "a record longer than the file");
          }
          payload = new byte[length];
          in.readFully(payload);
          stored = in.readInt();
        } catch (EOFException e) {
          return torn(file, knownType, start, size, records, "a record cut short");
        }
        offset = start + 1 + varintSize(length) + length + 4;
        crc.reset();
        crc.update(type);
        crc.update(payload);
        if ((int) crc.getValue() != stored) {
          if (offset >= size) {
            return torn(file, knownType, start, size, records, "a last record with a bad checksum");
          }
          throw corrupt(file, start, size, "bad checksum in the record");
        }
        to.record((byte) type, payload, start);
        records++;
      }
    }
    return new Replayed(records, false);
  }

  /**
   * The record at {@code start} runs to the end of the file: a torn tail if nothing whole follows
   * it, otherwise its length was damaged and the records after it must not be dropped.
   */
  private static Replayed torn(Path file, IntPredicate knownType, long start, long size, long records, String what)
      throws IOException {
    long tail = size - start;
    if (tail > MAX_TORN_TAIL) {
      throw corrupt(file, start, size, what + " with " + tail + " bytes after it");
    }
    long whole = firstWholeRecord(file, knownType, start, (int) tail);
    if (whole >= 0) {
      throw corrupt(file, start, size, what + ", followed by a whole record at offset " + whole);
    }
    log.warn("Journal {}: {} at offset {} of {} (a crash mid-write); the {} records before it are"
        + " kept", file, what, start, size, records);
    return new Replayed(records, true);
  }

  private static IOException corrupt(Path file, long start, long size, String what) {
    return new IOException("corrupt journal " + file + ": " + what + " at offset " + start
        + " of " + size);
  }

  /** The offset of the first whole record that starts after {@code start}, or -1. */
  private static long firstWholeRecord(Path file, IntPredicate knownType, long start, int tail) throws IOException {
    ByteBuffer bytes = ByteBuffer.allocate(tail);
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
      while (bytes.hasRemaining() && channel.read(bytes, start + bytes.position()) >= 0) {
        // reads the tail
      }
    }
    byte[] b = bytes.array();
    CRC32C crc = new CRC32C();
    for (int at = 1; at < b.length; at++) {
      if (knownType.test(b[at] & 0xff) && wholeRecordAt(b, at, crc)) {
        return start + at;
      }
    }
    return -1;
  }

  private static boolean wholeRecordAt(byte[] b, int at, CRC32C crc) {
    int type = b[at] & 0xff;
    int pos = at + 1;
    int length = 0;
    for (int shift = 0; ; shift += 7) {
      if (pos >= b.length || shift >= 35) {
        return false;
      }
      byte v = b[pos++];
      length |= (v & 0x7f) << shift;
      if (v >= 0) {
        break;
      }
    }
    if (length < 0 || (long) pos + length + 4 > b.length) {
      return false;
    }
    crc.reset();
    crc.update(type);
    crc.update(b, pos, length);
    int end = pos + length;
    int stored = ((b[end] & 0xff) << 24) | ((b[end + 1] & 0xff) << 16)
        | ((b[end + 2] & 0xff) << 8) | (b[end + 3] & 0xff);
    return (int) crc.getValue() == stored;
  }

  private static int readVarint(DataInputStream in) throws IOException {
    int value = 0;
    for (int shift = 0; shift < 35; shift += 7) {
      int b = in.readUnsignedByte();
      value |= (b & 0x7f) << shift;
      if ((b & 0x80) == 0) {
        return value;
      }
    }
    return -1;
  }

  private static int varintSize(int value) {
    int size = 1;
    while ((value & ~0x7f) != 0) {
      size++;
      value >>>= 7;
    }
    return size;
  }
}
