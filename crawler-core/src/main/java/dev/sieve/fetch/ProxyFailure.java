package dev.sieve.fetch;

import java.io.IOException;

/**
 * A fetch failed at its proxy, not at the server: the proxy could not be reached ({@link
 * FetchError#PROXY_UNREACHABLE}) or refused the crawler's credentials ({@link
 * FetchError#PROXY_AUTH}). Its message is the short cause, never a credential.
 */
final class ProxyFailure extends IOException {
  private static final long serialVersionUID = 1L;

  final transient FetchError error;

  private ProxyFailure(FetchError error, String cause) {
    super(cause);
    this.error = error;
  }

  /** The proxy did not accept a connection or stopped answering: {@code cause} says how. */
  static ProxyFailure unreachable(String cause) {
    return new ProxyFailure(FetchError.PROXY_UNREACHABLE, cause);
  }

  /** The proxy wants credentials it was not given, or refused those it was. */
  static ProxyFailure authRequired(String cause) {
    return new ProxyFailure(FetchError.PROXY_AUTH, cause);
  }

  /**
   * The proxy's failure, when a call through an HTTP proxy ({@code capture.proxy}) that failed
   * with {@code error} ({@code reason}) got no answer from it: nothing reached the server (a
   * connect, a CONNECT or a timeout before the request: the connection was to the proxy), or the
   * proxy closed or reset a plain-http request's connection without answering (a server the proxy
   * cannot reach is an answer, such as 502). Null for any other failure, a SOCKS5 proxy's (told
   * apart by {@link Socks5Socket}), or a read timeout after the request (the server may be slow).
   */
  static ProxyFailure of(FetchError error, String reason, Capture capture, boolean https) {
    if (capture.proxy == null || capture.proxy.kind() == ProxyServer.Kind.SOCKS5
        || capture.responseHead() != null) {
      return null;
    }
    boolean nothingSent = capture.requestHead() == null;
    if (nothingSent && (error == FetchError.CONNECT || error == FetchError.TIMEOUT)) {
      return unreachable(reason);
    }
    if (error == FetchError.IO && (nothingSent || !https)) {
      return unreachable(reason.toLowerCase(java.util.Locale.ROOT).contains("reset")
          ? "proxy reset the connection" : "proxy closed the connection without answering");
    }
    return null;
  }
}
