package dev.sieve.crawl;

import dev.sieve.fetch.AddressPolicy;
import dev.sieve.fetch.FetchResult;
import dev.sieve.fetch.Fetcher;
import dev.sieve.frontier.Frontier;
import dev.sieve.frontier.LocalFrontier;
import dev.sieve.frontier.Lease;
import dev.sieve.frontier.Sieve;
import dev.sieve.parse.LinkExtractor;
import dev.sieve.parse.ParsedPage;
import dev.sieve.robots.RobotsPolicy;
import dev.sieve.robots.RobotsVerdict;
import dev.sieve.url.Url;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A crawl: worker threads take URLs from the {@link Frontier} and run each through fetch → parse
 * → sieve → enqueue ({@link #crawl(Lease)}), until nothing is pending or in flight, the page
 * limit is reached, or {@link #stop()} is called.
 *
 * <p>Every URL taken ends as exactly one {@link PageRecord} handed to the {@link CrawlListener},
 * after its last attempt. Failures of the web (HTTP errors, timeouts, traps) are data in those
 * records and in the counters of {@link #progress()}; they never stop the crawl.
 *
 * <p>{@link #run()} is called once; {@link #stop()} and {@link #progress()} from any thread.
 */
public final class Crawler {
  private static final Logger log = LoggerFactory.getLogger(Crawler.class);

  private final CrawlConfig config;
  private final CrawlListener listener;
  private final Frontier frontier;
  private final Fetcher fetcher;
  private final LinkExtractor extractor;
  /** Null when robots.txt is ignored. */
  private final RobotsPolicy robots;
  /** Null without a state directory. */
  private final Checkpointer checkpointer;
  private final LinkFilter links;
  /** The seeds: the config's, or on resume the saved crawl's (and any added). */
  private final List<Url> seeds;
  private final CrawlStats stats = new CrawlStats();
  /** Permits for URLs still to be done under --max-pages; a retried URL gives its permit back. */
  private final Semaphore pageBudget;
  private final AtomicInteger runs = new AtomicInteger();
  private volatile boolean stopping;
  private volatile long startedAt;
  /** The I/O failure that stopped the crawl (output or state unwritable), or null. */
  private volatile String failure;

  /**
   * A crawl with the in-process frontier: a {@link Sieve} sized from the config, resumable when
   * the config names a state directory.
   *
   * @throws CrawlStateException if the state directory cannot be used (the message says why)
   */
  public Crawler(CrawlConfig config, CrawlListener listener) {
    this.config = config;
    this.listener = listener;
    if (config.stateDir != null) {
      this.checkpointer = Checkpointer.open(config, listener, stats,
          sieve -> frontierBuilder(config, sieve, config.stateDir.resolve(CrawlState.SPILL))
              .recordedElsewhere(urls -> recordedBefore(listener, urls)));
      this.frontier = checkpointer.frontier();
      this.seeds = checkpointer.seeds();
    } else {
      this.seeds = config.seeds;
      this.checkpointer = null;
      this.frontier = frontierBuilder(config, Checkpointer.newSieve(config, listener), temporarySpillDir())
          .build();
    }
    this.fetcher = fetcher(config, seeds);
    this.extractor = extractor(config);
    this.robots = robots(config, fetcher);
    this.links = new LinkFilter(config, seeds);
    this.pageBudget = new Semaphore((int) Math.min(Integer.MAX_VALUE, config.maxPages));
  }

  /** A crawl over {@code frontier}, which may be shared with other crawler processes. */
  public Crawler(CrawlConfig config, Frontier frontier, CrawlListener listener) {
    this.config = config;
    this.listener = listener;
    this.frontier = frontier;
    this.checkpointer = null;
    this.seeds = config.seeds;
    this.fetcher = fetcher(config, seeds);
    this.extractor = extractor(config);
    this.robots = robots(config, fetcher);
    this.links = new LinkFilter(config);
    this.pageBudget = new Semaphore((int) Math.min(Integer.MAX_VALUE, config.maxPages));
  }

  private static Fetcher fetcher(CrawlConfig config, List<Url> seeds) {
    return Fetcher.builder()
        .userAgent(config.userAgent)
        .connectTimeout(config.connectTimeout)
        .readTimeout(config.readTimeout)
        .callTimeout(config.callTimeout)
        .maxBodyBytes(config.maxBodyBytes)
        .ticker(config.ticker)
        .clock(config.clock)
        .addressPolicy(config.allowPrivate
            ? AddressPolicy.allowAll()
            : AddressPolicy.publicOnlyExcept(
                seeds.stream().map(Url::host).collect(Collectors.toSet())))
        .build();
  }

  private static LinkExtractor extractor(CrawlConfig config) {
    return LinkExtractor.builder()
        .maxOutlinks(config.maxOutlinks)
        .followNofollow(config.followNofollow)
        .build();
  }

  /** The robots.txt policy, or null when robots.txt is ignored. */
  private static RobotsPolicy robots(CrawlConfig config, Fetcher fetcher) {
    if (!config.respectRobots) {
      return null;
    }
    return RobotsPolicy.builder()
        .userAgent(config.userAgent)
        .fetch(fetcher::fetch)
        .ttl(config.robotsTtl)
        .retryInterval(config.robotsRetryInterval)
        .maxRedirects(config.maxRedirects)
        .maxCrawlDelay(config.maxCrawlDelay)
        .clock(config.clock)
        .build();
  }

  private static LocalFrontier.Builder frontierBuilder(CrawlConfig config, Sieve sieve, Path spill) {
    return LocalFrontier.builder(sieve)
        .ticker(config.ticker)
        .politenessDelay(config.politenessDelay)
        .maxInFlightPerHost(config.maxInFlightPerHost)
        .maxUrlsPerHost(config.maxPagesPerHost)
        .queueKey(config.queueKey)
        .spillTo(spill, config.pendingMemoryBytes);
  }

  /** The counters each of {@code urls} the listener recorded before a crash stands for. */
  private static Map<String, Map<String, Long>> recordedBefore(CrawlListener listener, Set<String> urls) {
    Map<String, Map<String, Long>> counts = new HashMap<>();
    listener.recordedBefore(urls).forEach((url, record) -> {
      Map<String, Long> delta = new HashMap<>();
      count(delta, record);
      counts.put(url, delta);
    });
    if (!counts.isEmpty()) {
      log.info("{} URL(s) in flight at the crash were already recorded; not fetching them again",
          counts.size());
    }
    return counts;
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
      files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      // Best effort at exit: the directory is under the system's temporary directory.
    }
  }

  /**
   * Crawls from the seeds until done, the page limit, or {@link #stop()}; then returns the final
   * counters. Blocks the calling thread.
   */
  public CrawlProgress run() throws InterruptedException {
    if (runs.getAndIncrement() > 0) {
      throw new IllegalStateException("a Crawler runs once");
    }
    startedAt = config.ticker.read();
    for (Url seed : seeds) {
      frontier.push(seed, 0);
    }
    if (checkpointer != null) {
      checkpointer.start();
    }
    ExecutorService workers =
        Executors.newFixedThreadPool(config.threads, runnable -> {
          Thread thread = new Thread(runnable);
          thread.setName("crawler-" + thread.getId());
          thread.setDaemon(true);
          return thread;
        });
    for (int i = 0; i < config.threads; i++) {
      workers.execute(this::work);
    }
    workers.shutdown();
    try {
      while (!workers.awaitTermination(100, TimeUnit.MILLISECONDS)) {
        if (stopping && !workers.awaitTermination(config.stopTimeout.toMillis(), TimeUnit.MILLISECONDS)) {
          log.warn("Stop: fetches still in flight after {}; abandoning them", config.stopTimeout);
          workers.shutdownNow();
          break;
        }
      }
    } finally {
      frontier.close();
      fetcher.close();
      if (checkpointer != null) {
        checkpointer.close();
        if (failure == null) {
          failure = checkpointer.failure();
        }
      }
    }
    return progress();
  }

  /**
   * The I/O failure that stopped the crawl or its final checkpoint, in one line naming the file
   * and the cause; empty when there was none. Read after {@link #run} returns.
   */
  public Optional<String> failure() {
    return Optional.ofNullable(failure);
  }

  /**
   * Stops taking new URLs; fetches in flight finish (bounded by the stop timeout) and {@link #run}
   * returns. Safe to call from a shutdown hook or any thread, more than once.
   */
  public void stop() {
    stopping = true;
    frontier.close();
  }


  /** A snapshot of the crawl's counters. */
  public CrawlProgress progress() {
    long started = startedAt;
    return new CrawlProgress(
        Duration.ofNanos(started == 0 ? 0 : config.ticker.read() - started),
        stats.pages.sum(),
        stats.bytes.sum(),
        frontier.pending(),
        frontier.inFlight(),
        frontier.hosts(),
        stats.errors(),
        skippedWithFrontier(),
        stats.retries.sum(),
        stats.linksFound.sum(),
        stats.linksNew.sum(),
        frontier.approximateSeen(),
        frontier.seenFpp(),
        frontier.seenLayers(),
        frontier.capacityWarnings());
  }

  /** The crawl's refusals with the frontier's beside them. */
  private Map<String, Long> skippedWithFrontier() {
    Map<String, Long> skipped = stats.skipped();
    skipped.merge("host-budget", frontier.droppedByHostBudget(), Long::sum);
    skipped.merge("host-skipped", frontier.droppedBySkippedHost(), Long::sum);
    skipped.merge("filter-full", frontier.droppedByFullFilter(), Long::sum);
    skipped.values().removeIf(count -> count == 0);
    return skipped;
  }

  private void work() {
    try {
      // A worker holding a permit waits in take() until a URL is ready or the frontier is
      // finished (nothing pending, nothing in flight), so no permit is wasted.
      while (!stopping && pageBudget.tryAcquire()) {
        awaitDiskSpace();
        Lease lease = frontier.take();
        if (lease == null) {
          return;
        }
        try {
          crawl(lease);
        } catch (OutputFailure | UncheckedIOException e) {
          throw e;
        } catch (RuntimeException e) {
          // A bug, not the web: record the URL so nothing is lost silently, and keep crawling.
          log.error("Internal error while crawling {}", lease.url(), e);
          Map<String, Long> delta = new HashMap<>();
          record(lease, null, 0, 0, "internal-error", delta);
          finish(lease, delta);
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (OutputFailure | UncheckedIOException e) {
      // The output or the frontier's own files failed (a full disk, a damaged spill segment): the
      // URL in hand stays in flight (fetched again on resume), and the crawl stops with the reason
      // rather than lose records.
      synchronized (this) {
        if (failure == null) {
          failure = e.getMessage();
          log.error("Stopping the crawl: {}", e.getMessage());
        }
      }
      stop();
    }
  }

  /** The listener could not store a record: the crawl cannot go on without losing records. */
  private static final class OutputFailure extends RuntimeException {
    OutputFailure(UncheckedIOException cause) {
      super(cause.getMessage(), cause);
    }
  }

  /** Gives back a URL that is done, with the counters its crawl changed (journaled with it). */
  private void finish(Lease lease, Map<String, Long> delta) {
    frontier.complete(lease, delta);
    stats.add(delta);
  }

  private static void count(Map<String, Long> delta, String name, long amount) {
    if (amount != 0) {
      delta.merge(name, amount, Long::sum);
    }
  }

  /** While the state disk is nearly full, new URLs wait (the guard logs why). */
  private void awaitDiskSpace() throws InterruptedException {
    while (checkpointer != null && checkpointer.diskLow() && !stopping) {
      synchronized (this) {
        wait(1000);
      }
    }
  }

  /** The pipeline for one URL: robots → fetch → parse → sieve → enqueue → record. */
  private void crawl(Lease lease) {
    Url url = Url.parse(lease.url()).orElseThrow();
    Map<String, Long> delta = new HashMap<>();
    if (!robotsAllow(lease, url, delta)) {
      return;
    }
    FetchResult page = fetcher.fetch(url.toString());
    if (shouldRetry(page, lease, delta)) {
      return;
    }
    if (page.isRedirect()) {
      followRedirect(lease, url, page, delta);
      return;
    }
    ParsedPage parsed = page.isSuccess() && page.isHtml()
        ? extractor.extract(page.body(), page.contentType(), url)
        : ParsedPage.empty();
    int newLinks = enqueue(parsed.links(), lease.depth() + 1, delta);
    record(lease, page, parsed.linksFound(), newLinks, errorOf(page), delta);
    finish(lease, delta);
  }

  /**
   * Applies the host's robots.txt, fetching it first if needed. A robots.txt fetch takes this
   * lease's politeness slot, so the URL goes back to wait for the next one. Returns whether to
   * fetch the URL now; otherwise the lease has been given back.
   */
  private boolean robotsAllow(Lease lease, Url url, Map<String, Long> delta) {
    if (robots == null) {
      return true;
    }
    boolean fetchesRobots = robots.cached(url).isEmpty();
    RobotsVerdict verdict = robots.check(url);
    verdict.crawlDelay().ifPresent(delay -> frontier.setHostDelay(lease.hostKey(), delay));
    if (verdict.skipHost()) {
      int dropped = frontier.skipHost(lease.hostKey());
      count(delta, "skipped.host-skipped", 1);
      pageBudget.release();
      finish(lease, delta);
      listener.onHostSkipped(lease.hostKey(),
          "robots.txt Crawl-delay " + verdict.crawlDelay().map(Duration::toString).orElse("?")
              + " is above the maximum " + config.maxCrawlDelay + "; " + (dropped + 1)
              + " URL(s) skipped");
      return false;
    }
    switch (verdict.decision()) {
      case ALLOWED:
        if (fetchesRobots) {
          pageBudget.release();
          frontier.putBack(lease);
          return false;
        }
        return true;
      case ROBOTS_UNREACHABLE:
        // RFC 9309: disallow for now and try again later; after the retries, record the failure.
        if (lease.attempt() < config.retries && !stopping) {
          count(delta, "retries", 1);
          pageBudget.release();
          retry(lease, config.robotsRetryInterval, delta);
        } else {
          record(lease, null, 0, 0, "robots-unreachable", delta);
          finish(lease, delta);
        }
        return false;
      default:
        count(delta, "skipped.robots-denied", 1);
        pageBudget.release();
        finish(lease, delta);
        return false;
    }
  }

  /** Sends in-scope links through the Sieve into the frontier; returns how many were new. */
  private int enqueue(List<Url> found, int depth, Map<String, Long> delta) {
    List<Url> accepted = new ArrayList<>(found.size());
    for (Url link : found) {
      String refusal = links.refusal(link, depth);
      if (refusal != null) {
        count(delta, "skipped." + refusal, 1);
      } else {
        accepted.add(link);
      }
    }
    // One call for the page: a shared frontier offers them in one round trip.
    return frontier.pushAll(accepted, depth);
  }

  /** A redirect's target is a new link: normalized, scoped and sieved like any other. */
  private void followRedirect(Lease lease, Url url, FetchResult page, Map<String, Long> delta) {
    Optional<Url> target = url.resolve(page.redirectLocation().orElseThrow());
    String error = null;
    int added = 0;
    if (target.isEmpty()) {
      error = "bad-redirect";
    } else if (target.get().toString().equals(lease.url())
        || lease.redirectChain().contains(target.get().toString())) {
      error = "redirect-loop";
    } else if (lease.redirectChain().size() + 1 > config.maxRedirects) {
      error = "too-many-redirects";
    } else {
      String refusal = links.refusal(target.get(), lease.depth());
      if (refusal != null) {
        count(delta, "skipped." + refusal, 1);
      } else if (frontier.pushRedirect(target.get(), lease)) {
        added = 1;
      }
    }
    record(lease, page, 1, added, error, delta);
    finish(lease, delta);
  }

  /** Re-queues 5xx and network failures while retries remain; honours Retry-After. */
  private boolean shouldRetry(FetchResult page, Lease lease, Map<String, Long> delta) {
    boolean retryable =
        (page.error() != null && page.status() == 0) || page.status() >= 500 || page.status() == 429;
    Duration retryAfter = page.retryAfter().orElse(null);
    if (retryAfter != null) {
      frontier.delayHost(lease.hostKey(), retryAfter);
    }
    if (!retryable || lease.attempt() >= config.retries || stopping) {
      return false;
    }
    Duration backoff = retryAfter != null
        ? retryAfter
        : config.retryBackoff.multipliedBy(1L << Math.min(lease.attempt(), 20));
    count(delta, "retries", 1);
    pageBudget.release();
    retry(lease, backoff, delta);
    return true;
  }

  private static String errorOf(FetchResult page) {
    if (page.error() != null) {
      return page.error().label();
    }
    if (page.status() >= 400) {
      return "http-" + page.status();
    }
    if (page.truncated()) {
      return "truncated";
    }
    return null;
  }

  /** Gives a URL back for another attempt, journaling the counters this attempt changed. */
  private void retry(Lease lease, Duration backoff, Map<String, Long> delta) {
    frontier.retry(lease, backoff, delta);
    stats.add(delta);
  }

  /**
   * Hands the URL's record to the listener and adds what it counts to {@code delta}. The links
   * queued for it are made durable first, so a record never exists without them.
   *
   * @throws OutputFailure if the listener cannot store the record
   */
  private void record(Lease lease, FetchResult page, int outlinks, int newLinks, String error,
      Map<String, Long> delta) {
    PageRecord record = new PageRecord(
        lease.url(),
        page == null ? 0 : page.status(),
        lease.depth(),
        page == null ? null : page.contentType(),
        page == null ? 0 : page.bytes(),
        page == null ? 0 : page.fetchMs(),
        outlinks,
        newLinks,
        error,
        config.clock.instant());
    frontier.flushLog();
    try {
      listener.onPage(record);
    } catch (UncheckedIOException e) {
      throw new OutputFailure(e);
    }
    count(delta, record);
  }

  /** Adds what one record counts: a page, its bytes and links, its error class. */
  private static void count(Map<String, Long> delta, PageRecord record) {
    count(delta, "pages", 1);
    count(delta, "bytes", record.bytes());
    count(delta, "linksFound", record.outlinks());
    count(delta, "linksNew", record.newLinks());
    String error = record.error();
    if (error != null) {
      count(delta, "error." + (error.startsWith("http-5") ? "http-5xx" : error.startsWith("http-4") ? "http-4xx" : error), 1);
    }
  }
}
