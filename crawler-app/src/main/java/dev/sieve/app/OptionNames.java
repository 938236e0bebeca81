package dev.sieve.app;

import java.lang.reflect.Field;
import java.util.Arrays;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * Puts the command-line option in place of the library's setting name at the start of a
 * validation message: {@code falsePositiveRate (0.0) must be in (0, 1)} becomes {@code --fpp (0.0)
 * must be in (0, 1)}. Which option sets which setting is read from the options' {@link Setting}
 * annotations, so each option is named once, in its {@code @Option}. A duration the option gave
 * in its own unit is shown as given: {@code maxCrawlDelay (PT-5S)} becomes {@code
 * --max-crawl-delay (-5)}.
 */
final class OptionNames {
  private OptionNames() {}

  /** {@code message} with a leading setting name replaced by the option of {@code spec} that sets it. */
  static String of(CommandSpec spec, String message) {
    int space = message.indexOf(' ');
    if (space <= 0) {
      return message;
    }
    String setting = message.substring(0, space);
    for (OptionSpec option : spec.options()) {
      if (sets(option, setting)) {
        return option.longestName() + asGiven(option, message.substring(space));
      }
    }
    return message;
  }

  private static boolean sets(OptionSpec option, String setting) {
    if (option.userObject() instanceof Field field) {
      Setting names = field.getAnnotation(Setting.class);
      return names != null && Arrays.asList(names.value()).contains(setting);
    }
    return false;
  }

  /** {@code rest} ({@code " (PT-5S) must …"}) with a duration replaced by the option's value. */
  private static String asGiven(OptionSpec option, String rest) {
    if (rest.startsWith(" (PT") || rest.startsWith(" (-PT")) {
      int close = rest.indexOf(')');
      if (close > 0 && option.getValue() != null) {
        return " (" + option.getValue() + rest.substring(close);
      }
    }
    return rest;
  }
}
