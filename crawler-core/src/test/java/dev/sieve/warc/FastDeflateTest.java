package dev.sieve.warc;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import org.junit.jupiter.api.Test;

/** Raw deflate streams read back by the JDK's inflater (zlib) as the bytes given, in order. */
class FastDeflateTest {
  private final FastDeflate deflate = new FastDeflate();

  /** One stream of {@code parts}, each given in one write. */
  private byte[] deflate(byte[]... parts) {
    MemberWriter.Output out = new MemberWriter.Output(16);
    deflate.start();
    for (byte[] part : parts) {
      deflate.write(part, 0, part.length, out);
    }
    deflate.finish(out);
    return out.toByteArray();
  }

  private static byte[] inflate(byte[] stream) throws DataFormatException {
    Inflater inflater = new Inflater(true);
    try {
      inflater.setInput(stream);
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      byte[] buffer = new byte[64 * 1024];
      while (!inflater.finished()) {
        int n = inflater.inflate(buffer);
        if (n == 0 && !inflater.finished()
            && (inflater.needsInput() || inflater.needsDictionary())) {
          throw new DataFormatException("stream ends before its final block");
        }
        out.write(buffer, 0, n);
      }
      assertThat(inflater.getRemaining()).as("bytes after the final block").isZero();
      return out.toByteArray();
    } finally {
      inflater.end();
    }
  }

  private static byte[] concat(byte[]... parts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] part : parts) {
      out.writeBytes(part);
    }
    return out.toByteArray();
  }

  private static byte[] random(int length, long seed) {
    byte[] bytes = new byte[length];
    new Random(seed).nextBytes(bytes);
    return bytes;
  }

  /** Text over a small alphabet: many short matches at every distance, some literals. */
  private static byte[] words(int length, long seed) {
    Random random = new Random(seed);
    String[] words = {"crawl", "sieve", "bloom", "<a href=\"/p/", "\">", "</a>\n", " ", "the",
        "filter", "0", "1", "2", "frontier", "<p>", "</p>"};
    StringBuilder text = new StringBuilder(length + 16);
    while (text.length() < length) {
      text.append(words[random.nextInt(words.length)]);
    }
    return text.substring(0, length).getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] zlibLevel1(byte[] bytes) {
    Deflater deflater = new Deflater(1, true);
    deflater.setInput(bytes);
    deflater.finish();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    byte[] buffer = new byte[64 * 1024];
    while (!deflater.finished()) {
      out.write(buffer, 0, deflater.deflate(buffer));
    }
    deflater.end();
    return out.toByteArray();
  }

  @Test
  void write_lengthsAroundEveryLimit_inflatesToTheSameBytes() throws Exception {
    // Shorter than a match, around the 65,535-byte block, and several blocks.
    for (int length : new int[] {0, 1, 2, 3, 4, 5, 7, 8, 257, 258, 259, 32_768, 32_769, 65_534,
        65_535, 65_536, 131_071, 200_003}) {
      for (byte[] bytes : List.of(words(length, length), random(length, length), new byte[length])) {
        assertThat(inflate(deflate(bytes))).as("length " + length).isEqualTo(bytes);
      }
    }
  }

  @Test
  void write_randomTexts_inflateToTheSameBytes() throws Exception {
    Random random = new Random(7);
    for (int i = 0; i < 300; i++) {
      int length = random.nextInt(100_000);
      byte[] bytes = random.nextBoolean() ? words(length, i) : mixed(length, random);
      assertThat(inflate(deflate(bytes))).as("text " + i).isEqualTo(bytes);
    }
  }

  /** Runs of one byte, copies from up to 40 KB back (beyond the 32 KB window) and noise. */
  private static byte[] mixed(int length, Random random) {
    byte[] bytes = new byte[length];
    int i = 0;
    while (i < length) {
      int run = Math.min(length - i, 1 + random.nextInt(600));
      switch (random.nextInt(3)) {
        case 0 -> Arrays.fill(bytes, i, i + run, (byte) random.nextInt(256));
        case 1 -> {
          int from = Math.max(0, i - 1 - random.nextInt(40_000));
          for (int k = 0; k < run; k++) {
            bytes[i + k] = bytes[from + k];
          }
        }
        default -> {
          for (int k = 0; k < run; k++) {
            bytes[i + k] = (byte) random.nextInt(256);
          }
        }
      }
      i += run;
    }
    return bytes;
  }

  @Test
  void write_severalParts_oneStreamOfThemInOrder() throws Exception {
    byte[] head = "WARC/1.1\r\nWARC-Type: response\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
    byte[] body = words(90_000, 3);
    byte[] end = "\r\n\r\n".getBytes(StandardCharsets.US_ASCII);

    assertThat(inflate(deflate(head, body, new byte[0], end))).isEqualTo(concat(head, body, end));
  }

  @Test
  void write_manyStreams_oneDeflaterMatchesNothingFromAnEarlierStream() throws Exception {
    // Each stream stands alone: a reader of one record has none of the others.
    byte[] page = words(30_000, 5);
    for (int i = 0; i < 50; i++) {
      byte[] stream = deflate(page);
      Inflater inflater = new Inflater(true);
      inflater.setInput(stream);
      byte[] out = new byte[page.length];
      assertThat(inflater.inflate(out)).isEqualTo(page.length);
      assertThat(inflater.finished()).isTrue();
      assertThat(out).isEqualTo(page);
      inflater.end();
    }
  }

  @Test
  void write_sliceOfALargerArray_onlyThatSlice() throws Exception {
    byte[] bytes = words(50_000, 9);
    MemberWriter.Output out = new MemberWriter.Output(16);
    deflate.start();
    deflate.write(bytes, 1_000, 41_000, out);
    deflate.finish(out);

    assertThat(inflate(out.toByteArray())).isEqualTo(Arrays.copyOfRange(bytes, 1_000, 41_000));
  }

  @Test
  void write_incompressibleBytes_storedWithAFewBytesPerBlock() {
    byte[] bytes = random(200_000, 11);

    // Four stored blocks of 5 header bytes each, and the empty final block.
    assertThat(deflate(bytes).length).isLessThanOrEqualTo(bytes.length + 4 * 5 + 2);
  }

  @Test
  void literalBits_everyByteValueAnyAlignment_nineBitsFrom144Up() {
    byte[] bytes = new byte[256 * 3];
    for (int i = 0; i < bytes.length; i++) {
      bytes[i] = (byte) (i * 7);
    }
    Random random = new Random(13);
    for (int trial = 0; trial < 2_000; trial++) {
      int from = random.nextInt(bytes.length);
      int to = from + random.nextInt(bytes.length - from + 1);
      long expected = 0;
      for (int i = from; i < to; i++) {
        expected += (bytes[i] & 0xff) < 144 ? 8 : 9;
      }

      assertThat(FastDeflate.literalBits(bytes, from, to)).as(from + ".." + to).isEqualTo(expected);
    }
  }

  @Test
  void write_realPages_withinAFifthOfZlibLevel1() throws Exception {
    List<byte[]> pages = samplePages();
    long fast = 0;
    long zlib = 0;
    for (byte[] page : pages) {
      byte[] stream = deflate(page);
      assertThat(inflate(stream)).isEqualTo(page);
      fast += stream.length;
      zlib += zlibLevel1(page).length;
    }

    assertThat(pages).hasSizeGreaterThan(100);
    assertThat((double) fast / zlib).as("size against zlib level 1").isLessThan(1.25);
  }

  /** The real pages of the link corpus (cppreference and the Rust docs). */
  private static List<byte[]> samplePages() throws IOException {
    List<byte[]> pages = new ArrayList<>();
    try (InputStream zip = FastDeflateTest.class.getResourceAsStream("/corpus/links-sample.zip");
        ZipInputStream entries = new ZipInputStream(zip)) {
      for (ZipEntry entry; (entry = entries.getNextEntry()) != null; ) {
        if (entry.getName().endsWith(".html")) {
          pages.add(entries.readAllBytes());
        }
      }
    }
    return pages;
  }
}
