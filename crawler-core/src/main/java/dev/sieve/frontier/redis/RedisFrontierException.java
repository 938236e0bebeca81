package dev.sieve.frontier.redis;

import dev.sieve.frontier.FrontierStoreException;

/**
 * The frontier in Redis cannot be used: Redis is unreachable or refused a command, or it holds a
 * crawl this Sieve cannot read. The message says which, in one line, for the user.
 */
public final class RedisFrontierException extends FrontierStoreException {
  private static final long serialVersionUID = 1L;

  public RedisFrontierException(String message) {
    super(message);
  }

  public RedisFrontierException(String message, Throwable cause) {
    super(message, cause);
  }
}
