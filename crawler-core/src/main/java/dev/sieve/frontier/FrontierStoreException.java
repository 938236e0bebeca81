package dev.sieve.frontier;

/**
 * The store a shared frontier lives in cannot be used: it is unreachable or refused a command, or
 * the crawl there was created with other settings. The message says which, in one line, for the
 * user.
 */
public class FrontierStoreException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public FrontierStoreException(String message) {
    super(message);
  }

  public FrontierStoreException(String message, Throwable cause) {
    super(message, cause);
  }
}
