package dev.sieve.app;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * Option defaults from a properties file whose keys are long option names without the dashes
 * ({@code max-pages=100}). Options given on the command line win. Only crawl settings are keys:
 * {@code help}, {@code version} and the options that act once ({@code fresh}, {@code overwrite},
 * {@code add-seeds}, {@code status}, {@code config}) are refused.
 */
final class ConfigDefaults implements CommandLine.IDefaultValueProvider {
  /** Options that act once (start over, replace, print) rather than set up the crawl. */
  private static final Set<String> NOT_SETTINGS =
      Set.of("fresh", "overwrite", "add-seeds", "status", "config");
  private final Properties properties;

  private ConfigDefaults(Properties properties) {
    this.properties = properties;
  }

  /** Reads {@code file}; a key that names no option of {@code spec} is an error. */
  static ConfigDefaults load(Path file, CommandLine.Model.CommandSpec spec) throws IOException {
    Properties properties = new Properties();
    try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      properties.load(reader);
    }
    Set<String> known = new TreeSet<>();
    for (OptionSpec option : spec.options()) {
      if (!option.usageHelp() && !option.versionHelp() && !NOT_SETTINGS.contains(key(option))) {
        known.add(key(option));
      }
    }
    for (String key : properties.stringPropertyNames()) {
      if (spec.findOption(key) != null && !known.contains(key)) {
        throw new IllegalArgumentException(file + ": '" + key + "' is not a crawl setting but a"
            + " decision for one run: give --" + key + " on the command line");
      }
      if (!known.contains(key)) {
        throw new IllegalArgumentException(
            file + ": unknown setting '" + key + "' (known: " + String.join(", ", known) + ")");
      }
    }
    return new ConfigDefaults(properties);
  }

  @Override
  public String defaultValue(ArgSpec argSpec) {
    if (argSpec instanceof OptionSpec option) {
      String value = properties.getProperty(key(option));
      return value == null || value.isBlank() ? null : value.strip();
    }
    return null;
  }

  private static String key(OptionSpec option) {
    return option.longestName().replaceFirst("^-+", "");
  }
}
