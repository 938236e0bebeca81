package dev.sieve.frontier.queue;

import dev.sieve.frontier.FrontierSettings;
import java.nio.file.Path;
import java.time.Duration;

/**
 * What the engine needs to create a crawl: the URLs each crawl's Sieve is sized for, its target
 * false-positive rate, the delay between two productions of a queue when its client set none, and
 * where fresh pending URLs go beyond a heap budget. Validated by the settings they come from (the
 * service's options).
 *
 * @param expectedUrls distinct URLs each crawl's Sieve is sized for
 * @param falsePositiveRate the Sieve's target false-positive rate
 * @param queueDelay the least time between two productions of a queue, unless set per queue
 * @param pendingMemoryBytes heap each crawl's fresh pending URLs may take before they spill
 * @param spillDir where they spill (a directory per crawl below it); null for a temporary
 *     directory, deleted when the crawls close
 * @param completedDir where each crawl's completed URLs are logged (a file per crawl, kept); null
 *     for a directory inside the spill directory, deleted with it
 */
public record QueueSettings(long expectedUrls, double falsePositiveRate, Duration queueDelay,
    long pendingMemoryBytes, Path spillDir, Path completedDir) {
  /**
   * What a service's crawls take of {@code settings}: the seen filter's size and rate, the
   * politeness delay, the pending memory; spilling into the state directory's
   * {@code spill}, or the spill directory; completed URLs logged in its {@code completed}, or
   * inside the spill directory.
   */
  public static QueueSettings of(FrontierSettings settings) {
    return new QueueSettings(settings.expectedUrls, settings.falsePositiveRate,
        settings.politeness.delay(), settings.pendingMemoryBytes,
        settings.stateDir != null ? settings.stateDir.resolve("spill") : settings.spillDir,
        settings.stateDir != null ? settings.stateDir.resolve("completed") : null);
  }
}
