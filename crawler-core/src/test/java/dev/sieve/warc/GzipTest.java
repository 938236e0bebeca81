package dev.sieve.warc;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Gzip members as written, and where a damaged or torn sequence of them is cut. */
class GzipTest {
  @TempDir Path dir;

  private static byte[] members(String... texts) {
    try (MemberWriter writer = MemberWriter.borrow(1)) {
      for (String text : texts) {
        writer.member(ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8)),
            ByteBuffer.wrap("!".getBytes(StandardCharsets.UTF_8)).asReadOnlyBuffer());
      }
      return writer.records().toByteArray();
    }
  }

  private long completeLength(byte[] bytes) throws IOException {
    Path file = Files.write(dir.resolve("f.gz"), bytes);
    try (FileChannel channel = FileChannel.open(file)) {
      return Gzip.completeLength(channel);
    }
  }

  @Test
  void member_readByTheJdk_asOneStreamOfAllParts() throws IOException {
    byte[] bytes = members("first", "second".repeat(10_000));

    try (InputStream in = new GZIPInputStream(new java.io.ByteArrayInputStream(bytes))) {
      assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8))
          .isEqualTo("first!" + "second".repeat(10_000) + "!");
    }
  }

  @Test
  void completeLength_wholeMembers_all() throws IOException {
    byte[] bytes = members("a", "b", "c");

    assertThat(completeLength(bytes)).isEqualTo(bytes.length);
  }

  @Test
  void completeLength_lastMemberTorn_endOfThePreviousOne() throws IOException {
    byte[] two = members("a", "b");
    byte[] three = members("a", "b", "c".repeat(5000));

    for (int cut = two.length; cut < three.length; cut += 97) {
      assertThat(completeLength(java.util.Arrays.copyOf(three, cut))).as("cut at " + cut)
          .isEqualTo(two.length);
    }
  }

  @Test
  void completeLength_badCrcInSecondMember_endOfTheFirst() throws IOException {
    byte[] one = members("a");
    byte[] bytes = members("a", "b", "c");
    int secondEnd = members("a", "b").length;
    bytes[secondEnd - 8] ^= 1; // the second member's CRC-32

    assertThat(completeLength(bytes)).isEqualTo(one.length);
  }

  @Test
  void completeLength_notGzip_zero() throws IOException {
    assertThat(completeLength("WARC/1.1\r\n".getBytes(StandardCharsets.ISO_8859_1))).isZero();
  }
}
