package dev.sieve.fetch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.time.Duration;
import java.util.Arrays;
import java.util.zip.GZIPOutputStream;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import okio.Buffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class FetchBodyCapTest {
  private static final int MIB = 1024 * 1024;
  private static final long BOMB_SIZE = 1024L * MIB;

  /** 1 GiB of zeros, gzipped: about 1 MB on the wire. */
  private static Buffer gzipBomb;

  private final MockWebServer server = new MockWebServer();
  private Fetcher fetcher;

  @BeforeAll
  static void makeGzipBomb() throws IOException {
    gzipBomb = new Buffer();
    byte[] zeros = new byte[MIB];
    try (OutputStream gzip = new GZIPOutputStream(gzipBomb.outputStream(), 64 * 1024)) {
      for (long written = 0; written < BOMB_SIZE; written += zeros.length) {
        gzip.write(zeros);
      }
    }
  }

  @BeforeEach
  void setUp() throws IOException {
    server.start(InetAddress.getByName("127.0.0.1"), 0);
    fetcher = Fetcher.builder().maxBodyBytes(MIB).build();
  }

  @AfterEach
  void tearDown() {
    fetcher.close();
    server.close();
  }

  private String url() {
    return "http://127.0.0.1:" + server.getPort() + "/";
  }

  @Test
  void fetch_bodyOverCap_truncatedAtCap() {
    byte[] big = new byte[5 * MIB];
    Arrays.fill(big, (byte) 'a');
    server.enqueue(new MockResponse.Builder().code(200).body(new Buffer().write(big)).build());

    FetchResult result = fetcher.fetch(url());

    assertThat(result.status()).isEqualTo(200);
    assertThat(result.truncated()).isTrue();
    assertThat(result.error()).isNull();
    assertThat(result.bytes()).isEqualTo(MIB);
    assertThat(result.body()).isEqualTo(Arrays.copyOf(big, MIB));
  }

  @Test
  void fetch_bodyExactlyAtCap_notTruncated() {
    server.enqueue(
        new MockResponse.Builder().code(200).body(new Buffer().write(new byte[MIB])).build());

    FetchResult result = fetcher.fetch(url());

    assertThat(result.truncated()).isFalse();
    assertThat(result.bytes()).isEqualTo(MIB);
  }

  @Test
  void fetch_gzipBomb_truncatedAtCapAfterDecompression() {
    assertThat(gzipBomb.size()).isLessThan(2L * MIB);
    server.enqueue(
        new MockResponse.Builder()
            .code(200)
            .setHeader("Content-Encoding", "gzip")
            .body(gzipBomb.clone())
            .build());

    FetchResult result =
        assertTimeoutPreemptively(Duration.ofSeconds(30), () -> fetcher.fetch(url()));

    assertThat(result.status()).isEqualTo(200);
    assertThat(result.truncated()).isTrue();
    assertThat(result.error()).isNull();
    assertThat(result.bytes()).isEqualTo(MIB);
    assertThat(result.body()).containsOnly((byte) 0);
  }

  @Test
  void fetch_connectionReusedAfterTruncation_nextFetchStillWorks() {
    server.enqueue(
        new MockResponse.Builder().code(200).body(new Buffer().write(new byte[2 * MIB])).build());
    server.enqueue(new MockResponse.Builder().code(200).body("ok").build());

    assertThat(fetcher.fetch(url()).truncated()).isTrue();
    FetchResult second = fetcher.fetch(url());

    assertThat(second.status()).isEqualTo(200);
    assertThat(second.bytes()).isEqualTo(2);
  }
}
