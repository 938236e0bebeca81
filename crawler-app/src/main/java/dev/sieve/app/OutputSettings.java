package dev.sieve.app;

import dev.sieve.settings.Check;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;

/**
 * Where and how often a crawl reports: the JSON Lines output and the progress interval.
 * Immutable; built with {@link #builder()} and validated once in {@link Builder#build()}. Each
 * default is a constant here, read by the builder and by {@code crawl}'s option defaults.
 */
final class OutputSettings {
  /** Default {@link Builder#file}. */
  static final String DEFAULT_FILE = "crawl.jsonl";
  /** Default {@link Builder#progressInterval}, in seconds. */
  static final long DEFAULT_PROGRESS_SECONDS = 10;

  private final Path file;
  private final boolean overwrite;
  private final Duration progressInterval;

  private OutputSettings(Builder b) {
    this.file = b.file;
    this.overwrite = b.overwrite;
    this.progressInterval = b.progressInterval;
  }

  static Builder builder() {
    return new Builder();
  }

  /** The JSON Lines file, one record per URL. */
  Path file() {
    return file;
  }

  /** Whether a file already holding records may be replaced (resuming appends regardless). */
  boolean overwrite() {
    return overwrite;
  }

  /** Time between progress lines. */
  Duration progressInterval() {
    return progressInterval;
  }

  /** Output settings; every value has a default. */
  static final class Builder {
    private Path file = Path.of(DEFAULT_FILE);
    private boolean overwrite;
    private Duration progressInterval = Duration.ofSeconds(DEFAULT_PROGRESS_SECONDS);

    private Builder() {}

    /** The JSON Lines file (default crawl.jsonl). */
    Builder file(Path file) {
      this.file = Objects.requireNonNull(file, "output");
      return this;
    }

    /** Replace a file that already holds records (default false: refused). */
    Builder overwrite(boolean overwrite) {
      this.overwrite = overwrite;
      return this;
    }

    /** Time between progress lines (default 10 s, at least 1 s). */
    Builder progressInterval(Duration interval) {
      this.progressInterval = Objects.requireNonNull(interval, "progressInterval");
      return this;
    }

    OutputSettings build() {
      Check.atLeast("progressInterval", progressInterval.toSeconds(), 1);
      return new OutputSettings(this);
    }
  }
}
