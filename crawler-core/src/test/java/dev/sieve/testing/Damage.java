package dev.sieve.testing;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Path;

/** Damages files on purpose, as a bad disk would, for tests of what reads them back. */
public final class Damage {
  private Damage() {}

  /** Flips one bit of the byte at {@code offset} of {@code file}. */
  public static void flipByte(Path file, long offset) throws IOException {
    try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
      raf.seek(offset);
      int b = raf.read();
      raf.seek(offset);
      raf.write(b ^ 0x40);
    }
  }
}
