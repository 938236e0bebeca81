package dev.sieve.fetch;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** http and https fetches, whose clients the fetcher makes separately (https's on first use). */
class FetchSchemeTest {
  /** The first byte of a TLS record carrying a handshake message (a ClientHello). */
  private static final int TLS_HANDSHAKE = 0x16;

  private final Fetcher fetcher = Fetcher.builder().addressPolicy(AddressPolicy.allowAll()).build();

  @AfterEach
  void close() {
    fetcher.close();
  }

  @Test
  void fetch_httpsUrl_opensTlsToTheServer() throws Exception {
    try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      CompletableFuture<Integer> firstByte = firstByteReceived(server);

      FetchResult result = fetcher.fetch("https://127.0.0.1:" + server.getLocalPort() + "/");

      assertThat(firstByte.get(30, TimeUnit.SECONDS)).isEqualTo(TLS_HANDSHAKE);
      assertThat(result.status()).isZero();
      assertThat(result.error()).isNotNull();
    }
  }

  @Test
  void fetch_httpThenHttps_bothGoOut() throws Exception {
    try (MockWebServer server = new MockWebServer();
        ServerSocket tls = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      server.enqueue(new MockResponse.Builder().body("plain").build());
      server.start(InetAddress.getByName("127.0.0.1"), 0);
      CompletableFuture<Integer> firstByte = firstByteReceived(tls);

      FetchResult plain = fetcher.fetch("http://127.0.0.1:" + server.getPort() + "/");
      fetcher.fetch("https://127.0.0.1:" + tls.getLocalPort() + "/");

      assertThat(plain.status()).isEqualTo(200);
      assertThat(firstByte.get(30, TimeUnit.SECONDS)).isEqualTo(TLS_HANDSHAKE);
    }
  }

  /** The first byte the next connection to {@code server} sends. */
  private static CompletableFuture<Integer> firstByteReceived(ServerSocket server) {
    return CompletableFuture.supplyAsync(() -> {
      try (Socket socket = server.accept(); InputStream in = socket.getInputStream()) {
        return in.read();
      } catch (IOException e) {
        throw new IllegalStateException(e);
      }
    });
  }
}
