package dev.sieve.serve;

/**
 * {@code serve --state DIR} cannot use DIR: in use by another serve, unreadable, damaged. The
 * message names DIR (or the file) and the cause, in one line.
 */
public final class ServeStateException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  ServeStateException(String message) {
    super(message);
  }

  ServeStateException(String message, Throwable cause) {
    super(message, cause);
  }
}
