package dev.sieve.frontier.durable;

/**
 * {@code serve --state DIR} cannot use DIR: in use by another serve, unreadable, damaged. The
 * message names DIR (or the file) and the cause, in one line.
 */
public final class DurableStateException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  DurableStateException(String message) {
    super(message);
  }

  DurableStateException(String message, Throwable cause) {
    super(message, cause);
  }
}
