package dev.sieve.app;

import dev.sieve.frontier.state.CrawlStateException;
import dev.sieve.warc.WarcException;
import java.io.IOException;
import picocli.CommandLine;

/**
 * A run of {@code crawl} that cannot go on: the command prints the message as one line on
 * standard error, without a usage hint, and exits with {@link #code}.
 */
final class CrawlStop extends RuntimeException {
  final int code;

  private CrawlStop(int code, String message) {
    super(message, null, false, false);
    this.code = code;
  }

  /** Refused (exit 2): the output or state belongs to another crawl or would be lost. */
  static CrawlStop refused(String message) {
    return new CrawlStop(CommandLine.ExitCode.USAGE, message);
  }

  /** A file could not be read or written (exit {@value CrawlCommand#EXIT_IO}). */
  static CrawlStop ioFailure(String message) {
    return new CrawlStop(CrawlCommand.EXIT_IO, message);
  }

  /** A state directory that cannot be used: an I/O failure when the disk failed, else refused. */
  static CrawlStop of(CrawlStateException e) {
    return causedByIo(e) ? ioFailure(e.getMessage()) : refused(e.getMessage());
  }

  /** A file that cannot be used: refused when the WARC directory is another crawl's, else exit 74. */
  static CrawlStop of(java.io.UncheckedIOException e) {
    return e instanceof WarcException warc && warc.inUse()
        ? refused(e.getMessage()) : ioFailure(e.getMessage());
  }

  private static boolean causedByIo(Throwable e) {
    for (Throwable cause = e.getCause(); cause != null; cause = cause.getCause()) {
      if (cause instanceof IOException) {
        return true;
      }
    }
    return false;
  }
}
