package dev.sieve.warc;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.zip.CRC32;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/**
 * Gzip members, one per WARC record (written by {@link MemberWriter}), checked member by member
 * to find where a torn file's last complete one ends.
 */
final class Gzip {
  private static final int FEXTRA = 4;
  private static final int FNAME = 8;
  private static final int FCOMMENT = 16;
  private static final int FHCRC = 2;

  private Gzip() {}

  /**
   * The length of the longest prefix of {@code channel} made of complete, valid gzip members
   * (header, deflate stream, matching CRC-32 and size): where a torn file is cut.
   */
  static long completeLength(FileChannel channel) throws IOException {
    Scanner scanner = new Scanner(channel);
    long end = 0;
    while (scanner.member()) {
      end = scanner.position;
    }
    return end;
  }

  /** Reads members from the start of a channel; stops at the first incomplete or bad one. */
  private static final class Scanner {
    private final FileChannel channel;
    private final ByteBuffer buffer = ByteBuffer.allocate(64 * 1024).flip();
    private final byte[] out = new byte[64 * 1024];
    private long position;

    Scanner(FileChannel channel) throws IOException {
      this.channel = channel;
      channel.position(0);
    }

    private boolean fill() throws IOException {
      buffer.compact();
      int n = channel.read(buffer);
      buffer.flip();
      return n > 0;
    }

    private int readByte() throws IOException {
      if (!buffer.hasRemaining() && !fill()) {
        return -1;
      }
      position++;
      return buffer.get() & 0xff;
    }

    private boolean skip(long n) throws IOException {
      for (long i = 0; i < n; i++) {
        if (readByte() < 0) {
          return false;
        }
      }
      return true;
    }

    private boolean skipZeroTerminated() throws IOException {
      int b;
      do {
        b = readByte();
      } while (b > 0);
      return b == 0;
    }

    private long readIntLe() throws IOException {
      long value = 0;
      for (int i = 0; i < 4; i++) {
        int b = readByte();
        if (b < 0) {
          return -1;
        }
        value |= (long) b << (8 * i);
      }
      return value;
    }

    /** Reads one member; whether it was complete and valid. */
    boolean member() throws IOException {
      if (readByte() != 0x1f || readByte() != 0x8b || readByte() != 8) {
        return false;
      }
      int flags = readByte();
      if (flags < 0 || !skip(6)) {
        return false;
      }
      if ((flags & FEXTRA) != 0) {
        int lo = readByte();
        int hi = readByte();
        if (lo < 0 || hi < 0 || !skip(lo | hi << 8)) {
          return false;
        }
      }
      if ((flags & FNAME) != 0 && !skipZeroTerminated()
          || (flags & FCOMMENT) != 0 && !skipZeroTerminated()
          || (flags & FHCRC) != 0 && !skip(2)) {
        return false;
      }
      Inflater inflater = new Inflater(true);
      try {
        CRC32 crc = new CRC32();
        long size = 0;
        while (!inflater.finished()) {
          if (!buffer.hasRemaining() && !fill()) {
            return false;
          }
          int start = buffer.position();
          int available = buffer.remaining();
          inflater.setInput(buffer.array(), start, available);
          while (!inflater.finished() && !inflater.needsInput()) {
            int n = inflater.inflate(out);
            if (n == 0 && !inflater.needsInput() && !inflater.finished()) {
              return false; // needs a dictionary: not ours
            }
            crc.update(out, 0, n);
            size += n;
          }
          int used = available - inflater.getRemaining();
          buffer.position(start + used);
          position += used;
        }
        return readIntLe() == crc.getValue() && readIntLe() == (size & 0xffffffffL);
      } catch (DataFormatException e) {
        return false;
      } finally {
        inflater.end();
      }
    }
  }
}
