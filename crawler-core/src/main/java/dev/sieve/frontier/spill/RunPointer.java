package dev.sieve.frontier.spill;

/**
 * Where a spilled run is, in two longs: its <em>pointer</em>, the segment id (23 bits) and the
 * offset of its next chunk (40 bits); its <em>progress</em>, the entries left and the next chunk's
 * length.
 */
final class RunPointer {
  static final long MAX_OFFSET = (1L << 40) - 1;

  private RunPointer() {}

  static long pointer(int segment, long offset) {
    return (long) segment << 40 | offset;
  }

  static int segmentOf(long position) {
    return (int) (position >>> 40);
  }

  static long offsetOf(long position) {
    return position & MAX_OFFSET;
  }

  static long progress(int entries, int nextChunkBytes) {
    return (long) entries << 32 | (nextChunkBytes & 0xffffffffL);
  }

  static int entriesOf(long progress) {
    return (int) (progress >>> 32);
  }

  static int nextChunkBytesOf(long progress) {
    return (int) progress;
  }
}
