package dev.sieve.app;

import dev.sieve.frontier.state.CrawlState;
import dev.sieve.frontier.state.CrawlStateException;
import dev.sieve.units.Units;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The files a crawl writes, checked before any of them changes: whether the state directory holds
 * a crawl to resume, and the JSON Lines output, locked and refused when it would lose records.
 * Every failure is a {@link CrawlStop}: exit 2 when refused, 74 when the disk failed.
 */
final class CrawlFiles {
  private static final Logger log = LoggerFactory.getLogger("dev.sieve.crawl");

  private final OutputSettings output;
  private final Path stateDir;
  private final boolean resuming;

  private CrawlFiles(OutputSettings output, Path stateDir, boolean resuming) {
    this.output = output;
    this.stateDir = stateDir;
    this.resuming = resuming;
  }

  /**
   * Reads (only) whether {@code stateDir} holds a crawl to resume: not when it is null or when
   * starting {@code fresh}.
   */
  static CrawlFiles check(OutputSettings output, Path stateDir, boolean fresh) {
    try {
      return new CrawlFiles(output, stateDir, stateDir != null && !fresh && CrawlState.resumable(stateDir));
    } catch (CrawlStateException e) {
      throw CrawlStop.of(e);
    }
  }

  /** Whether the state directory holds a crawl to resume, whose output is appended to. */
  boolean resuming() {
    return resuming;
  }

  /**
   * Opens and locks the output, refusing one in use by another crawl, or holding records when
   * not resuming and not told to --overwrite.
   */
  JsonlOutput openOutput() {
    JsonlOutput jsonl;
    try {
      jsonl = JsonlOutput.open(output.file());
    } catch (JsonlOutput.InUseException e) {
      throw CrawlStop.refused(e.getMessage() + "; wait for it to finish, or give another --output");
    } catch (IOException e) {
      throw CrawlStop.ioFailure("cannot write " + output.file() + ": " + IoMessages.cause(e));
    }
    try {
      long size = jsonl.size();
      if (!resuming && !output.overwrite() && size > 0) {
        long lines = jsonl.lines();
        jsonl.close();
        throw CrawlStop.refused("output " + output.file() + " already holds " + String.format(Locale.ROOT, "%,d", lines)
            + " line(s) (" + Units.bytes(size) + "); refusing to replace it: give --overwrite to replace it,"
            + " --state DIR to resume the crawl that wrote it, or another --output");
      }
      if (resuming && size == 0) {
        log.warn("Resuming the crawl in {}, but {} is empty: earlier records are not in it", stateDir, output.file());
      }
    } catch (IOException e) {
      closeQuietly(jsonl);
      throw CrawlStop.ioFailure("cannot read " + output.file() + ": " + IoMessages.cause(e));
    }
    return jsonl;
  }

  /** Starts writing: appends to the output of a resumed crawl, else replaces what it holds. */
  void begin(JsonlOutput jsonl) {
    try {
      if (resuming) {
        jsonl.append();
        log.info("Resuming the crawl saved in {}; appending to {}", stateDir, output.file());
      } else {
        jsonl.replace();
      }
    } catch (IOException e) {
      throw CrawlStop.ioFailure(jsonl.message(e));
    }
  }

  private static void closeQuietly(JsonlOutput jsonl) {
    try {
      jsonl.close();
    } catch (IOException ignored) {
      // Already failing with a message.
    }
  }
}
