package dev.sieve.fetch;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.common.io.BaseEncoding;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.zip.GZIPOutputStream;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import okio.Buffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The exchange a fetch captures for the archive: heads, the body as transferred, IP, digest. */
class FetchExchangeTest {
  private final MockWebServer server = new MockWebServer();
  private Fetcher fetcher;

  @BeforeEach
  void setUp() throws IOException {
    server.start(InetAddress.getByName("127.0.0.1"), 0);
    fetcher = Fetcher.builder().maxBodyBytes(1000).build();
  }

  @AfterEach
  void tearDown() {
    fetcher.close();
    server.close();
  }

  private String url(String path) {
    return "http://127.0.0.1:" + server.getPort() + path;
  }

  private static String text(ByteBuffer bytes) {
    return StandardCharsets.ISO_8859_1.decode(bytes).toString();
  }

  private static byte[] bytes(ByteBuffer buffer) {
    byte[] out = new byte[buffer.remaining()];
    buffer.get(out);
    return out;
  }

  private static byte[] gzip(String text) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (OutputStream gzip = new GZIPOutputStream(out)) {
      gzip.write(text.getBytes(StandardCharsets.UTF_8));
    }
    return out.toByteArray();
  }

  @Test
  void fetch_gzipBody_payloadKeptCompressedAndBodyDecoded() throws Exception {
    byte[] compressed = gzip("<html>hello</html>");
    server.enqueue(new MockResponse.Builder().code(200)
        .setHeader("Content-Type", "text/html")
        .setHeader("Content-Encoding", "gzip")
        .body(new Buffer().write(compressed)).build());

    FetchResult result = fetcher.fetch(url("/a?b=1"));

    assertThat(new String(result.body(), StandardCharsets.UTF_8)).isEqualTo("<html>hello</html>");
    Exchange exchange = result.exchange().orElseThrow();
    assertThat(bytes(exchange.payload())).isEqualTo(compressed);
    byte[] inPlace = exchange.<byte[]>readPayload(
        (bytes, offset, length) -> Arrays.copyOfRange(bytes, offset, offset + length));
    assertThat(inPlace)
        .as("read in place").isEqualTo(compressed);
    assertThat(exchange.truncation()).isEqualTo(Exchange.Truncation.NONE);
    assertThat(result.sha1()).isEqualTo(BaseEncoding.base32().encode(
        MessageDigest.getInstance("SHA-1").digest(compressed)));
    assertThat(result.ip()).isEqualTo("127.0.0.1");
  }

  @Test
  void fetch_heads_requestAsSentAndResponseAsReceived() throws Exception {
    server.enqueue(new MockResponse.Builder().code(503).setHeader("Retry-After", "7")
        .setHeader("X-Odd", "Value").body("busy").build());

    FetchResult result = fetcher.fetch(url("/p/x.html?q=a%20b"));

    Exchange exchange = result.exchange().orElseThrow();
    String request = text(exchange.requestHead());
    assertThat(request).startsWith("GET /p/x.html?q=a%20b HTTP/1.1\r\n")
        .contains("Host: 127.0.0.1:" + server.getPort() + "\r\n")
        .contains("User-Agent: " + Fetcher.DEFAULT_USER_AGENT + "\r\n")
        .contains("Accept-Encoding: gzip\r\n")
        .endsWith("\r\n\r\n");
    assertThat(server.takeRequest().getHeaders().get("Accept-Encoding")).isEqualTo("gzip");
    String response = text(exchange.responseHead());
    assertThat(response).startsWith("HTTP/1.1 503 ")
        .contains("Retry-After: 7\r\n") // as received, not as hidden from OkHttp
        .contains("X-Odd: Value\r\n")
        .doesNotContain(NoSilentRetries.HEADER)
        .endsWith("\r\n\r\n");
    assertThat(text(exchange.payload())).isEqualTo("busy");
  }

  @Test
  void fetch_chunkedBody_payloadDechunked() {
    server.enqueue(new MockResponse.Builder().code(200).chunkedBody("0123456789abcdef", 5).build());

    Exchange exchange = fetcher.fetch(url("/")).exchange().orElseThrow();

    assertThat(text(exchange.payload())).isEqualTo("0123456789abcdef");
    assertThat(text(exchange.responseHead())).containsIgnoringCase("Transfer-Encoding: chunked");
  }

  @Test
  void fetch_bodyOverCap_payloadCutAtCapAsLength() {
    server.enqueue(new MockResponse.Builder().code(200).body("x".repeat(5000)).build());

    FetchResult result = fetcher.fetch(url("/"));

    Exchange exchange = result.exchange().orElseThrow();
    assertThat(exchange.payload().remaining()).isEqualTo(1000);
    assertThat(exchange.truncation()).isEqualTo(Exchange.Truncation.LENGTH);
    assertThat(result.truncated()).isTrue();
  }

  @Test
  void fetch_gzipExpandingPastCap_payloadCompleteButBodyTruncated() throws Exception {
    byte[] compressed = gzip("z".repeat(50_000));
    server.enqueue(new MockResponse.Builder().code(200).setHeader("Content-Encoding", "gzip")
        .body(new Buffer().write(compressed)).build());

    FetchResult result = fetcher.fetch(url("/"));

    assertThat(result.truncated()).isTrue();
    assertThat(result.error()).isNull();
    assertThat(result.bytes()).isEqualTo(1000);
    Exchange exchange = result.exchange().orElseThrow();
    assertThat(bytes(exchange.payload())).isEqualTo(compressed);
    assertThat(exchange.truncation()).isEqualTo(Exchange.Truncation.NONE);
  }

  @Test
  void fetch_corruptGzip_truncatedWithErrorAndPayloadKept() {
    server.enqueue(new MockResponse.Builder().code(200).setHeader("Content-Encoding", "gzip")
        .body("not gzip at all").build());

    FetchResult result = fetcher.fetch(url("/"));

    assertThat(result.truncated()).isTrue();
    assertThat(result.error()).isEqualTo(FetchError.IO);
    assertThat(text(result.exchange().orElseThrow().payload())).isEqualTo("not gzip at all");
  }

  @Test
  void fetch_slowBody_cutByTimeoutAsTime() {
    server.enqueue(new MockResponse.Builder().code(200).body("y".repeat(500))
        .throttleBody(1, 100, java.util.concurrent.TimeUnit.MILLISECONDS).build());
    try (Fetcher slow = Fetcher.builder().callTimeout(Duration.ofMillis(500)).build()) {
      FetchResult result = slow.fetch(url("/"));

      assertThat(result.error()).isEqualTo(FetchError.TIMEOUT);
      assertThat(result.exchange().orElseThrow().truncation()).isEqualTo(Exchange.Truncation.TIME);
    }
  }

  @Test
  void fetch_connectionRefused_noExchangeNoIpNoDigest() throws IOException {
    int port = server.getPort();
    server.close();

    FetchResult result = fetcher.fetch("http://127.0.0.1:" + port + "/");

    assertThat(result.exchange()).isEmpty();
    assertThat(result.ip()).isNull();
    assertThat(result.sha1()).isNull();
  }

  @Test
  void exchange_secretHeaders_withheldFromTheHeads_sentAsIs() throws Exception {
    server.enqueue(new MockResponse.Builder().code(200).setHeader("Set-Cookie", "sid=hunter2; Path=/")
        .body("ok").build());
    Fetcher decorated = Fetcher.builder().requestStep(chain -> chain.proceed(chain.request().newBuilder()
        .header("Authorization", "Bearer s3cret").header("Cookie", "sid=hunter1").build())).build();
    try {
      Exchange exchange = decorated.fetch(url("/")).exchange().orElseThrow();

      assertThat(server.takeRequest().getHeaders().get("Authorization")).isEqualTo("Bearer s3cret");
      assertThat(text(exchange.requestHead())).contains("Authorization: (withheld)\r\n")
          .contains("Cookie: (withheld)\r\n").doesNotContain("s3cret").doesNotContain("hunter1");
      assertThat(text(exchange.responseHead())).contains("Set-Cookie: (withheld)\r\n")
          .doesNotContain("hunter2");
    } finally {
      decorated.close();
    }
  }
}
