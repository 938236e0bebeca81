package dev.sieve.app;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.FileAppender;
import dev.sieve.frontier.Sieve;
import java.nio.file.Path;
import org.slf4j.LoggerFactory;

/**
 * While open, copies every log line that reaches the console to a file as well: the {@code demo}
 * keeps its crawl's log beside its output, whatever the logging configuration.
 */
final class DemoLog implements AutoCloseable {
  private final FileAppender<ILoggingEvent> appender = new FileAppender<>();
  private final Logger root;
  private final Logger capacity;

  private DemoLog(Path file) {
    LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
    PatternLayoutEncoder encoder = new PatternLayoutEncoder();
    encoder.setContext(context);
    encoder.setPattern("%d{yyyy-MM-dd'T'HH:mm:ss.SSSXXX} [%thread] %-5level %logger - %msg%n");
    encoder.start();
    appender.setContext(context);
    appender.setName("demo");
    appender.setFile(file.toString());
    appender.setEncoder(encoder);
    appender.start();
    root = context.getLogger(Logger.ROOT_LOGGER_NAME);
    root.addAppender(appender);
    // config/logback.xml sends capacity warnings to their own appenders, not up to the root's.
    capacity = context.getLogger(Sieve.CAPACITY_LOGGER);
    if (!capacity.isAdditive()) {
      capacity.addAppender(appender);
    }
  }

  static DemoLog to(Path file) {
    return new DemoLog(file);
  }

  @Override
  public void close() {
    root.detachAppender(appender);
    capacity.detachAppender(appender);
    appender.stop();
  }
}
