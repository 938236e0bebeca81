package dev.sieve.fetch;

import java.io.EOFException;
import java.io.IOException;
import java.net.SocketException;
import java.util.Locale;

/**
 * Tells, from how a request on a kept connection failed, that its peer had closed the connection
 * before the request: the connection ended before any byte of an answer (OkHttp's {@code
 * unexpected end of stream} over Okio's {@code \n not found: limit=0}), or the write or read met
 * a reset, a broken pipe or a closed socket. A timeout, or an answer cut after its first byte, is
 * not: that peer took the request.
 */
final class StaleConnection {
  private StaleConnection() {}

  /** Whether {@code e} says the connection was closed before any byte of an answer came. */
  static boolean unanswered(IOException e) {
    for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
      String message = t.getMessage() == null ? "" : t.getMessage().toLowerCase(Locale.ROOT);
      if (t instanceof EOFException) {
        return message.contains("limit=0 ");
      }
      if (t instanceof SocketException) {
        return message.contains("reset") || message.contains("broken pipe")
            || message.contains("socket closed");
      }
    }
    return false;
  }
}
