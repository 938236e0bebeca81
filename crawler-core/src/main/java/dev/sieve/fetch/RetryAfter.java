package dev.sieve.fetch;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import okhttp3.Headers;

/** Parses a {@code Retry-After} header (RFC 9110 section 10.2.3). Stateless. */
final class RetryAfter {
  private static final String NAME = "Retry-After";

  private RetryAfter() {}

  /**
   * Returns the delay asked for by {@code headers}: delta-seconds as given, an HTTP-date relative
   * to {@code now} (zero if already past). Empty when the header is absent or malformed.
   */
  static Optional<Duration> parse(Headers headers, Instant now) {
    String value = headers.get(NAME);
    if (value == null) {
      return Optional.empty();
    }
    value = value.trim();
    if (!value.isEmpty() && value.chars().allMatch(c -> c >= '0' && c <= '9')) {
      try {
        return Optional.of(Duration.ofSeconds(Long.parseLong(value)));
      } catch (NumberFormatException tooLarge) {
        return Optional.empty();
      }
    }
    Instant date = headers.getInstant(NAME);
    if (date == null) {
      return Optional.empty();
    }
    Duration delay = Duration.between(now, date);
    return Optional.of(delay.isNegative() ? Duration.ZERO : delay);
  }
}
