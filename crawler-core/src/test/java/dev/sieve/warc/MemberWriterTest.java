package dev.sieve.warc;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.Random;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Gzip members written in place from buffers, deflated or stored, and the writers' reuse. */
class MemberWriterTest {
  @TempDir Path dir;

  private static byte[] bytes(int length, long seed) {
    byte[] bytes = new byte[length];
    new Random(seed).nextBytes(bytes);
    return bytes;
  }

  private static byte[] gunzip(byte[] member) throws IOException {
    try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(member))) {
      return in.readAllBytes();
    }
  }

  private static byte[] concat(byte[]... parts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] part : parts) {
      out.writeBytes(part);
    }
    return out.toByteArray();
  }

  @Test
  void stored_anyLength_readByTheJdkAsThePartsInOrder() throws IOException {
    // Around the 65,535-byte limit of one stored block, and across part boundaries.
    for (int length : new int[] {0, 1, 500, 65_534, 65_535, 65_536, 200_003}) {
      byte[] head = bytes(37, length);
      byte[] body = bytes(length, length + 1);
      byte[] member;
      try (MemberWriter writer = MemberWriter.borrow(1)) {
        writer.stored(ByteBuffer.wrap(head), ByteBuffer.wrap(body).asReadOnlyBuffer(),
            ByteBuffer.allocate(0));
        member = writer.records().toByteArray();
      }

      assertThat(gunzip(member)).as("length " + length).isEqualTo(concat(head, body));
    }
  }

  @Test
  void member_readOnlyAndArrayParts_sameBytesAndPositionsUnchanged() throws IOException {
    byte[] body = "<p>repeated text</p>\n".repeat(5_000).getBytes(java.nio.charset.StandardCharsets.UTF_8);
    ByteBuffer readOnly = ByteBuffer.wrap(body).asReadOnlyBuffer();
    ByteBuffer array = ByteBuffer.wrap(body, 10, body.length - 10);
    byte[] member;
    try (MemberWriter writer = MemberWriter.borrow(6)) {
      writer.member(readOnly, array);
      member = writer.records().toByteArray();
    }

    assertThat(gunzip(member))
        .isEqualTo(concat(body, Arrays.copyOfRange(body, 10, body.length)));
    assertThat(readOnly.position()).isZero();
    assertThat(array.position()).isEqualTo(10);
  }

  @Test
  void sha1_ofParts_isTheDigestOfTheirConcatenation() throws Exception {
    byte[] head = bytes(100, 1);
    byte[] body = bytes(70_000, 2);
    byte[] expected = MessageDigest.getInstance("SHA-1").digest(concat(head, body));

    try (MemberWriter writer = MemberWriter.borrow(1)) {
      ByteBuffer readOnly = ByteBuffer.wrap(body).asReadOnlyBuffer();
      assertThat(writer.sha1(ByteBuffer.wrap(head), readOnly)).isEqualTo(expected);
      assertThat(writer.sha1(ByteBuffer.wrap(head), readOnly)).as("again, reset").isEqualTo(expected);
      assertThat(readOnly.position()).isZero();
    }
  }

  @Test
  void borrow_startsWithNoRecords() {
    try (MemberWriter writer = MemberWriter.borrow(1)) {
      writer.stored(ByteBuffer.wrap(bytes(10, 6)));
    }

    try (MemberWriter writer = MemberWriter.borrow(1)) {
      assertThat(writer.records().size()).isZero();
    }
  }

  @Test
  void borrow_afterClose_theWriterUsedLast() {
    MemberWriter first = MemberWriter.borrow(1);
    first.close();

    try (MemberWriter again = MemberWriter.borrow(1)) {
      assertThat(again).isSameAs(first);
    }
  }

  @Test
  void storedAndDeflatedMembers_oneFile_wholeForTheTornFileCheck() throws IOException {
    byte[] members;
    try (MemberWriter writer = MemberWriter.borrow(1)) {
      writer.stored(ByteBuffer.wrap(bytes(300, 3)));
      writer.member(ByteBuffer.wrap(bytes(3000, 4)));
      writer.stored(ByteBuffer.wrap(bytes(70_000, 5)));
      members = writer.records().toByteArray();
    }
    Path file = Files.write(dir.resolve("f.gz"), members);

    try (FileChannel channel = FileChannel.open(file)) {
      assertThat(Gzip.completeLength(channel)).isEqualTo(members.length);
    }
  }
}
