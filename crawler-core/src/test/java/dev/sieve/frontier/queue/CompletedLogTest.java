package dev.sieve.frontier.queue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CompletedLogTest {
  @TempDir Path dir;

  private static List<String> all(CompletedLog log) {
    List<String> out = new ArrayList<>();
    log.read(0, (salt, url) -> out.add(salt + " " + url));
    return out;
  }

  @Test
  void append_thenRead_inOrder_includingARecordLongerThanTheBuffer() {
    CompletedLog log = CompletedLog.open(dir.resolve("completed-1.log"), 0);
    String longUrl = "http://a.test/" + "x".repeat(200_000);
    log.append(1, "http://a.test/1");
    log.append(2, longUrl);
    log.append(1, "http://a.test/ü");

    assertThat(all(log)).containsExactly("1 http://a.test/1", "2 " + longUrl, "1 http://a.test/ü");
  }

  @Test
  void read_resumesAtTheOffsetItReturned() {
    CompletedLog log = CompletedLog.open(dir.resolve("completed-1.log"), 0);
    for (int i = 0; i < 10_000; i++) {
      log.append(7, "http://a.test/" + i);
    }
    List<String> first = new ArrayList<>();
    long offset = log.read(0, (salt, url) -> first.add(url) && first.size() < 3);
    List<String> rest = new ArrayList<>();
    log.read(offset, (salt, url) -> rest.add(url));

    assertThat(first).containsExactly("http://a.test/0", "http://a.test/1", "http://a.test/2");
    assertThat(rest).hasSize(9_997).startsWith("http://a.test/3").endsWith("http://a.test/9999");
  }

  @Test
  void open_cutsBackToTheCheckpointedLength_andRefusesAShorterFile() {
    Path file = dir.resolve("completed-1.log");
    CompletedLog log = CompletedLog.open(file, 0);
    log.append(1, "http://a.test/kept");
    long checkpointed = log.sync();
    log.append(1, "http://a.test/after-the-checkpoint");
    log.close();

    CompletedLog reopened = CompletedLog.open(file, checkpointed);
    assertThat(all(reopened)).containsExactly("1 http://a.test/kept");
    reopened.close();
    assertThatThrownBy(() -> CompletedLog.open(file, checkpointed + 1))
        .isInstanceOf(UncheckedIOException.class)
        .hasMessageContaining(file.toString()).hasMessageContaining("damaged");
  }
}
