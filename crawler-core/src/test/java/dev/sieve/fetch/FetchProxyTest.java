package dev.sieve.fetch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sieve.loopback.LoopbackNginx;
import dev.sieve.testing.Concurrently;
import dev.sieve.testing.LocalProxy;
import dev.sieve.testing.TestCa;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import mockwebserver3.SocketEffect;
import okhttp3.Protocol;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Fetches through real proxies on loopback: tinyproxy (HTTP, CONNECT, Basic credentials) and
 * microsocks (SOCKS5 with credentials), to a loopback server, which the JDK's default proxy rules
 * would have sent direct.
 */
class FetchProxyTest {
  @TempDir Path dir;
  private final MockWebServer server = new MockWebServer();
  private Fetcher fetcher;

  @BeforeEach
  void startServer() throws Exception {
    server.setDispatcher(new Dispatcher() {
      @Override
      public MockResponse dispatch(RecordedRequest request) {
        return new MockResponse.Builder().code(200).setHeader("Content-Type", "text/html")
            .body("<p>" + request.getUrl().encodedPath() + "</p>").build();
      }
    });
    server.start(InetAddress.getByName("127.0.0.1"), 0);
  }

  @AfterEach
  void tearDown() {
    if (fetcher != null) {
      fetcher.close();
    }
    server.close();
  }

  private Fetcher through(String proxyUrl, String noProxy) {
    return through(proxyUrl, noProxy, TlsSettings.system());
  }

  private Fetcher through(String proxyUrl, String noProxy, TlsSettings tls) {
    fetcher = Fetcher.builder()
        .proxies(ProxySettings.of(ProxyServer.parse("proxy", proxyUrl), noProxy))
        .tls(tls)
        .build();
    return fetcher;
  }

  private String url(String path) {
    return "http://127.0.0.1:" + server.getPort() + path;
  }

  @Test
  void fetch_throughTinyproxyClosingAfterEachAnswer_everyPageFetchedAndInItsLog() throws Exception {
    try (LocalProxy proxy = LocalProxy.tinyproxy(dir, "127.0.0.2", null, null)) {
      through("http://127.0.0.1:" + proxy.port(), null);

      for (int i = 0; i < 20; i++) {
        FetchResult result = fetcher.fetch(url("/page-" + i));

        assertThat(result.status()).as(result.toString()).isEqualTo(200);
        assertThat(result.exchange().orElseThrow().ip()).as("the server's address is not known")
            .isNull();
      }
      List<String> log = proxy.logLines();
      for (int i = 0; i < 20; i++) {
        String request = "GET " + url("/page-" + i) + " HTTP/1.1";
        assertThat(log).as(request).anyMatch(line -> line.contains(request));
      }
      assertThat(server.getRequestCount()).isEqualTo(20);
    }
  }

  @Test
  void fetch_throughTinyproxyFromEightThreads_itsClosedConnectionsMetOnlyUntilLearned()
      throws Exception {
    int threads = 8;
    int each = 10;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try (LocalProxy proxy = LocalProxy.tinyproxy(dir, "127.0.0.2", null, null)) {
      through("http://127.0.0.1:" + proxy.port(), null);

      int ok = Concurrently.sum(pool, threads, thread -> {
        int fetched = 0;
        for (int i = 0; i < each; i++) {
          FetchResult result = fetcher.fetch(url("/t" + thread + "-" + i));
          fetched += result.status() == 200 ? 1 : 0;
        }
        return fetched;
      });

      assertThat(ok).isEqualTo(threads * each);
      // tinyproxy answers HTTP/1.1 and closes: each connection kept before the first such close
      // was seen is met once (sent again at once); then none is kept.
      assertThat(fetcher.connectionsStale()).isLessThanOrEqualTo(threads);
      assertThat(fetcher.connectionsReused()).as("every reuse met a closed connection")
          .isEqualTo(fetcher.connectionsStale());
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void fetch_throughTinyproxyWithCredentials_sentToTheProxyNeverArchived() throws Exception {
    try (LocalProxy proxy = LocalProxy.tinyproxy(dir, "127.0.0.2", "alice", "s3cret")) {
      through("http://alice:s3cret@127.0.0.1:" + proxy.port(), null);

      FetchResult result = fetcher.fetch(url("/secret-area"));

      assertThat(result.status()).as(result.toString()).isEqualTo(200);
      String head = ascii(result.exchange().orElseThrow().requestHead());
      assertThat(head).doesNotContainIgnoringCase("Proxy-Authorization").doesNotContain("s3cret")
          .doesNotContain(okhttp3.Credentials.basic("alice", "s3cret").substring(6));
    }
  }

  @Test
  void fetch_tinyproxyWantingCredentials_proxyAuthRequired() throws Exception {
    try (LocalProxy proxy = LocalProxy.tinyproxy(dir, "127.0.0.2", "alice", "s3cret")) {
      // Without credentials: 407. With wrong ones tinyproxy answers 401 (not 407), which on a
      // plain request cannot be told from the server's own; on a CONNECT it is the proxy's.
      FetchResult none = through("http://127.0.0.1:" + proxy.port(), null).fetch(url("/page"));
      fetcher.close();
      FetchResult wrong = through("http://alice:wrong@127.0.0.1:" + proxy.port(), null)
          .fetch("https://localhost:" + server.getPort() + "/page");

      assertThat(none.error()).as(none.toString()).isEqualTo(FetchError.PROXY_AUTH);
      assertThat(none.error().label()).isEqualTo("proxy-auth-required");
      assertThat(none.errorMessage()).isEqualTo("proxy answered 407");
      assertThat(none.exchange()).isEmpty();
      assertThat(wrong.error()).as(wrong.toString()).isEqualTo(FetchError.PROXY_AUTH);
      assertThat(wrong.errorMessage()).isEqualTo("proxy answered 401");
      assertThat(server.getRequestCount()).isZero();
    }
  }

  @Test
  void fetch_httpsThroughTinyproxyConnect_h2EndToEndWithTheServer() throws Exception {
    TestCa ca = TestCa.create(dir);
    try (MockWebServer tls = new MockWebServer();
        LocalProxy proxy = LocalProxy.tinyproxy(dir, "127.0.0.2", "alice", "s3cret")) {
      tls.useHttps(ca.issue("server").serverContext().getSocketFactory());
      tls.setProtocols(List.of(Protocol.HTTP_2, Protocol.HTTP_1_1));
      tls.enqueue(new MockResponse.Builder().code(200).body("<p>tunnelled</p>").build());
      tls.start(InetAddress.getByName("127.0.0.1"), 0);
      through("http://alice:s3cret@127.0.0.1:" + proxy.port(), null,
          TlsSettings.withCaCerts(List.of(ca.caCert())));

      FetchResult result = fetcher.fetch("https://localhost:" + tls.getPort() + "/t");

      assertThat(result.status()).as(result.toString()).isEqualTo(200);
      assertThat(result.exchange().orElseThrow().protocols()).containsExactly("h2", "tls/1.3");
      assertThat(proxy.logLines())
          .anyMatch(line -> line.contains("CONNECT localhost:" + tls.getPort()));
    }
  }

  @Test
  void fetch_throughHttpsProxy_tlsToTheProxyThenRequestsAndTunnelsInside() throws Exception {
    Path module = Path.of("/usr/lib/nginx/modules/ngx_stream_module.so");
    LocalProxy.require("nginx", "nginx-light");
    if (!Files.isRegularFile(module)) {
      LocalProxy.require("ngx_stream_module.so", "libnginx-mod-stream");
    }
    TestCa ca = TestCa.create(dir);
    TestCa.Issued cert = ca.issue("proxy");
    try (MockWebServer tls = new MockWebServer();
        LocalProxy tinyproxy = LocalProxy.tinyproxy(dir, "127.0.0.2", null, null)) {
      tls.useHttps(ca.issue("server").serverContext().getSocketFactory());
      tls.enqueue(new MockResponse.Builder().code(200).body("inside").build());
      tls.start(InetAddress.getByName("127.0.0.1"), 0);
      int port = LoopbackNginx.freePort();
      // nginx ends the TLS to the proxy and passes the bytes to tinyproxy: an https:// proxy.
      try (LoopbackNginx nginx = LoopbackNginx.startStream(Path.of("nginx"), module,
          List.of("server { listen 127.0.0.1:" + port + " ssl; ssl_certificate " + cert.cert()
              + "; ssl_certificate_key " + cert.key() + "; proxy_pass 127.0.0.1:"
              + tinyproxy.port() + "; }"), List.of(port))) {
        through("https://localhost:" + port, null, TlsSettings.withCaCerts(List.of(ca.caCert())));

        FetchResult plain = fetcher.fetch(url("/via-tls-proxy"));
        FetchResult secure = fetcher.fetch("https://localhost:" + tls.getPort() + "/s");

        assertThat(plain.status()).as(plain.toString()).isEqualTo(200);
        assertThat(secure.status()).as(secure.toString()).isEqualTo(200);
        assertThat(secure.exchange().orElseThrow().protocols()).containsExactly("h2", "tls/1.3");
        assertThat(tinyproxy.logLines())
            .anyMatch(line -> line.contains("GET " + url("/via-tls-proxy")))
            .anyMatch(line -> line.contains("CONNECT localhost:" + tls.getPort()));
      }
    }
  }

  @Test
  void fetch_throughMicrosocksWithCredentials_httpAndHttpsFetched() throws Exception {
    TestCa ca = TestCa.create(dir);
    try (MockWebServer tls = new MockWebServer();
        LocalProxy proxy = LocalProxy.microsocks(dir, "127.0.0.3", "bob", "p@ss:word")) {
      tls.useHttps(ca.issue("server").serverContext().getSocketFactory());
      tls.enqueue(new MockResponse.Builder().code(200).body("socks").build());
      tls.start(InetAddress.getByName("127.0.0.1"), 0);
      through("socks5://bob:p%40ss%3Aword@127.0.0.1:" + proxy.port(), null,
          TlsSettings.withCaCerts(List.of(ca.caCert())));

      FetchResult plain = fetcher.fetch(url("/via-socks"));
      FetchResult secure = fetcher.fetch("https://localhost:" + tls.getPort() + "/s");

      assertThat(plain.status()).as(plain.toString()).isEqualTo(200);
      assertThat(plain.exchange().orElseThrow().ip()).isNull();
      assertThat(secure.status()).as(secure.toString()).isEqualTo(200);
      assertThat(secure.exchange().orElseThrow().protocols()).containsExactly("h2", "tls/1.3");
    }
  }

  @Test
  void fetch_microsocksRefusingTheCredentials_proxyAuthRequiredWithCause() throws Exception {
    try (LocalProxy proxy = LocalProxy.microsocks(dir, "127.0.0.3", "bob", "pw")) {
      FetchResult wrong = through("socks5://bob:bad@127.0.0.1:" + proxy.port(), null)
          .fetch(url("/x"));
      fetcher.close();
      FetchResult none = through("socks5://127.0.0.1:" + proxy.port(), null).fetch(url("/x"));

      assertThat(wrong.error()).isEqualTo(FetchError.PROXY_AUTH);
      assertThat(wrong.errorMessage()).isEqualTo("proxy refused the credentials");
      assertThat(none.error()).isEqualTo(FetchError.PROXY_AUTH);
      assertThat(none.errorMessage()).isEqualTo("proxy wants credentials");
      assertThat(server.getRequestCount()).isZero();
    }
  }

  @Test
  void fetch_socksProxyCannotReachTheServer_aConnectFailureOfTheServer() throws Exception {
    try (LocalProxy proxy = LocalProxy.microsocks(dir, "127.0.0.3", null, null)) {
      int deadPort = LoopbackNginx.freePort();
      FetchResult result = through("socks5://127.0.0.1:" + proxy.port(), null)
          .fetch("http://127.0.0.1:" + deadPort + "/");

      assertThat(result.error()).as(result.toString()).isEqualTo(FetchError.CONNECT);
      assertThat(ConnectionFailure.cause(result)).as("counted against the server's host")
          .isPresent();
    }
  }

  @Test
  void fetch_deadProxy_proxyUnreachableConnectionRefused() throws Exception {
    int dead = LoopbackNginx.freePort();
    for (String scheme : List.of("http", "socks5")) {
      FetchResult result = through(scheme + "://127.0.0.1:" + dead, null).fetch(url("/"));
      fetcher.close();

      assertThat(result.error()).as(scheme).isEqualTo(FetchError.PROXY_UNREACHABLE);
      assertThat(result.errorMessage()).as(scheme).isEqualTo("connection refused");
      assertThat(ConnectionFailure.cause(result)).as("not the server's failure").isEmpty();
    }
    assertThat(server.getRequestCount()).isZero();
  }

  @Test
  void fetch_proxyClosingWithoutAnswering_theProxysFailureNotTheServers() throws Exception {
    try (MockWebServer closing = new MockWebServer()) {
      closing.setDispatcher(new Dispatcher() {
        @Override
        public MockResponse dispatch(RecordedRequest request) {
          return new MockResponse.Builder().onResponseStart(new SocketEffect.CloseSocket()).build();
        }
      });
      closing.start(InetAddress.getByName("127.0.0.1"), 0);
      through("http://127.0.0.1:" + closing.getPort(), null);

      FetchResult plain = fetcher.fetch(url("/page"));
      FetchResult tunnel = fetcher.fetch("https://localhost:" + server.getPort() + "/page");

      for (FetchResult result : List.of(plain, tunnel)) {
        assertThat(result.error()).as(result.toString()).isEqualTo(FetchError.PROXY_UNREACHABLE);
        assertThat(result.errorMessage()).isEqualTo("proxy closed the connection without answering");
        assertThat(ConnectionFailure.cause(result)).as("not the server's failure").isEmpty();
      }
      assertThat(server.getRequestCount()).isZero();
    }
  }

  @Test
  void fetch_hostNamedByNoProxy_fetchedDirect() throws Exception {
    int dead = LoopbackNginx.freePort();

    FetchResult result = through("http://127.0.0.1:" + dead, "example.org, 127.0.0.0/8")
        .fetch(url("/direct"));

    assertThat(result.status()).isEqualTo(200);
    assertThat(result.exchange().orElseThrow().ip()).isEqualTo("127.0.0.1");
  }

  private static String ascii(java.nio.ByteBuffer buffer) {
    byte[] bytes = new byte[buffer.remaining()];
    buffer.get(bytes);
    return new String(bytes, StandardCharsets.ISO_8859_1);
  }
}
