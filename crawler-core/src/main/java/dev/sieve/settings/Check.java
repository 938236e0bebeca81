package dev.sieve.settings;

import java.time.Duration;

/**
 * The checks settings builders run in {@code build()}: each throws an {@link
 * IllegalArgumentException} whose message names the setting and its value, {@code "retries (-1)
 * must be >= 0"}, so that the command line can put its option in place of the name.
 */
public final class Check {
  private Check() {}

  /** {@code value} is at least {@code min}. */
  public static void atLeast(String name, long value, long min) {
    if (value < min) {
      throw new IllegalArgumentException(name + " (" + value + ") must be >= " + min);
    }
  }

  /** {@code value} is at least 1. */
  public static void positive(String name, long value) {
    atLeast(name, value, 1);
  }

  /** {@code value} is in {@code [min, max]}. */
  public static void between(String name, long value, long min, long max) {
    if (value < min || value > max) {
      throw new IllegalArgumentException(
          name + " (" + value + ") must be between " + min + " and " + max);
    }
  }

  /** {@code value} is zero or longer. */
  public static void notNegative(String name, Duration value) {
    if (value.isNegative()) {
      throw new IllegalArgumentException(name + " (" + value + ") must be >= 0");
    }
  }

  /** {@code value} is longer than zero. */
  public static void positive(String name, Duration value) {
    if (value.isZero() || value.isNegative()) {
      throw new IllegalArgumentException(name + " (" + value + ") must be > 0");
    }
  }

  /** {@code value} is at most {@code max}. */
  public static void atMost(String name, Duration value, Duration max) {
    if (value.compareTo(max) > 0) {
      throw new IllegalArgumentException(name + " (" + value + ") must be <= " + max);
    }
  }

  /** {@code value} is strictly between 0 and 1 (a rate; NaN is not). */
  public static void rate(String name, double value) {
    if (!(value > 0 && value < 1)) {
      throw new IllegalArgumentException(name + " (" + value + ") must be in (0, 1)");
    }
  }

  /** {@code value} is neither null nor blank. */
  public static void notBlank(String name, String value) {
    if (value == null || value.isBlank()) {
      throw new IllegalArgumentException(name + " (" + value + ") must not be blank");
    }
  }
}
