package dev.sieve.files;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RecordLogTest {
  private static final byte TYPE = 'A';

  @TempDir Path dir;

  @Test
  void replay_wholeLog_handsOnEveryRecordInOrder() throws Exception {
    Path file = write(log(5));

    List<String> seen = new ArrayList<>();
    RecordLog.Replayed replayed = RecordLog.replay(file, t -> t == TYPE,
        (type, payload, offset) -> seen.add(new String(payload, StandardCharsets.UTF_8)));

    assertThat(seen).containsExactly(payloads(5));
    assertThat(replayed).isEqualTo(new RecordLog.Replayed(5, false));
  }

  @Test
  void replay_fileCutAnywhereInTheLastRecord_keepsTheRecordsBeforeIt() throws Exception {
    byte[] whole = log(5);
    int lastStart = lastRecordStart(5);
    for (int cut = lastStart + 1; cut < whole.length; cut++) {
      Path file = write(Arrays.copyOf(whole, cut));

      RecordLog.Replayed replayed = RecordLog.replay(file, t -> t == TYPE, (t, p, o) -> { });

      assertThat(replayed).as("cut at %d", cut).isEqualTo(new RecordLog.Replayed(4, true));
    }
  }

  @Test
  void replay_anyByteDamagedBeforeTheLastRecord_failsNamingTheFile() throws Exception {
    byte[] whole = log(5);
    int lastStart = lastRecordStart(5);
    for (int at = 0; at < lastStart; at++) {
      for (int flip : new int[] {0x01, 0x5a, 0x80, 0xff}) {
        byte[] damaged = whole.clone();
        damaged[at] ^= (byte) flip;
        Path file = write(damaged);

        assertThatThrownBy(() -> RecordLog.replay(file, t -> t == TYPE, (t, p, o) -> { }))
            .as("byte %d ^ %x", at, flip)
            .isInstanceOf(IOException.class)
            .hasMessageStartingWith("corrupt journal " + file);
      }
    }
  }

  @Test
  void replay_missingFile_replaysNothing() throws Exception {
    assertThat(RecordLog.replay(dir.resolve("none.log"), t -> true, (t, p, o) -> { }))
        .isEqualTo(new RecordLog.Replayed(0, false));
  }

  private Path write(byte[] bytes) throws IOException {
    Path file = dir.resolve("journal.log");
    Files.write(file, bytes);
    return file;
  }

  private static String[] payloads(int n) {
    String[] payloads = new String[n];
    for (int i = 0; i < n; i++) {
      payloads[i] = "https://example.test/page/" + i + "?q=" + "x".repeat(i * 40);
    }
    return payloads;
  }

  /** {@code n} records; the i-th payload grows so that lengths take one and two varint bytes. */
  private static byte[] log(int n) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (String payload : payloads(n)) {
      out.writeBytes(record(payload));
    }
    return out.toByteArray();
  }

  private static int lastRecordStart(int n) {
    return log(n).length - record(payloads(n)[n - 1]).length;
  }

  private static byte[] record(String text) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    byte[] payload = text.getBytes(StandardCharsets.UTF_8);
    out.write(TYPE);
    int length = payload.length;
    while ((length & ~0x7f) != 0) {
      out.write((length & 0x7f) | 0x80);
      length >>>= 7;
    }
    out.write(length);
    out.writeBytes(payload);
    CRC32C crc = new CRC32C();
    crc.update(TYPE);
    crc.update(payload);
    int sum = (int) crc.getValue();
    out.write(sum >>> 24);
    out.write(sum >>> 16);
    out.write(sum >>> 8);
    out.write(sum);
    return out.toByteArray();
  }
}
