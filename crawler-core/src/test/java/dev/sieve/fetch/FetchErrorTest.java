package dev.sieve.fetch;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.net.ProtocolException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import javax.net.ssl.SSLHandshakeException;
import org.junit.jupiter.api.Test;

/** Exception mapping for failures that cannot be provoked on 127.0.0.1 alone (DNS, TLS). */
class FetchErrorTest {
  @Test
  void classify_mapsExceptionsToKindsAndReasons() {
    assertKind(new SocketTimeoutException("Connect timed out"), FetchError.TIMEOUT,
        "connect timed out");
    assertKind(new SocketTimeoutException("timeout"), FetchError.TIMEOUT, "read timed out");
    assertKind(new InterruptedIOException("timeout"), FetchError.TIMEOUT, "call timed out");
    ConnectException refused = new ConnectException("Failed to connect to /127.0.0.1:1");
    refused.initCause(new ConnectException("Connection refused"));
    assertKind(refused, FetchError.CONNECT, "connection refused");
    assertKind(new ConnectException("Network is unreachable"), FetchError.CONNECT,
        "connect failed");
    assertKind(new UnknownHostException("nope.invalid"), FetchError.DNS, "unknown host");
    assertKind(new SSLHandshakeException("bad cert"), FetchError.TLS, "tls error");
    assertKind(new ProtocolException("Unexpected status line"), FetchError.PROTOCOL,
        "protocol error");
    assertKind(new IOException("unexpected end of stream"), FetchError.IO,
        "i/o error: unexpected end of stream");
    assertKind(new InterruptedIOException(), FetchError.IO,
        "i/o error (InterruptedIOException)");
  }

  @Test
  void label_isShortLowerCase() {
    assertThat(FetchError.TIMEOUT.label()).isEqualTo("timeout");
    assertThat(FetchError.CONNECT.label()).isEqualTo("connect");
    for (FetchError error : FetchError.values()) {
      assertThat(error.label()).matches("[a-z-]+");
    }
  }

  private static void assertKind(IOException e, FetchError kind, String reason) {
    assertThat(FetchError.classify(e)).as("%s", e).isEqualTo(kind);
    assertThat(FetchError.reason(e)).as("%s", e).isEqualTo(reason);
  }
}
