package dev.sieve.serve;

import crawlercommons.urlfrontier.CrawlID;
import dev.sieve.frontier.SeenFilter;
import dev.sieve.frontier.Sieve;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * The crawl IDs the service holds, each a {@link CrawlSpace} with its own Sieve, created by the
 * first URL put under it and gone with DeleteCrawl. A blank crawl ID is {@value CrawlID#DEFAULT}.
 * Also the service-wide switches: active (SetActive) and the default queue delay (SetDelay with no
 * key). Thread-safe.
 */
final class Crawls extends FrontierStore {
  private final Map<String, CrawlSpace> crawls = new LinkedHashMap<>();
  private final ServeSettings settings;
  /** How a new crawl asks whether a URL was seen: its Sieve (the benchmark's baseline: a set). */
  private final Function<Sieve, SeenKeys> seenKeys;
  private volatile boolean active = true;
  private volatile int defaultDelaySeconds;

  Crawls(ServeSettings settings) {
    this(settings, SeenKeys::of);
  }

  Crawls(ServeSettings settings, Function<Sieve, SeenKeys> seenKeys) {
    this.settings = settings;
    this.seenKeys = seenKeys;
    this.defaultDelaySeconds = settings.queueDelaySeconds;
  }

  /** {@code crawlId} with blank turned into the default crawl's ID. */
  static String normalise(String crawlId) {
    return CrawlID.normaliseCrawlID(crawlId == null ? "" : crawlId);
  }

  /** The crawl, created with a fresh Sieve if it is new. */
  synchronized CrawlSpace getOrCreate(String crawlId) {
    return crawls.computeIfAbsent(normalise(crawlId), id -> {
      Sieve sieve = Sieve.over(
          SeenFilter.BLOCKED.create(settings.expectedUrls, settings.falsePositiveRate, true),
          settings.falsePositiveRate, warning -> { });
      return new CrawlSpace(id, sieve, 0, seenKeys.apply(sieve));
    });
  }

  /** Adds a crawl read back from a checkpoint. */
  synchronized void restore(CrawlSpace crawl) {
    crawls.put(crawl.id, crawl);
  }

  ServeSettings settings() {
    return settings;
  }

  synchronized Optional<CrawlSpace> get(String crawlId) {
    return Optional.ofNullable(crawls.get(normalise(crawlId)));
  }

  @Override
  long delete(String crawlId) {
    return remove(crawlId).map(CrawlSpace::retire).orElse(-1L);
  }

  /** Removes the crawl and its Sieve; empty if there was none. */
  synchronized Optional<CrawlSpace> remove(String crawlId) {
    return Optional.ofNullable(crawls.remove(normalise(crawlId)));
  }

  /** Every crawl, in the order GetURLs should visit them. */
  synchronized List<CrawlSpace> all() {
    return new ArrayList<>(crawls.values());
  }

  /** Moves crawls that produced URLs behind the others, so every crawl gets its turn. */
  synchronized void served(List<? extends CrawlStore> produced) {
    for (CrawlStore crawl : produced) {
      CrawlSpace space = crawls.remove(crawl.id());
      if (space != null) {
        crawls.put(space.id, space);
      }
    }
  }

  /** The IDs of the crawls that have queues, as the reference lists crawls (by their queues). */
  synchronized List<String> ids() {
    List<String> ids = new ArrayList<>();
    for (CrawlSpace crawl : crawls.values()) {
      if (crawl.queues() > 0) {
        ids.add(crawl.id);
      }
    }
    return ids;
  }

  boolean active() {
    return active;
  }

  void active(boolean state) {
    active = state;
  }

  int defaultDelaySeconds() {
    return defaultDelaySeconds;
  }

  void defaultDelaySeconds(int seconds) {
    defaultDelaySeconds = seconds;
  }
}
