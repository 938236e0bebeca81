package dev.sieve.frontier.state;

import dev.sieve.frontier.Frontier;
import dev.sieve.frontier.FrontierListener;
import dev.sieve.frontier.FrontierSettings;
import dev.sieve.frontier.Sieve;
import dev.sieve.frontier.local.LocalFrontierBuilder;
import dev.sieve.frontier.redis.RedisFrontier;
import dev.sieve.frontier.urlfrontier.ServiceFrontier;
import dev.sieve.url.Url;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Comparator;
import java.util.List;

/**
 * The one way to make a crawl's frontier: from {@link FrontierSettings}, in this process or
 * shared through Redis, its state restored when it has a state directory to resume.
 */
public final class Frontiers {
  private Frontiers() {}

  /**
   * Opens the frontier {@code settings} describe:
   *
   * <ul>
   *   <li>scheduled by a URL Frontier service ({@link FrontierSettings#urlFrontierUri}): the
   *       crawl ID's queues there, which the service's own Sieve fills (the seen filter settings
   *       are the service's, not these);
   *   <li>shared ({@link FrontierSettings#redisUri}): creates the crawl in Redis, or joins it;
   *   <li>with a state directory: resumes the crawl saved there (checkpoint, then journals, the
   *       URLs in flight at a crash fetched again unless {@code listener} recorded them; the saved
   *       seeds in {@link Frontier#savedSeeds()}, the counters in {@link
   *       Frontier#restoredCounts()}), or starts one there; checkpoints from {@link
   *       Frontier#start()} to {@link Frontier#end()};
   *   <li>otherwise: a new local frontier, pending URLs past the memory budget spilled to a
   *       temporary directory deleted at exit.
   * </ul>
   *
   * @param seeds the crawl's seeds: on resume, checked against the saved ones (see {@link
   *     FrontierSettings#addSeeds})
   * @throws CrawlStateException if the state directory cannot be used (the message says why)
   * @throws dev.sieve.frontier.redis.RedisFrontierException if Redis is unreachable or the crawl
   *     there has other settings
   * @throws IllegalArgumentException for a setting out of range or a malformed service URI (the
   *     message names it)
   * @throws UncheckedIOException if no temporary directory can be made
   */
  public static Frontier open(FrontierSettings settings, List<Url> seeds, FrontierListener listener) {
    if (settings.urlFrontierUri != null) {
      return ServiceFrontier.connect(settings.urlFrontierUri, settings.crawlId,
          settings.politeness, settings.leaseDuration, Clock.systemUTC());
    }
    if (settings.shared()) {
      return RedisFrontier.builder()
          .uri(settings.redisUri)
          .crawlId(settings.crawlId)
          .expectedUrls(settings.expectedUrls)
          .falsePositiveRate(settings.falsePositiveRate)
          .growOnCapacity(settings.growOnCapacity)
          .politeness(settings.politeness)
          .leaseDuration(settings.leaseDuration)
          .connections(settings.connections)
          .build();
    }
    if (settings.stateDir != null) {
      return new KeptFrontier(Checkpointer.open(settings, seeds, listener));
    }
    return local(settings, newSieve(settings, listener), temporarySpillDir(), listener).build();
  }

  /** A Sieve over an empty seen filter of the settings' kind and size. */
  static Sieve newSieve(FrontierSettings settings, FrontierListener listener) {
    return Sieve.over(
        settings.seenFilter.create(settings.expectedUrls, settings.falsePositiveRate, settings.growOnCapacity),
        settings.falsePositiveRate,
        listener::onCapacityWarning);
  }

  /** A local frontier's settings, its pending URLs spilled to {@code spill}. */
  static LocalFrontierBuilder local(
      FrontierSettings settings, Sieve sieve, Path spill, FrontierListener listener) {
    return dev.sieve.frontier.local.LocalFrontier.builder(sieve)
        .ticker(settings.ticker)
        .politeness(settings.politeness)
        .spillTo(spill, settings.pendingMemoryBytes)
        .recrawlAfter(settings.recrawlAfter)
        .recordedElsewhere(listener::recordedBefore)
        .recordedSince(listener::recordedSince);
  }

  /** Without a state directory, pending URLs past the memory budget go to a temporary one. */
  private static Path temporarySpillDir() {
    try {
      Path dir = Files.createTempDirectory("sieve-spill-");
      Runtime.getRuntime().addShutdownHook(new Thread(() -> deleteQuietly(dir), "spill-cleanup"));
      return dir;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create a temporary directory for pending URLs: " + e.getMessage(), e);
    }
  }

  private static void deleteQuietly(Path dir) {
    try (var files = Files.walk(dir)) {
      files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      // Best effort at exit: the directory is under the system's temporary directory.
    }
  }
}
