package dev.sieve.app;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * On an {@code @Option} field: the library settings the option sets, so that a settings
 * builder's message about one of them names the option instead (see {@link OptionNames}).
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.FIELD)
@interface Setting {
  /** The settings' names as the builders' messages give them, {@code "falsePositiveRate"}. */
  String[] value();
}
