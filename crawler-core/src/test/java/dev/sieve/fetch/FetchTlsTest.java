package dev.sieve.fetch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.sieve.testing.TestCa;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import okhttp3.Protocol;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * HTTPS against a loopback server whose certificates a test CA issued: HTTP/2 where the server
 * offers it (ALPN), the protocols recorded for the archive, {@code --ca-cert}'s trust, and each
 * TLS failure's cause.
 */
class FetchTlsTest {
  @TempDir static Path dir;
  private static TestCa ca;
  private static TestCa.Issued valid;
  private static TestCa.Issued expired;
  private static TestCa.Issued otherName;

  private final MockWebServer server = new MockWebServer();
  private Fetcher fetcher;

  @BeforeAll
  static void makeCertificates() throws Exception {
    ca = TestCa.create(dir);
    valid = ca.issue("valid");
    expired = ca.issue("expired", "DNS:localhost,IP:127.0.0.1", -1);
    otherName = ca.issue("other", "DNS:other.example", 2);
  }

  @AfterEach
  void tearDown() {
    if (fetcher != null) {
      fetcher.close();
    }
    server.close();
  }

  private String serve(TestCa.Issued cert, List<Protocol> protocols) throws Exception {
    server.useHttps(cert.serverContext().getSocketFactory());
    server.setProtocols(protocols);
    server.enqueue(new MockResponse.Builder().code(200)
        .setHeader("Content-Type", "text/html").body("<p>secure</p>").build());
    server.start(InetAddress.getByName("127.0.0.1"), 0);
    return "https://localhost:" + server.getPort() + "/page";
  }

  private Fetcher trusting(TlsSettings tls) {
    fetcher = Fetcher.builder().tls(tls).build();
    return fetcher;
  }

  @Test
  void fetch_serverOffersH2_exchangeIsH2OverTls13WithCipherSuite() throws Exception {
    String url = serve(valid, List.of(Protocol.HTTP_2, Protocol.HTTP_1_1));

    FetchResult result = trusting(TlsSettings.withCaCerts(List.of(ca.caCert()))).fetch(url);

    assertThat(result.status()).isEqualTo(200);
    assertThat(result.body()).asString().contains("secure");
    Exchange exchange = result.exchange().orElseThrow();
    assertThat(exchange.protocols()).containsExactly("h2", "tls/1.3");
    assertThat(exchange.cipherSuite()).startsWith("TLS_");
    assertThat(exchange.ip()).isEqualTo("127.0.0.1");
    // Written in HTTP/1.1 syntax, as WARC readers expect; WARC-Protocol says it was h2.
    assertThat(ascii(exchange.responseHead())).startsWith("HTTP/1.1 200\r\n");
    assertThat(ascii(exchange.requestHead())).startsWith("GET /page HTTP/1.1\r\n");
  }

  @Test
  void fetch_h2AnswerLate_readTimeoutCutsItBeforeTheCallTimeout() throws Exception {
    server.useHttps(valid.serverContext().getSocketFactory());
    server.setProtocols(List.of(Protocol.HTTP_2, Protocol.HTTP_1_1));
    server.enqueue(new MockResponse.Builder().headersDelay(10, TimeUnit.SECONDS).body("late")
        .build());
    server.start(InetAddress.getByName("127.0.0.1"), 0);
    fetcher = Fetcher.builder().tls(TlsSettings.withCaCerts(List.of(ca.caCert())))
        .readTimeout(Duration.ofMillis(300)).callTimeout(Duration.ofSeconds(8)).build();

    FetchResult result = assertTimeoutPreemptively(Duration.ofSeconds(20),
        () -> fetcher.fetch("https://localhost:" + server.getPort() + "/late"));

    assertThat(result.error()).isEqualTo(FetchError.TIMEOUT);
    assertThat(result.errorMessage()).isEqualTo("read timed out");
  }

  @Test
  void fetch_serverOffersOnlyHttp11_exchangeIsHttp11OverTls() throws Exception {
    String url = serve(valid, List.of(Protocol.HTTP_1_1));

    FetchResult result = trusting(TlsSettings.withCaCerts(List.of(ca.caCert()))).fetch(url);

    assertThat(result.status()).isEqualTo(200);
    assertThat(result.exchange().orElseThrow().protocols()).containsExactly("http/1.1", "tls/1.3");
  }

  @Test
  void fetch_privateCaWithoutCaCert_tlsErrorUnknownAuthority() throws Exception {
    String url = serve(valid, List.of(Protocol.HTTP_2, Protocol.HTTP_1_1));

    FetchResult result = trusting(TlsSettings.system()).fetch(url);

    assertThat(result.status()).isZero();
    assertThat(result.error()).isEqualTo(FetchError.TLS);
    assertThat(result.error().label()).isEqualTo("tls-error");
    assertThat(result.errorMessage()).isEqualTo("unknown authority");
  }

  @Test
  void fetch_expiredCertificate_tlsErrorCertificateExpired() throws Exception {
    String url = serve(expired, List.of(Protocol.HTTP_2, Protocol.HTTP_1_1));

    FetchResult result = trusting(TlsSettings.withCaCerts(List.of(ca.caCert()))).fetch(url);

    assertThat(result.error()).isEqualTo(FetchError.TLS);
    assertThat(result.errorMessage()).isEqualTo("certificate expired");
  }

  @Test
  void fetch_certificateForAnotherName_tlsErrorHostnameMismatch() throws Exception {
    String url = serve(otherName, List.of(Protocol.HTTP_2, Protocol.HTTP_1_1));

    FetchResult result = trusting(TlsSettings.withCaCerts(List.of(ca.caCert()))).fetch(url);

    assertThat(result.error()).isEqualTo(FetchError.TLS);
    assertThat(result.errorMessage()).isEqualTo("hostname mismatch");
  }

  @Test
  void withCaCerts_fileWithoutCertificate_refusedNamingTheFile() throws Exception {
    Path junk = Files.writeString(dir.resolve("junk.pem"), "not a certificate\n");

    assertThatThrownBy(() -> TlsSettings.withCaCerts(List.of(junk)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("caCert (" + junk + ")");
    assertThatThrownBy(() -> TlsSettings.withCaCerts(List.of(dir.resolve("missing.pem"))))
        .hasMessage("caCert (" + dir.resolve("missing.pem") + ") does not exist");
  }

  private static String ascii(java.nio.ByteBuffer buffer) {
    byte[] bytes = new byte[buffer.remaining()];
    buffer.get(bytes);
    return new String(bytes, java.nio.charset.StandardCharsets.ISO_8859_1);
  }
}
