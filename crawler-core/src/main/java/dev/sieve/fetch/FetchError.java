package dev.sieve.fetch;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.net.ProtocolException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.util.Locale;
import javax.net.ssl.SSLException;

/**
 * Why a fetch got no (complete) response. Expected network failures are reported as data in a
 * {@link FetchResult}, never thrown.
 */
public enum FetchError {
  /** A connect, read or whole-call timeout expired. */
  TIMEOUT("timeout"),
  /** The TCP connection could not be established, e.g. refused or unreachable. */
  CONNECT("connect"),
  /** The host name did not resolve. */
  DNS("dns"),
  /**
   * The TLS handshake or TLS session failed; the reason names the cause: {@code certificate
   * expired}, {@code hostname mismatch}, {@code unknown authority}, else {@code tls error}.
   */
  TLS("tls-error"),
  /** The server broke the HTTP protocol, e.g. a malformed status line. */
  PROTOCOL("protocol"),
  /** Any other I/O failure, e.g. the connection was reset mid-response. */
  IO("io"),
  /** The host resolved only to addresses the {@link AddressPolicy} refuses: nothing was sent. */
  PRIVATE_ADDRESS("private-address"),
  /**
   * The proxy could not be reached (refused, timed out, closed before the request: nothing reached
   * the server), or closed or reset a request's connection without answering.
   */
  PROXY_UNREACHABLE("proxy-unreachable"),
  /** The proxy wants credentials it was not given, or refused those it was (407). */
  PROXY_AUTH("proxy-auth-required");

  private final String label;

  FetchError(String label) {
    this.label = label;
  }

  /** A short lower-case label for logs and crawl summaries, e.g. {@code "timeout"}. */
  public String label() {
    return label;
  }

  /** Maps a failure of an OkHttp call to its kind. */
  static FetchError classify(IOException e) {
    if (e instanceof BlockedAddressException) {
      return PRIVATE_ADDRESS;
    }
    if (e instanceof ProxyFailure proxy) {
      return proxy.error;
    }
    // A CONNECT's answer is the proxy's: tinyproxy answers wrong credentials with 401, not 407.
    if (messageContains(e, "failed to authenticate with proxy")
        || messageContains(e, "unexpected response code for connect: 407")
        || messageContains(e, "unexpected response code for connect: 401")) {
      return PROXY_AUTH;
    }
    if (e instanceof SocketTimeoutException) {
      return TIMEOUT;
    }
    if (e instanceof InterruptedIOException && "timeout".equals(e.getMessage())) {
      return TIMEOUT; // OkHttp's call timeout
    }
    if (e instanceof ConnectException) {
      return CONNECT;
    }
    if (e instanceof UnknownHostException) {
      return DNS;
    }
    if (e instanceof SSLException) {
      return TLS;
    }
    if (e instanceof ProtocolException) {
      return PROTOCOL;
    }
    return IO;
  }

  /** A short human reason for a failure of kind {@link #classify(IOException)}. */
  static String reason(IOException e) {
    return switch (classify(e)) {
      case TIMEOUT -> {
        if (!(e instanceof SocketTimeoutException)) {
          yield "call timed out";
        }
        yield messageContains(e, "connect") ? "connect timed out" : "read timed out";
      }
      case CONNECT -> messageContains(e, "refused") ? "connection refused" : "connect failed";
      case DNS -> "unknown host";
      case TLS -> TlsCause.of(e);
      case PROTOCOL -> "protocol error";
      case PRIVATE_ADDRESS, PROXY_UNREACHABLE -> e.getMessage();
      case PROXY_AUTH -> e instanceof ProxyFailure ? e.getMessage()
          : messageContains(e, "connect: 401") ? "proxy answered 401" : "proxy answered 407";
      case IO -> e.getMessage() == null
          ? "i/o error (" + e.getClass().getSimpleName() + ")"
          : "i/o error: " + e.getMessage();
    };
  }

  /** Whether {@code e} or one of its causes has a message containing {@code word}. */
  private static boolean messageContains(Throwable e, String word) {
    for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
      String message = t.getMessage();
      if (message != null && message.toLowerCase(Locale.ROOT).contains(word)) {
        return true;
      }
    }
    return false;
  }
}
