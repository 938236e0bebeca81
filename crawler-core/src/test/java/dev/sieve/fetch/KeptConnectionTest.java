package dev.sieve.fetch;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.common.base.Ticker;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A kept connection is reused by the next fetch of its host, and one the server closed is not a
 * failure: the request is sent again once, on a new connection.
 */
class KeptConnectionTest {
  private final ExecutorService server = Executors.newSingleThreadExecutor();
  private final AtomicInteger accepted = new AtomicInteger();
  private ServerSocket listener;
  private final AtomicLong now = new AtomicLong();
  private final Ticker ticker = new Ticker() {
    @Override
    public long read() {
      return now.get();
    }
  };

  @AfterEach
  void stop() throws IOException {
    server.shutdownNow();
    listener.close();
  }

  @Test
  void fetch_afterServerClosedKeptConnection_sentAgainOnNewConnection() throws Exception {
    // Each connection answers one request with keep-alive, then the server closes it.
    start(1);
    try (Fetcher fetcher = fetcher()) {
      FetchResult first = fetcher.fetch(url());
      now.addAndGet(Duration.ofSeconds(1).toNanos()); // the connection idle for a politeness delay
      FetchResult second = fetcher.fetch(url());

      assertThat(first.status()).isEqualTo(200);
      assertThat(second.status()).as(String.valueOf(second.error())).isEqualTo(200);
      assertThat(accepted.get()).isEqualTo(2);
      assertThat(fetcher.connectionsOpened()).isEqualTo(2);
    }
  }

  @Test
  void fetch_connectionClosedRightAfterItsAnswer_sentAgainAtOnceAndCountedStale() throws Exception {
    start(1);
    try (Fetcher fetcher = fetcher()) {
      fetcher.fetch(url());
      FetchResult second = fetcher.fetch(url()); // no idle time: the peer closed it at once

      assertThat(second.status()).as(String.valueOf(second.error())).isEqualTo(200);
      assertThat(accepted.get()).isEqualTo(2);
      assertThat(fetcher.connectionsStale()).isEqualTo(1);
      assertThat(fetcher.connectionsReused()).as("the stale one").isEqualTo(1);
    }
  }

  @Test
  void fetch_newConnectionAlsoUnanswered_sentAgainOnlyOnce() throws Exception {
    // The first connection answers once; every later request is read and left unanswered.
    answerFirstOnly();
    try (Fetcher fetcher = fetcher()) {
      assertThat(fetcher.fetch(url()).status()).isEqualTo(200);
      FetchResult second = fetcher.fetch(url());

      assertThat(second.status()).isZero();
      assertThat(second.error()).isEqualTo(FetchError.IO);
      assertThat(accepted.get()).as("the kept connection, then one new one").isEqualTo(2);
      assertThat(fetcher.connectionsStale()).isEqualTo(1);
    }
  }

  @Test
  void fetch_keptConnection_reused() throws Exception {
    start(Integer.MAX_VALUE);
    try (Fetcher fetcher = fetcher()) {
      for (int i = 0; i < 3; i++) {
        assertThat(fetcher.fetch(url()).status()).isEqualTo(200);
      }
      assertThat(accepted.get()).isEqualTo(1);
      assertThat(fetcher.connectionsOpened()).isEqualTo(1);
      assertThat(fetcher.connectionsReused()).isEqualTo(2);
    }
  }

  private Fetcher fetcher() {
    return Fetcher.builder().idleConnections(10, Duration.ofMinutes(1)).connectionTicker(ticker)
        .build();
  }

  private String url() {
    return "http://127.0.0.1:" + listener.getLocalPort() + "/";
  }

  /** Serves connections one after another, each answering {@code perConnection} requests. */
  private void start(int perConnection) throws IOException {
    listener = new ServerSocket(0, 16, InetAddress.getByName("127.0.0.1"));
    server.execute(() -> {
      while (!listener.isClosed()) {
        try (Socket socket = listener.accept()) {
          accepted.incrementAndGet();
          InputStream in = socket.getInputStream();
          OutputStream out = socket.getOutputStream();
          for (int i = 0; i < perConnection && readHead(in); i++) {
            out.write(("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n\r\nok")
                .getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
          }
        } catch (IOException e) {
          // closed by the test
        }
      }
    });
  }

  /**
   * Answers the first request of the first connection, then closes it; every later connection is
   * closed as soon as its request is read, unanswered.
   */
  private void answerFirstOnly() throws IOException {
    listener = new ServerSocket(0, 16, InetAddress.getByName("127.0.0.1"));
    server.execute(() -> {
      while (!listener.isClosed()) {
        try (Socket socket = listener.accept()) {
          boolean first = accepted.incrementAndGet() == 1;
          if (readHead(socket.getInputStream()) && first) {
            socket.getOutputStream().write(
                "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok".getBytes(StandardCharsets.ISO_8859_1));
          }
        } catch (IOException e) {
          // closed by the test
        }
      }
    });
  }

  /** Reads one request head; false at the end of the stream. */
  private static boolean readHead(InputStream in) throws IOException {
    ByteArrayOutputStream head = new ByteArrayOutputStream();
    int b;
    while ((b = in.read()) >= 0) {
      head.write(b);
      byte[] bytes = head.toByteArray();
      int n = bytes.length;
      if (n >= 4 && bytes[n - 4] == '\r' && bytes[n - 3] == '\n' && bytes[n - 2] == '\r' && bytes[n - 1] == '\n') {
        return true;
      }
    }
    return false;
  }
}
