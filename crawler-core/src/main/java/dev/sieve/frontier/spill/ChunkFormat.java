package dev.sieve.frontier.spill;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.zip.CRC32C;

/**
 * A chunk of a spilled run on disk: a 20-byte header (body length, entry count, the host key's
 * hash, the length of the next chunk of the run or 0, and a CRC32C of the header's first 16 bytes
 * and the body; big-endian ints) and the body, entries {@code [varint length][entry bytes]}.
 */
final class ChunkFormat {
  static final int HEADER_BYTES = 20;

  private ChunkFormat() {}

  /** Puts into {@code header} (cleared) the header of the chunk whose body is {@code bytes[from, to)}. */
  static void header(ByteBuffer header, CRC32C crc, byte[] bytes, int from, int to, int hostHash,
      int nextBytes) {
    int chunkEntries = countEntries(bytes, from, to);
    header.clear();
    header.putInt(to - from).putInt(chunkEntries).putInt(hostHash).putInt(nextBytes);
    crc.reset();
    crc.update(header.array(), 0, 16);
    crc.update(bytes, from, to - from);
    header.putInt((int) crc.getValue());
  }

  /**
   * Checks a chunk read from {@code file} at {@code offset}, header included, against its CRC and
   * its run: the host's {@code hostHash} and the {@code entriesLeft} in the run.
   *
   * @throws UncheckedIOException naming the file, offset and what is wrong
   */
  static void check(byte[] chunk, CRC32C crc, int hostHash, int entriesLeft, Path file, long offset) {
    int bytes = chunk.length;
    ByteBuffer buffer = ByteBuffer.wrap(chunk);
    int bodyBytes = buffer.getInt();
    int count = buffer.getInt();
    int hash = buffer.getInt();
    buffer.getInt();
    int storedCrc = buffer.getInt();
    crc.reset();
    crc.update(chunk, 0, 16);
    crc.update(chunk, HEADER_BYTES, bytes - HEADER_BYTES);
    if ((int) crc.getValue() != storedCrc) {
      throw corrupt(file, offset, String.format(
          "CRC32C mismatch (stored %08x, computed %08x)", storedCrc, (int) crc.getValue()));
    }
    if (bodyBytes != bytes - HEADER_BYTES || hash != hostHash || count < 1 || count > entriesLeft
        || countEntries(chunk, HEADER_BYTES, bytes) != count) {
      throw corrupt(file, offset, "chunk header does not match its run (body " + bodyBytes
          + " bytes, " + count + " entries, host hash " + hash + ")");
    }
  }

  private static int countEntries(byte[] bytes, int from, int to) {
    int entries = 0;
    for (int at = from; at < to; entries++) {
      int length = PendingCodec.readVarint(bytes, at);
      at += PendingCodec.varintSize(length) + length;
    }
    return entries;
  }

  static int chunkEntries(byte[] chunk) {
    return ByteBuffer.wrap(chunk).getInt(4);
  }

  static int chunkNextBytes(byte[] chunk) {
    return ByteBuffer.wrap(chunk).getInt(12);
  }

  static UncheckedIOException corrupt(Path file, long offset, String problem) {
    String message = "pending segment " + file + ": chunk at offset " + offset + ": " + problem;
    return new UncheckedIOException(message, new IOException(message));
  }
}
