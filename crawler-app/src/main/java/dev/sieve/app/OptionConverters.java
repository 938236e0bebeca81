package dev.sieve.app;

import dev.sieve.frontier.QueueKey;
import dev.sieve.frontier.SeenFilter;
import dev.sieve.url.Scope;
import java.util.Locale;
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
