package dev.sieve.frontier;

import dev.sieve.frontier.durable.DurableStore;
import dev.sieve.frontier.local.LocalFrontier;
import dev.sieve.frontier.queue.Crawls;
import dev.sieve.frontier.queue.FrontierStore;
import dev.sieve.frontier.queue.QueueSettings;
import dev.sieve.frontier.queue.CrawlStore;
import dev.sieve.frontier.queue.PutResult;
import dev.sieve.frontier.queue.QueueStats;
import dev.sieve.frontier.redis.PatientCrawlStore;
import dev.sieve.frontier.redis.RedisFrontierException;
import dev.sieve.frontier.redis.RedisStore;
import dev.sieve.frontier.state.KeptState;
import dev.sieve.frontier.urlfrontier.ServiceFrontier;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Comparator;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The one way to make a frontier: from {@link FrontierSettings}, which say where it lives ({@link
 * FrontierSettings#where()}).
 */
public final class Frontiers {
  /** The longest a crawl's idle take waits before it asks Redis again (other processes' changes). */
  private static final Duration REDIS_POLL = Duration.ofMillis(50);

  private Frontiers() {}

  /** {@link #open(FrontierSettings, FrontierListener)} with no listener. */
  public static OpenFrontier open(FrontierSettings settings) {
    return open(settings, FrontierListener.NONE);
  }

  /**
   * Opens the frontier {@code settings} describe:
   *
   * <ul>
   *   <li>{@link FrontierSettings.Where#URL_FRONTIER}: the crawl ID's queues in a URL Frontier
   *       service, which the service's own Sieve fills (the seen filter settings are the
   *       service's, not these); connects lazily; its lifecycle disconnects;
   *   <li>{@link FrontierSettings.Where#REDIS}: the crawl ID's queues in Redis, the very ones a
   *       {@code serve --frontier redis://} node keeps ({@link EngineFrontier} over the service's
   *       Redis store), created or joined; its lifecycle disconnects;
   *   <li>{@link FrontierSettings.Where#STATE_DIR}: resumes the crawl saved there (checkpoint, then
   *       journals, the URLs in flight at a crash fetched again unless {@code listener} recorded
   *       them; the saved seeds and counters in its lifecycle), or starts one there; checkpoints
   *       from {@link FrontierLifecycle#start()} to {@link FrontierLifecycle#end()};
   *   <li>{@link FrontierSettings.Where#MEMORY}: a new frontier in this process, pending URLs past
   *       the memory budget spilled to {@link FrontierSettings#spillDir} or a temporary directory
   *       deleted at exit; it has no lifecycle.
   * </ul>
   *
   * <p>With {@link FrontierSettings#service} it opens a frontier service's store instead, every
   * crawl by ID ({@link OpenFrontier#crawls()}): in Redis, in the state directory (a change
   * journaled before it is answered, see {@link FrontierStore#afterDurable}), or in memory. Its
   * lifecycle's {@link FrontierLifecycle#end()} writes the last checkpoint, its {@link
   * FrontierLifecycle#disconnect()} releases the store.
   *
   * @throws dev.sieve.frontier.state.CrawlStateException if the state directory cannot be used
   *     (the message says why); for a service, a {@link
   *     dev.sieve.frontier.durable.DurableStateException}
   * @throws FrontierStoreException if Redis is unreachable or the crawl there has other settings
   * @throws IllegalArgumentException for a setting out of range or a malformed URI (the message
   *     names it)
   * @throws UncheckedIOException if no temporary directory can be made
   */
  public static OpenFrontier open(FrontierSettings settings, FrontierListener listener) {
    if (settings.service) {
      return openService(settings);
    }
    switch (settings.where()) {
      case URL_FRONTIER: {
        ServiceFrontier service = ServiceFrontier.connect(settings.urlFrontierUri,
            settings.crawlId, settings.politeness, settings.leaseDuration, Clock.systemUTC(),
            settings.urlFrontierCaCert, settings.urlFrontierTokenFile);
        return OpenFrontier.kept(service, service);
      }
      case REDIS: {
        AtomicBoolean closed = new AtomicBoolean();
        PatientCrawlStore crawl = RedisStore.openCrawl(settings.redisUri,
            QueueSettings.of(settings), settings.connections, settings.crawlId,
            settings.leaseDuration, closed::get);
        EngineFrontier redis = new EngineFrontier(crawl, settings.politeness,
            settings.leaseDuration, Clock.systemUTC(), REDIS_POLL, crawl::outages, crawl::close) {
          @Override
          public void close() {
            closed.set(true);
            super.close();
          }
        };
        return OpenFrontier.kept(redis, redis);
      }
      case STATE_DIR:
        return KeptState.open(settings, listener);
      default: {
        Path spill = settings.spillDir != null ? settings.spillDir : temporarySpillDir();
        return OpenFrontier.inMemory(LocalFrontier.builder(settings.newSieve(listener))
            .settings(settings, spill, listener).build());
      }
    }
  }

  /**
   * A service's crawls: in Redis; in memory, spilling to the state directory's {@code spill} (or
   * the spill directory, or a temporary one); with a state directory, restored from it and
   * journaled and checkpointed there until the lifecycle ends.
   */
  private static OpenFrontier openService(FrontierSettings settings) {
    QueueSettings queues = QueueSettings.of(settings);
    if (settings.where() == FrontierSettings.Where.REDIS) {
      FrontierStore redis = RedisStore.open(settings.redisUri, queues, settings.connections);
      return OpenFrontier.service(redis, new FrontierLifecycle() {
        @Override
        public void disconnect() {
          redis.close();
        }
      });
    }
    Crawls crawls = new Crawls(queues);
    if (settings.stateDir == null) {
      return OpenFrontier.service(crawls, new FrontierLifecycle() {
        @Override
        public void disconnect() {
          crawls.close();
        }
      });
    }
    DurableStore durable;
    try {
      durable = DurableStore.open(settings.stateDir, crawls, settings.checkpointInterval.toSeconds());
    } catch (RuntimeException e) {
      crawls.close();
      throw e;
    }
    return OpenFrontier.service(durable, new FrontierLifecycle() {
      @Override
      public Optional<String> end() {
        durable.end();
        return Optional.empty();
      }

      @Override
      public void disconnect() {
        durable.close();
      }
    });
  }

  /**
   * The shared state of the crawl in Redis that {@code settings} name ({@link
   * FrontierSettings#redisUri}, {@link FrontierSettings#crawlId}), read once: only a Redis
   * frontier keeps one that outlives its processes.
   *
   * @throws IllegalArgumentException if the settings name no crawl in Redis, or a bad ID
   * @throws FrontierStoreException if Redis is unreachable or holds no such crawl
   * @throws UncheckedIOException if Redis fails while it is read
   */
  public static CrawlStatus status(FrontierSettings settings) {
    if (settings.where() != FrontierSettings.Where.REDIS) {
      throw new IllegalArgumentException("frontier (" + settings.where().name().toLowerCase(
          java.util.Locale.ROOT) + ") keeps no shared status: only a Redis frontier does");
    }
    try (FrontierStore store = RedisStore.open(settings.redisUri, QueueSettings.of(settings), 2)) {
      String id = FrontierStore.normalise(settings.crawlId);
      CrawlStore crawl = store.get(id).orElseThrow(() -> new RedisFrontierException(
          "no crawl '" + id + "' in Redis at " + settings.redisUri));
      QueueStats totals = crawl.stats(null, Clock.systemUTC().millis());
      Map<String, Long> counters = crawl.counters();
      Map<String, Long> filter = crawl.filterStats();
      return new CrawlStatus(id, totals.size() - totals.inFlight(), totals.inFlight(),
          totals.queues(), totals.completed(), filter.get("filter.estimated_urls"),
          filter.get("filter.estimated_fpp_ppb") / 1e9, filter.get("filter.target_fpp_ppb") / 1e9,
          filter.get("filter.bits"), (int) (long) filter.get("filter.layers"),
          counters.getOrDefault(PutResult.OVER_BUDGET.counter(), 0L),
          counters.getOrDefault(PutResult.SKIPPED.counter(), 0L)
              + counters.getOrDefault(CrawlStore.SKIPPED_DROPPED, 0L));
    }
  }

  /** Without a state or spill directory, pending URLs past the memory budget go to a temporary one. */
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
