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
}
