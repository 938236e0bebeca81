package dev.sieve.serve.limits;

import dev.sieve.frontier.queue.Counters;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How a call past a limit is refused: with its status and a one-line message naming the limit's
 * option, counted as {@code limit.KIND} (and by status code, as every error status is), logged as
 * a WARN the first time per kind and at DEBUG after. Thread-safe.
 */
public final class Rejections {
  private static final Logger log = LoggerFactory.getLogger(Rejections.class);
  /** Prefix of the counters of refusals, by kind. */
  public static final String COUNTER_PREFIX = "limit.";

  private final Counters counters;
  private final Set<String> logged = ConcurrentHashMap.newKeySet();

  public Rejections(Counters counters) {
    this.counters = counters;
  }

  /** Counts and logs a refusal of kind {@code kind}; returns the status to end the call with. */
  public StatusRuntimeException refuse(Status status, String kind, String message) {
    counted(kind, message);
    counters.increment(status.getCode().name().toLowerCase(Locale.ROOT));
    return status.withDescription(message).asRuntimeException();
  }

  /** Counts and logs a refusal the transport already answered. */
  public void counted(String kind, String message) {
    counters.increment(COUNTER_PREFIX + kind);
    if (logged.add(kind)) {
      log.warn("{} (further ones are counted as {}{} in GetStats)", message, COUNTER_PREFIX, kind);
    } else {
      log.debug(message);
    }
  }
}
