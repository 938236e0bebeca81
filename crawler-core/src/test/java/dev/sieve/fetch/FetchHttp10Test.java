package dev.sieve.fetch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sieve.testing.PythonHttpServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Connections to real HTTP/1.0 servers (python's http.server): one that closes after each answer
 * without saying so is never reused, so no request meets a closed connection; one that answers
 * {@code Connection: keep-alive} keeps its connection.
 */
class FetchHttp10Test {
  private static final int PAGES = 10;

  @TempDir Path dir;

  private Path site() throws IOException {
    Path root = Files.createDirectories(dir.resolve("site"));
    for (int i = 0; i < PAGES; i++) {
      Files.writeString(root.resolve("p" + i + ".html"), "<p>page " + i + "</p>");
    }
    return root;
  }

  /** Fetches each page once, checking that each came in an HTTP/1.0 answer. */
  private static void fetchEveryPage(PythonHttpServer server, Fetcher fetcher) {
    for (int i = 0; i < PAGES; i++) {
      FetchResult result = fetcher.fetch(server.url("/p" + i + ".html"));

      assertThat(result.status()).as(result.toString()).isEqualTo(200);
      assertThat(result.exchange().orElseThrow().protocols()).containsExactly("http/1.0");
    }
  }

  @Test
  void fetch_http10ServerClosingAfterEachAnswer_aNewConnectionEachNoneStale() throws Exception {
    try (PythonHttpServer server = PythonHttpServer.closingEachConnection(site());
        Fetcher fetcher = Fetcher.builder().build()) {
      fetchEveryPage(server, fetcher);
      assertThat(fetcher.connectionsStale()).as("requests sent on a closed connection").isZero();
      assertThat(fetcher.connectionsReused()).isZero();
      assertThat(fetcher.connectionsOpened()).isEqualTo(PAGES);
    }
  }

  @Test
  void fetch_http10NotModifiedThenAgain_theBodilessAnswersConnectionNotReusedEither()
      throws Exception {
    try (PythonHttpServer server = PythonHttpServer.closingEachConnection(site());
        Fetcher fetcher = Fetcher.builder().build()) {
      FetchResult first = fetcher.fetch(server.url("/p0.html"));

      FetchResult unchanged = fetcher.fetch(server.url("/p0.html"), first.validators());
      FetchResult next = fetcher.fetch(server.url("/p1.html"));

      assertThat(unchanged.status()).as(unchanged.toString()).isEqualTo(304);
      assertThat(next.status()).as(next.toString()).isEqualTo(200);
      assertThat(fetcher.connectionsStale()).isZero();
      assertThat(fetcher.connectionsOpened()).isEqualTo(3);
    }
  }

  @Test
  void fetch_http10ServerSayingKeepAlive_oneConnectionReused() throws Exception {
    try (PythonHttpServer server = PythonHttpServer.keepingConnections(site());
        Fetcher fetcher = Fetcher.builder().build()) {
      fetchEveryPage(server, fetcher);
      assertThat(fetcher.connectionsOpened()).isEqualTo(1);
      assertThat(fetcher.connectionsReused()).isEqualTo(PAGES - 1);
      assertThat(fetcher.connectionsStale()).isZero();
    }
  }
}
