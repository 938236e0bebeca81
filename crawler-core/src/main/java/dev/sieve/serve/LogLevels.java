package dev.sieve.serve;

/** Sets the level of a logger, for SetLogLevel; the logging backend lives in the application. */
@FunctionalInterface
public interface LogLevels {
  /**
   * Sets logger {@code name} (a package or class; "ROOT" for the root logger) to {@code level},
   * one of TRACE, DEBUG, INFO, WARN, ERROR.
   */
  void set(String name, String level);
}
