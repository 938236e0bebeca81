package dev.sieve.fetch;

import java.util.Locale;
import java.util.Optional;

/**
 * Tells a failure to reach a server (nothing answered: refused, timed out, reset, no such host)
 * from every other outcome, and names its cause in a short stable phrase for records and logs.
 */
public final class ConnectionFailure {
  private ConnectionFailure() {}

  /**
   * The cause when {@code result} is a connection-level failure, one of {@code connection
   * refused}, {@code connect failed}, {@code connect timeout}, {@code read timeout}, {@code call
   * timeout}, {@code connection reset}, {@code connection closed}, {@code i/o error} or {@code
   * unknown host}; empty for a response (any status), a TLS or protocol error, a refused
   * address, or a proxy's failure.
   */
  public static Optional<String> cause(FetchResult result) {
    FetchError error = result.error();
    if (error == null || result.status() != 0) {
      return Optional.empty();
    }
    String message = result.errorMessage() == null
        ? ""
        : result.errorMessage().toLowerCase(Locale.ROOT);
    return switch (error) {
      case CONNECT -> Optional.of(message.contains("refused") ? "connection refused" : "connect failed");
      case TIMEOUT -> Optional.of(message.contains("connect")
          ? "connect timeout"
          : message.contains("read") ? "read timeout" : "call timeout");
      case IO -> Optional.of(message.contains("reset")
          ? "connection reset"
          : message.contains("end of stream") || message.contains("closed")
              ? "connection closed"
              : "i/o error");
      case DNS -> Optional.of("unknown host");
      // A proxy's failure is not the server's: the proxy's health is watched on its own.
      case TLS, PROTOCOL, PRIVATE_ADDRESS, PROXY_UNREACHABLE, PROXY_AUTH -> Optional.empty();
    };
  }
}
