package dev.sieve.bloom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class HashBatchTest {

  @Test
  void add_bytesCharsAndHash_eachStoredAsHash128Computes() {
    HashBatch batch = new HashBatch(3);
    String url = "https://example.com/docs/caf\u00e9/index.html?page=2";
    byte[] framed = ("xx" + url + "yy").getBytes(StandardCharsets.UTF_8);

    batch.add(framed, 2, framed.length - 4);
    batch.add(url);
    batch.add(Hash128.of("other"));

    assertThat(batch.size()).isEqualTo(3);
    assertThat(batch.isFull()).isTrue();
    assertThat(batch.get(0)).isEqualTo(Hash128.of(url));
    assertThat(batch.get(1)).isEqualTo(Hash128.of(url));
    assertThat(batch.get(2)).isEqualTo(Hash128.of("other"));
  }

  @Test
  void add_whenFull_refusedAndClearEmpties() {
    HashBatch batch = new HashBatch(1);
    batch.add("a");

    assertThatThrownBy(() -> batch.add("b")).isInstanceOf(IllegalStateException.class)
        .hasMessage("batch full: 1 keys");
    assertThatThrownBy(() -> batch.get(1)).isInstanceOf(IndexOutOfBoundsException.class);
    batch.clear();
    assertThat(batch.size()).isZero();
    assertThatThrownBy(() -> new HashBatch(0)).hasMessage("capacity (0) must be at least 1");
  }
}
