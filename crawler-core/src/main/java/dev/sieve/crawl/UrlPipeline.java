package dev.sieve.crawl;

import dev.sieve.fetch.AddressPolicy;
import dev.sieve.fetch.Exchange;
import dev.sieve.fetch.FetchError;
import dev.sieve.fetch.FetchResult;
import dev.sieve.fetch.Fetcher;
import dev.sieve.fetch.ProxyServer;
import dev.sieve.fetch.Validators;
import dev.sieve.frontier.Frontier;
import dev.sieve.frontier.Lease;
import dev.sieve.parse.LinkExtractor;
import dev.sieve.parse.ParsedPage;
import dev.sieve.robots.RobotsPolicy;
import dev.sieve.session.WebSession;
import dev.sieve.sitemap.ReadSitemaps;
import dev.sieve.url.Url;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.Semaphore;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/**
 * What happens to one URL taken from the frontier ({@link #crawl}): robots → fetch → parse →
 * sieve → enqueue → record, ending in exactly one record and the lease given back (or, when the
 * URL must wait, put back). Thread-safe: every worker runs URLs through the same pipeline.
 */
final class UrlPipeline implements AutoCloseable {
  private final CrawlConfig config;
  private final Frontier frontier;
  private final Recorder recorder;
  private final Fetcher fetcher;
  private final Archiving archive;
  private final LinkExtractor extractor;
  private final RobotsGate robots;
  private final Retries retries;
  private final LinkFilter links;
  private final LinkClassifier linkFates;
  private final SitemapStep sitemaps;
  private final UnreachableHosts hosts;
  private final ProxyHealth proxies;
  /** Permits for URLs still to be done under --max-pages; a URL that is not a page gives its back. */
  private final Semaphore pageBudget;
  private final WorkSlots slots;
  private final WebSession session;

  /**
   * What the pipeline needs of the frontier's lifecycle: whether the crawl resumed (it restored
   * counters), and how to make the frontier's changes durable.
   */
  record Resume(boolean resumed, Runnable flushLog) {}

  UrlPipeline(CrawlConfig config, List<Url> seeds, Frontier frontier, CrawlListener listener,
      Recorder recorder, Semaphore pageBudget, BooleanSupplier stopping, WorkSlots slots,
      Consumer<String> onDeadProxy, Resume resume) {
    this.proxies = new ProxyHealth(config.fetch.hostFailureLimit(), onDeadProxy);
    this.slots = slots;
    this.config = config;
    this.frontier = frontier;
    this.recorder = recorder;
    this.pageBudget = pageBudget;
    this.retries = new Retries(config, frontier, pageBudget, stopping);
    this.archive = Archiving.open(config);
    this.session = WebSession.open(config.fetch.session(), config.clock, config.frontier.stateDir,
        resume.resumed());
    this.fetcher = fetcher(config, seeds, session);
    this.hosts = new UnreachableHosts(config, frontier, recorder, pageBudget);
    this.extractor = config.scope.extractor();
    RobotsPolicy policy = RobotsGate.policy(config, this::fetch);
    this.links = new LinkFilter(config, seeds);
    this.linkFates = new LinkClassifier(config, links, policy, frontier);
    java.nio.file.Path stateDir = config.frontier.stateDir;
    this.sitemaps = new SitemapStep(config.sitemaps, this::fetch, policy, linkFates, frontier,
        resume.flushLog(), recorder::countAside, stateDir == null
            ? ReadSitemaps.none()
            // Restored counters tell a resumed crawl: a new one (or one started over) has none.
            : ReadSitemaps.open(stateDir, resume.resumed()));
    this.robots = new RobotsGate(policy, config, sitemaps, frontier, hosts, pageBudget, listener);
  }

  private static Fetcher fetcher(CrawlConfig config, List<Url> seeds, WebSession session) {
    return Fetcher.builder()
        .settings(config.fetch)
        .requestStep(session.requestStep())
        .idleConnections(config.fetch.maxIdleConnections(), config.idleConnectionTimeout())
        .ticker(config.ticker())
        .clock(config.clock)
        .addressPolicy(config.scope.allowPrivate()
            ? AddressPolicy.allowAll()
            : AddressPolicy.publicOnlyExcept(
                seeds.stream().map(Url::host).collect(Collectors.toSet())))
        .build();
  }

  /** The pipeline for one URL: robots → fetch → parse → sieve → enqueue → record. */
  void crawl(Lease lease) {
    Url url = lease.url();
    Recorder.Outcome outcome = recorder.of(lease);
    if (refusedAddress(outcome, url)
        || hosts.failIfUnreachable(outcome, url)
        || !robots.allows(outcome, url)
        || readSitemap(lease, url)) {
      return;
    }
    FetchResult page = fetch(url, outcome);
    if (hosts.failIfUnreachable(outcome, url) || retries.retried(page, outcome)) {
      return;
    }
    if (page.isNotModified() && lease.last() != null && lease.last().hasValidator()) {
      // A conditional refetch of an unchanged page: its links were queued on its first fetch.
      outcome.record(page, 0, 0, Recorder.NOT_MODIFIED);
      outcome.finish();
      return;
    }
    if (page.isRedirect()) {
      followRedirect(outcome, url, page, true);
      return;
    }
    recordPage(outcome, url, page);
  }

  /** Parses a fetched page that is not a redirect, queues its links and records it. */
  private void recordPage(Recorder.Outcome outcome, Url url, FetchResult page) {
    Lease lease = outcome.lease();
    boolean parse = page.isSuccess() && page.isHtml();
    ParsedPage parsed = parse
        ? extractor.extract(page.body(), page.contentType(), url)
        : ParsedPage.empty();
    LinkCounts fates = parse ? linkFates.classify(parsed, url, lease) : null;
    parsed.refresh().ifPresent(target -> {
      outcome.redirected(target.toString());
      outcome.count(CrawlStats.SESSION + "meta-refresh");
    });
    outcome.record(page, parsed.linksFound(), fates == null ? 0 : fates.count(LinkFate.NEW),
        errorOf(page), fates);
    outcome.finish();
  }

  /**
   * Closes the fetcher (fetches still in flight fail), reports sitemaps left unread, then closes
   * the archive.
   *
   * @throws dev.sieve.warc.WarcException if the archive cannot be closed
   */
  @Override
  public void close() {
    fetcher.close();
    sitemaps.close();
    archive.close();
  }

  long connectionsOpened() {
    return fetcher.connectionsOpened();
  }

  long connectionsReused() {
    return fetcher.connectionsReused();
  }

  long connectionsStale() {
    return fetcher.connectionsStale();
  }

  /** Forces what was archived to the disk and saves the cookie jar (before each checkpoint). */
  void sync() {
    archive.sync();
    session.save();
  }

  /** The session counters recorded ({@code counted}) with the cookies the jar did not keep. */
  Map<String, Long> session(Map<String, Long> counted) {
    Map<String, Long> all = new TreeMap<>(counted);
    session.counts().forEach((name, count) -> all.merge(name, count, Long::sum));
    return all;
  }

  /**
   * Reads the next sitemap of the URL's authority, if one waits, in this lease's politeness slot
   * (as a robots.txt fetch does), and then puts the URL back to wait for the next slot. Returns
   * whether it did.
   */
  private boolean readSitemap(Lease lease, Url url) {
    if (!sitemaps.readNext(url)) {
      return false;
    }
    pageBudget.release();
    frontier.putBack(lease);
    return true;
  }

  /**
   * Records the URL as {@code private-address} at once when its host resolves only to addresses
   * the crawl may not connect to, before robots.txt or anything else is tried; returns whether.
   */
  private boolean refusedAddress(Recorder.Outcome outcome, Url url) {
    if (!fetcher.refusesAddress(url.host())) {
      return false;
    }
    outcome.record(null, 0, 0, FetchError.PRIVATE_ADDRESS.label());
    outcome.finish();
    return true;
  }

  /**
   * Fetches {@code url} (robots.txt, a sitemap), noting connection failures against its
   * authority, and archives it.
   */
  private FetchResult fetch(String url) {
    return fetch(url, Url.parse(url).orElse(null), null);
  }

  /**
   * {@link #fetch(String)} of a page, whose {@code outcome} learns where it was archived; a
   * refetch is conditional on the validators of the page's last fetch.
   */
  private FetchResult fetch(Url url, Recorder.Outcome outcome) {
    return fetch(url.toString(), url, outcome);
  }

  private FetchResult fetch(String text, Url url, Recorder.Outcome outcome) {
    Validators validators = outcome == null ? Validators.NONE : LastFetches.of(outcome.lease().last());
    FetchResult result = slots.fetch(() -> fetcher.fetch(text, validators), outcome != null);
    if (url != null) {
      hosts.observe(url, result);
    }
    Optional<ProxyServer> proxy = fetcher.proxyFor(text);
    if (proxy.isPresent()) {
      proxies.observe(proxy.get(), result);
    }
    archive.write(result, outcome);
    return result;
  }

  /**
   * A redirect's target is a new link: normalized, scoped and sieved like any other. A redirect
   * back along its chain (a loop) whose response set a cookie, as a consent page does, has its
   * target fetched again at once with the cookie, when {@code refetch} allows: once, since the
   * fetch made again does not allow it.
   */
  private void followRedirect(Recorder.Outcome outcome, Url url, FetchResult page,
      boolean refetch) {
    Lease lease = outcome.lease();
    Optional<Url> target = url.resolve(page.redirectLocation().orElseThrow());
    String error = null;
    Url again = null;
    int added = 0;
    target.ifPresent(resolved -> outcome.redirected(resolved.toString()));
    if (target.isEmpty()) {
      error = "bad-redirect";
    } else if (fetcher.refusesAddress(target.get().host())) {
      // Before anything else: a private target is never queued, and so never reaches robots.txt.
      error = FetchError.PRIVATE_ADDRESS.label();
      outcome.count("skipped." + LinkFate.PRIVATE_ADDRESS.label());
    } else if (target.get().equals(lease.url())
        || lease.redirectChain().contains(target.get().toString())) {
      if (refetch && session.setCookie(page.exchange().map(Exchange::responseHead).orElse(null))) {
        again = target.get();
      } else {
        error = "redirect-loop";
      }
    } else if (lease.redirectChain().size() + 1 > config.fetch.maxRedirects()) {
      error = "too-many-redirects";
    } else {
      String refusal = links.refusal(target.get(), lease.depth());
      if (refusal != null) {
        outcome.count("skipped." + refusal);
      } else if (frontier.pushRedirect(target.get(), lease)) {
        added = 1;
      }
    }
    outcome.record(page, 1, added, error);
    if (again != null) {
      fetchWithCookie(outcome, again);
    }
    outcome.finish();
  }

  /**
   * Fetches {@code url}, a URL along the chain of {@code outcome}'s redirect, once more within
   * its lease (its politeness slot), now with the cookie the redirect set; records it as a URL of
   * its own, counted {@code session.cookie-refetch}.
   */
  private void fetchWithCookie(Recorder.Outcome outcome, Url url) {
    Lease lease = outcome.lease();
    List<String> chain = new ArrayList<>(lease.redirectChain());
    chain.add(lease.url().toString());
    Recorder.Outcome again = outcome.within(new Lease(url, lease.depth(),
        lease.hostKey(), 0, chain, lease.url().toString(), null));
    again.count(CrawlStats.SESSION + "cookie-refetch");
    FetchResult page = fetch(url, again);
    if (page.isRedirect()) {
      followRedirect(again, url, page, false);
    } else {
      recordPage(again, url, page);
    }
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
}
