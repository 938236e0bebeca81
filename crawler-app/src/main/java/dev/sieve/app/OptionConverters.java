package dev.sieve.app;

import dev.sieve.frontier.QueueKey;
import dev.sieve.frontier.SeenFilter;
import dev.sieve.url.Scope;
import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;

/** The values of {@code crawl}'s choice options, read case-insensitively; a wrong one names the choices. */
final class OptionConverters {
  private OptionConverters() {}

  /** Parses host|domain|any. */
  static final class ScopeConverter implements CommandLine.ITypeConverter<Scope> {
    @Override
    public Scope convert(String value) {
      return Scope.fromString(value).orElseThrow(() -> new CommandLine.TypeConversionException(
          "'" + value + "' is not a scope: use host, domain or any"));
    }
  }

  /** Parses blocked|classic|cuckoo. */
  static final class SeenFilterConverter implements CommandLine.ITypeConverter<SeenFilter> {
    @Override
    public SeenFilter convert(String value) {
      return SeenFilter.fromString(value).orElseThrow(() -> new CommandLine.TypeConversionException(
          "'" + value + "' is not a filter: use blocked, classic or cuckoo"));
    }
  }

  /**
   * Parses a duration as a whole number and a unit, {@code 500ms}, {@code 2s}, {@code 10m},
   * {@code 6h}, {@code 1d}; a wrong one names the form.
   */
  static final class DurationConverter implements CommandLine.ITypeConverter<Duration> {
    private static final Pattern FORM =
        Pattern.compile("(\\d{1,12})\\s*(ms|s|m|h|d)");

    @Override
    public Duration convert(String value) {
      Matcher m = FORM.matcher(value.strip().toLowerCase(Locale.ROOT));
      if (!m.matches()) {
        throw new CommandLine.TypeConversionException("'" + value + "' is not a duration: use a"
            + " whole number and a unit, ms, s, m, h or d (e.g. 30s, 10m, 1d)");
      }
      long amount = Long.parseLong(m.group(1));
      return switch (m.group(2)) {
        case "ms" -> Duration.ofMillis(amount);
        case "s" -> Duration.ofSeconds(amount);
        case "m" -> Duration.ofMinutes(amount);
        case "h" -> Duration.ofHours(amount);
        default -> Duration.ofDays(amount);
      };
    }
  }

  /** Parses host|domain|ip. */
  static final class QueueKeyConverter implements CommandLine.ITypeConverter<QueueKey> {
    @Override
    public QueueKey convert(String value) {
      try {
        return QueueKey.valueOf(value.strip().toUpperCase(Locale.ROOT));
      } catch (IllegalArgumentException e) {
        throw new CommandLine.TypeConversionException(
            "'" + value + "' is not a queue key: use host, domain or ip");
      }
    }
  }
}
