package dev.sieve.app;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.joran.JoranConfigurator;
import ch.qos.logback.core.joran.spi.JoranException;
import ch.qos.logback.core.util.StatusPrinter2;
import java.nio.file.Files;
import java.nio.file.Path;
import org.slf4j.LoggerFactory;

/**
 * Configures Logback from {@code config/logback.xml} when it exists in the working directory (and
 * {@code -Dlogback.configurationFile} is not given); otherwise the jar's own
 * console logging, {@link DefaultLogging}, applies.
 */
final class Logging {
  static final Path CONFIG = Path.of("config", "logback.xml");

  private Logging() {}

  static void configure() {
    if (System.getProperty("logback.configurationFile") != null || !Files.isReadable(CONFIG)) {
      return;
    }
    LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
    context.reset();
    JoranConfigurator configurator = new JoranConfigurator();
    configurator.setContext(context);
    try {
      configurator.doConfigure(CONFIG.toFile());
    } catch (JoranException e) {
      System.err.println("Bad logging configuration " + CONFIG + ": " + e.getMessage());
    }
    new StatusPrinter2().printInCaseOfErrorsOrWarnings(context);
  }
}
