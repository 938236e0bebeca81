package dev.sieve.app;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.spi.ContextAwareBase;

/**
 * The jar's own logging, used when neither {@code config/logback.xml} (see {@link Logging}) nor
 * {@code -Dlogback.configurationFile} is given: INFO and up to standard error (standard output is
 * for results), crawler-commons at WARN (its sitemap parser at ERROR: Sieve logs each unreadable
 * sitemap itself, in one line) and OkHttp at WARN. Set up in code, found by Logback through
 * {@code META-INF/services}, because reading the same from an XML file costs a fresh JVM ~0.1 s
 * of CPU (an XML parser and Joran's ~300 classes). A {@code logback-test.xml} on the class path
 * (the tests') is left to Logback.
 */
public final class DefaultLogging extends ContextAwareBase implements Configurator {
  static final String PATTERN = "%d{HH:mm:ss} %-5level %logger{20} - %msg%n";

  @Override
  public ExecutionStatus configure(LoggerContext context) {
    if (System.getProperty("logback.configurationFile") != null
        || DefaultLogging.class.getClassLoader().getResource("logback-test.xml") != null) {
      return ExecutionStatus.INVOKE_NEXT_IF_ANY;
    }
    PatternLayoutEncoder encoder = new PatternLayoutEncoder();
    encoder.setContext(context);
    encoder.setPattern(PATTERN);
    encoder.start();
    ConsoleAppender<ILoggingEvent> console = new ConsoleAppender<>();
    console.setContext(context);
    console.setName("CONSOLE");
    console.setTarget("System.err");
    console.setEncoder(encoder);
    console.start();
    Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
    root.setLevel(Level.INFO);
    root.addAppender(console);
    context.getLogger("crawlercommons").setLevel(Level.WARN);
    context.getLogger("crawlercommons.sitemaps").setLevel(Level.ERROR);
    context.getLogger("okhttp3").setLevel(Level.WARN);
    return ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY;
  }
}
