package dev.sieve.crawl;

import dev.sieve.fetch.AddressPolicy;
import dev.sieve.fetch.ConnectionFailure;
import dev.sieve.fetch.FetchError;
import dev.sieve.fetch.FetchResult;
import dev.sieve.fetch.Fetcher;
import dev.sieve.frontier.CapacityWarning;
import dev.sieve.frontier.Frontier;
import dev.sieve.frontier.FrontierListener;
import dev.sieve.frontier.Lease;
import dev.sieve.frontier.state.CrawlStateException;
import dev.sieve.frontier.state.Frontiers;
import dev.sieve.parse.LinkExtractor;
import dev.sieve.parse.ParsedPage;
import dev.sieve.robots.RobotsPolicy;
import dev.sieve.robots.RobotsVerdict;
import dev.sieve.url.Url;
import java.io.UncheckedIOException;
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
import java.util.function.Function;
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
  private final LinkFilter links;
  private final LinkClassifier linkFates;
  private final HostHealth health;
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
   * A crawl over {@code frontier} (see {@code Frontiers.open}): on resume, from the seeds and
   * counters it restored.
   */
  public Crawler(CrawlConfig config, Frontier frontier, CrawlListener listener) {
    this.config = config;
    this.listener = listener;
    this.frontier = frontier;
    this.seeds = frontier.savedSeeds().orElse(config.seeds);
    stats.add(frontier.restoredCounts());
    this.fetcher = fetcher(config, seeds);
    this.health = new HostHealth(config.fetch.hostFailureLimit());
    this.extractor = extractor(config);
    this.robots = robots(config, this::fetch);
    this.links = new LinkFilter(config, seeds);
    this.linkFates = new LinkClassifier(config, links, robots, frontier);
    this.pageBudget = new Semaphore((int) Math.min(Integer.MAX_VALUE, config.maxPages));
  }

  /**
   * A crawl over the frontier {@code config} describes ({@link CrawlConfig#frontierSettings()}),
   * resumed from its state directory if it has one.
   *
   * @throws CrawlStateException if the state directory cannot be used
   */
  public static Crawler open(CrawlConfig config, CrawlListener listener) {
    Frontier frontier = Frontiers.open(config.frontierSettings(), config.seeds, frontierListener(listener));
    return new Crawler(config, frontier, listener);
  }

  /** What the frontier tells {@code listener}, and asks of it on resume (its records as counters). */
  public static FrontierListener frontierListener(CrawlListener listener) {
    return new FrontierListener() {
      @Override
      public void onCapacityWarning(CapacityWarning warning) {
        listener.onCapacityWarning(warning);
      }

      @Override
      public Map<String, Map<String, Long>> recordedBefore(Set<String> urls) {
        return Crawler.recordedBefore(listener, urls);
      }
    };
  }

  private static Fetcher fetcher(CrawlConfig config, List<Url> seeds) {
    return Fetcher.builder()
        .settings(config.fetch)
        .ticker(config.ticker)
        .clock(config.clock)
        .addressPolicy(config.scope.allowPrivate()
            ? AddressPolicy.allowAll()
            : AddressPolicy.publicOnlyExcept(
                seeds.stream().map(Url::host).collect(Collectors.toSet())))
        .build();
  }

  private static LinkExtractor extractor(CrawlConfig config) {
    return LinkExtractor.builder()
        .maxOutlinks(config.scope.maxOutlinks())
        .followNofollow(config.scope.followNofollow())
        .build();
  }

  /** The robots.txt policy, or null when robots.txt is ignored. */
  private static RobotsPolicy robots(CrawlConfig config, Function<String, FetchResult> fetch) {
    if (!config.robots.respect()) {
      return null;
    }
    Duration backoff = config.fetch.retryBackoff();
    return RobotsPolicy.builder()
        .settings(config.robots)
        .userAgent(config.fetch.userAgent())
        .fetch(fetch)
        .connectionRetryInterval(backoff.isZero() ? Duration.ofMillis(1) : backoff)
        .maxRedirects(config.fetch.maxRedirects())
        .clock(config.clock)
        .build();
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
    frontier.start();
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
      Optional<String> stateFailure = frontier.end();
      if (failure == null) {
        failure = stateFailure.orElse(null);
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
        frontier.capacityWarnings(),
        stats.linkFates());
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

  /** Gives a URL back for another attempt, journaling the counters this attempt changed. */
  private void retry(Lease lease, Duration backoff, Map<String, Long> delta) {
    frontier.retry(lease, backoff, delta);
    stats.add(delta);
  }

  private static void count(Map<String, Long> delta, String name, long amount) {
    if (amount != 0) {
      delta.merge(name, amount, Long::sum);
    }
  }

  /** While the state disk is nearly full, new URLs wait (the guard logs why). */
  private void awaitDiskSpace() throws InterruptedException {
    while (frontier.storageLow() && !stopping) {
      synchronized (this) {
        wait(1000);
      }
    }
  }

  /** The pipeline for one URL: robots → fetch → parse → sieve → enqueue → record. */
  private void crawl(Lease lease) {
    Url url = Url.parse(lease.url()).orElseThrow();
    Map<String, Long> delta = new HashMap<>();
    if (refusedAddress(lease, url, delta)
        || failIfUnreachable(lease, url, delta)
        || !robotsAllow(lease, url, delta)) {
      return;
    }
    FetchResult page = fetch(url.toString());
    if (failIfUnreachable(lease, url, delta) || shouldRetry(page, lease, delta)) {
      return;
    }
    if (page.isRedirect()) {
      followRedirect(lease, url, page, delta);
      return;
    }
    boolean parse = page.isSuccess() && page.isHtml();
    ParsedPage parsed = parse
        ? extractor.extract(page.body(), page.contentType(), url)
        : ParsedPage.empty();
    LinkCounts fates = parse ? linkFates.classify(parsed, url, lease.depth() + 1) : null;
    record(lease, page, parsed.linksFound(), fates == null ? 0 : fates.count(LinkFate.NEW),
        errorOf(page), fates, delta);
    finish(lease, delta);
  }

  /**
   * Records the URL as {@code private-address} at once when its host resolves only to addresses
   * the crawl may not connect to, before robots.txt or anything else is tried; returns whether.
   */
  private boolean refusedAddress(Lease lease, Url url, Map<String, Long> delta) {
    if (!fetcher.refusesAddress(url.host())) {
      return false;
    }
    record(lease, null, 0, 0, FetchError.PRIVATE_ADDRESS.label(), delta);
    finish(lease, delta);
    return true;
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
              + " is above the maximum " + config.robots.maxCrawlDelay() + "; " + (dropped + 1)
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
        robotsUnreachable(lease, url, verdict, delta);
        return false;
      default:
        count(delta, "skipped.robots-denied", 1);
        pageBudget.release();
        finish(lease, delta);
        return false;
    }
  }

  /**
   * RFC 9309: disallow while robots.txt is unreachable. Its fetch is retried once per authority
   * when its cached failure expires, the host's URLs waiting in the frontier (no worker waits);
   * after {@code retries} retries, or once the authority is unreachable, its URLs are recorded.
   */
  private void robotsUnreachable(Lease lease, Url url, RobotsVerdict verdict,
      Map<String, Long> delta) {
    if (failIfUnreachable(lease, url, delta)) {
      return;
    }
    if (verdict.failuresInARow() > config.fetch.retries()) {
      failAuthority(lease, url, "robots-unreachable", verdict.failure().orElse(null), delta);
      return;
    }
    pageBudget.release();
    frontier.putBack(lease);
    verdict.retryAt()
        .map(at -> Duration.between(config.clock.instant(), at))
        .filter(wait -> !wait.isNegative() && !wait.isZero())
        .ifPresent(wait -> frontier.delayHost(lease.hostKey(), wait));
  }

  /** Once the URL's authority is unreachable, records it and its queued URLs; returns whether. */
  private boolean failIfUnreachable(Lease lease, Url url, Map<String, Long> delta) {
    Optional<String> cause = health.unreachable(url);
    cause.ifPresent(c -> failAuthority(lease, url, "host-unreachable", c, delta));
    return cause.isPresent();
  }

  /**
   * Records the URL with {@code error} and {@code cause}, then the URLs of its authority queued
   * behind it, at once: they are leased together rather than each waiting for the host's
   * politeness slot. URLs of other authorities sharing the queue (domain or ip keys) go back.
   */
  private void failAuthority(Lease lease, Url url, String error, String cause,
      Map<String, Long> delta) {
    record(lease, null, 0, 0, error, cause, null, delta);
    finish(lease, delta);
    List<Lease> back = new ArrayList<>();
    while (back.isEmpty()) {
      List<Lease> batch = frontier.takeAll(lease.hostKey(), 1024);
      if (batch.isEmpty()) {
        break;
      }
      for (Lease queued : batch) {
        boolean same = Url.parse(queued.url()).map(u -> u.origin().equals(url.origin())).orElse(false);
        if (back.isEmpty() && same && pageBudget.tryAcquire()) {
          Map<String, Long> queuedDelta = new HashMap<>();
          record(queued, null, 0, 0, error, cause, null, queuedDelta);
          finish(queued, queuedDelta);
        } else {
          back.add(queued);
        }
      }
    }
    for (int i = back.size() - 1; i >= 0; i--) {
      frontier.putBack(back.get(i));
    }
  }

  /** Fetches {@code url}, noting connection failures against its authority. */
  private FetchResult fetch(String url) {
    return health.observe(url, fetcher.fetch(url));
  }

  /** A redirect's target is a new link: normalized, scoped and sieved like any other. */
  private void followRedirect(Lease lease, Url url, FetchResult page, Map<String, Long> delta) {
    Optional<Url> target = url.resolve(page.redirectLocation().orElseThrow());
    String error = null;
    int added = 0;
    if (target.isEmpty()) {
      error = "bad-redirect";
    } else if (fetcher.refusesAddress(target.get().host())) {
      // Before anything else: a private target is never queued, and so never reaches robots.txt.
      error = FetchError.PRIVATE_ADDRESS.label();
      count(delta, "skipped." + LinkFate.PRIVATE_ADDRESS.label(), 1);
    } else if (target.get().toString().equals(lease.url())
        || lease.redirectChain().contains(target.get().toString())) {
      error = "redirect-loop";
    } else if (lease.redirectChain().size() + 1 > config.fetch.maxRedirects()) {
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

  /**
   * Re-queues 5xx, 429 and network failures while retries remain, after the backoff or the
   * server's {@code Retry-After}, whichever is longer (the frontier adds the politeness delay as a
   * floor); a {@code Retry-After} holds the whole host. One above the maximum instead ends the URL
   * at once as {@code retry-after-too-long}. Returns whether the lease was given back (retried,
   * or ended so).
   */
  private boolean shouldRetry(FetchResult page, Lease lease, Map<String, Long> delta) {
    Duration retryAfter = page.retryAfter().orElse(null);
    if (retryAfter != null && retryAfter.compareTo(config.fetch.maxRetryAfter()) > 0) {
      record(lease, page, 0, 0, "retry-after-too-long", delta);
      finish(lease, delta);
      return true;
    }
    boolean retryable = (page.status() == 0 && page.error() != null
            && page.error() != FetchError.PRIVATE_ADDRESS)
        || page.status() >= 500 || page.status() == 429;
    if (retryAfter != null) {
      frontier.delayHost(lease.hostKey(), retryAfter);
    }
    if (!retryable || lease.attempt() >= config.fetch.retries() || stopping) {
      return false;
    }
    Duration backoff = config.fetch.retryBackoff().multipliedBy(1L << Math.min(lease.attempt(), 20));
    if (retryAfter != null && retryAfter.compareTo(backoff) > 0) {
      backoff = retryAfter;
    }
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
    if (page.status() >= 300 && page.redirectLocation().isEmpty()) {
      return "redirect-without-location";
    }
    if (page.truncated()) {
      return "truncated";
    }
    return null;
  }

  private void record(Lease lease, FetchResult page, int outlinks, int newLinks, String error,
      Map<String, Long> delta) {
    record(lease, page, outlinks, newLinks, error, null, delta);
  }

  private void record(Lease lease, FetchResult page, int outlinks, int newLinks, String error,
      LinkCounts fates, Map<String, Long> delta) {
    record(lease, page, outlinks, newLinks, error,
        page == null ? null : ConnectionFailure.cause(page).orElse(null), fates, delta);
  }

  /**
   * Hands the URL's record to the listener and adds what it counts to {@code delta}. The links
   * queued for it are made durable first, so a record never exists without them.
   *
   * @throws OutputFailure if the listener cannot store the record
   */
  private void record(Lease lease, FetchResult page, int outlinks, int newLinks, String error,
      String cause, LinkCounts fates, Map<String, Long> delta) {
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
        config.clock.instant(),
        cause,
        fates);
    frontier.flushLog();
    try {
      listener.onPage(record);
    } catch (UncheckedIOException e) {
      throw new OutputFailure(e);
    }
    count(delta, record);
  }

  /** Adds what one record counts: a page, its bytes, links and link fates, its error class. */
  private static void count(Map<String, Long> delta, PageRecord record) {
    count(delta, "pages", 1);
    count(delta, "bytes", record.bytes());
    count(delta, "linksFound", record.outlinks());
    count(delta, "linksNew", record.newLinks());
    String error = record.error();
    if (error != null) {
      count(delta, "error." + (error.startsWith("http-5") ? "http-5xx" : error.startsWith("http-4") ? "http-4xx" : error), 1);
    }
    if (record.links() != null) {
      for (LinkFate fate : LinkFate.values()) {
        count(delta, CrawlStats.LINK + fate.label(), record.links().count(fate));
      }
    }
  }
}
