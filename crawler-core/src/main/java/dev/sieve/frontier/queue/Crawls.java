package dev.sieve.frontier.queue;

import dev.sieve.frontier.SeenFilter;
import dev.sieve.frontier.Sieve;
import dev.sieve.frontier.spill.PendingStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The crawl IDs the service holds, each a {@link CrawlSpace} with its own Sieve, created by the
 * first URL put under it and gone with DeleteCrawl. A blank crawl ID is {@value CrawlID#DEFAULT}.
 * Also the service-wide switches: active (SetActive) and the default queue delay (SetDelay with no
 * key). Thread-safe.
 */
public final class Crawls extends FrontierStore {
  private static final Logger log = LoggerFactory.getLogger(Crawls.class);

  private final Map<String, CrawlSpace> crawls = new LinkedHashMap<>();
  private final QueueSettings settings;
  /** How a new crawl asks whether a URL was seen: its Sieve (the benchmark's baseline: a set). */
  private final Function<Sieve, SeenKeys> seenKeys;
  /** Where the crawls spill, created with the first crawl; null until then. */
  private Path spillRoot;
  private int nextSpillDir;
  private final CompletedLogs completedLogs;
  private volatile boolean active = true;
  private volatile Duration defaultDelay;

  public Crawls(QueueSettings settings) {
    this(settings, SeenKeys::of);
  }

  /** Crawls that ask {@code seenKeys} (made from each crawl's Sieve) whether a URL was seen. */
  public Crawls(QueueSettings settings, Function<Sieve, SeenKeys> seenKeys) {
    this.settings = settings;
    this.seenKeys = seenKeys;
    this.defaultDelay = settings.queueDelay();
    this.completedLogs = new CompletedLogs(settings.completedDir(), this::spillRoot);
  }

  /** The crawl, created with a fresh Sieve if it is new. */
  @Override
  public synchronized CrawlSpace getOrCreate(String crawlId) {
    return crawls.computeIfAbsent(normalise(crawlId), id -> {
      Sieve sieve = Sieve.over(
          SeenFilter.BLOCKED.create(settings.expectedUrls(), settings.falsePositiveRate(), true),
          settings.falsePositiveRate(), warning -> { });
      PendingStore store = spillingStore();
      return new CrawlSpace(id, sieve, 0, seenKeys.apply(sieve), store,
          CompletedLog.open(completedLogs.next(), 0));
    });
  }

  /**
   * Adds a crawl read back from a checkpoint: its Sieve, the salt its next new queue takes, and
   * its completed-URL log ({@link CrawlSpace#completedLogName}, empty for a new one) cut back to
   * {@code logLength} bytes.
   */
  public synchronized CrawlSpace restore(String id, Sieve sieve, int nextSalt, String logName,
      long logLength) {
    PendingStore store = spillingStore();
    CompletedLog log = logName.isEmpty() ? CompletedLog.open(completedLogs.next(), 0)
        : CompletedLog.open(completedLogs.named(logName), logLength);
    CrawlSpace crawl = new CrawlSpace(id, sieve, nextSalt, seenKeys.apply(sieve), store, log);
    crawls.put(id, crawl);
    return crawl;
  }

  /**
   * A store for a new crawl's fresh URLs, within the settings' budget, spilling to a directory of
   * its own.
   *
   * @throws UncheckedIOException when the directory cannot be made
   */
  private PendingStore spillingStore() {
    try {
      return PendingStore.spilling(spillRoot().resolve("crawl-" + nextSpillDir++),
          settings.pendingMemoryBytes(), PendingStore.DEFAULT_SEGMENT_BYTES);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot make the pending spill directory in "
          + (spillRoot != null ? spillRoot : settings.spillDir()) + ": " + e.getMessage(), e);
    }
  }

  /** The spill directory, made with the first crawl. */
  private synchronized Path spillRoot() throws IOException {
    if (spillRoot == null) {
      spillRoot = settings.spillDir() != null
          ? Files.createDirectories(settings.spillDir())
          : Files.createTempDirectory("sieve-serve-spill-");
    }
    return spillRoot;
  }

  /** Bytes of spilled pending URLs on disk, over every crawl. */
  @Override
  public long spilledBytes() {
    long total = 0;
    for (CrawlSpace crawl : all()) {
      total += crawl.spilledBytes();
    }
    return total;
  }

  /** Deletes the spilled pending URLs (they are in no checkpoint: a checkpoint holds its own). */
  @Override
  public synchronized void close() {
    crawls.values().forEach(CrawlSpace::closeLog);
    if (spillRoot == null) {
      return;
    }
    try (Stream<Path> files = Files.walk(spillRoot)) {
      for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(file);
      }
    } catch (IOException e) {
      log.warn("Cannot delete the pending spill directory {}: {}", spillRoot, e.getMessage());
    }
  }

  public QueueSettings settings() {
    return settings;
  }

  @Override
  public synchronized int crawlCount() {
    return crawls.size();
  }

  @Override
  public Optional<CrawlSpace> local(String crawlId) {
    return get(crawlId);
  }

  @Override
  public synchronized Optional<CrawlSpace> get(String crawlId) {
    return Optional.ofNullable(crawls.get(normalise(crawlId)));
  }

  @Override
  public long delete(String crawlId) {
    return remove(crawlId).map(CrawlSpace::retire).orElse(-1L);
  }

  /** Removes the crawl and its Sieve; empty if there was none. */
  public synchronized Optional<CrawlSpace> remove(String crawlId) {
    return Optional.ofNullable(crawls.remove(normalise(crawlId)));
  }

  /** Every crawl, in the order GetURLs should visit them. */
  @Override
  public synchronized List<CrawlSpace> all() {
    return new ArrayList<>(crawls.values());
  }

  /** Moves crawls that produced URLs behind the others, so every crawl gets its turn. */
  @Override
  public synchronized void served(List<? extends CrawlStore> produced) {
    for (CrawlStore crawl : produced) {
      CrawlSpace space = crawls.remove(crawl.id());
      if (space != null) {
        crawls.put(space.id, space);
      }
    }
  }

  /** The IDs of the crawls that have queues, as the reference lists crawls (by their queues). */
  @Override
  public synchronized List<String> ids() {
    List<String> ids = new ArrayList<>();
    for (CrawlSpace crawl : crawls.values()) {
      if (crawl.queueCount() > 0) {
        ids.add(crawl.id);
      }
    }
    return ids;
  }

  @Override
  public boolean active() {
    return active;
  }

  @Override
  public void active(boolean state) {
    active = state;
  }

  @Override
  public Duration defaultDelay() {
    return defaultDelay;
  }

  @Override
  public void defaultDelay(Duration delay) {
    defaultDelay = delay;
  }
}
