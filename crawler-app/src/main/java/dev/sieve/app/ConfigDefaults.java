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
 * ({@code max-pages=100}). Options given on the command line win.
 */
final class ConfigDefaults implements CommandLine.IDefaultValueProvider {
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
      known.add(key(option));
    }
    for (String key : properties.stringPropertyNames()) {
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
