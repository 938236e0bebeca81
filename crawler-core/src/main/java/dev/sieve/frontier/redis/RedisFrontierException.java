package dev.sieve.frontier.redis;

import dev.sieve.frontier.FrontierStoreException;

/**
 * A {@link RedisFrontier} cannot be used: Redis is unreachable or refused a command, or the crawl
 * in Redis was created with other settings. The message says which, in one line, for the user.
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
