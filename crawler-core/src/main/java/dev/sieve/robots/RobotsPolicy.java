package dev.sieve.robots;

import dev.sieve.fetch.FetchError;
import dev.sieve.fetch.FetchResult;
import dev.sieve.fetch.Fetcher;
import dev.sieve.robots.RobotsRules.Source;
import dev.sieve.robots.RobotsVerdict.Decision;
import dev.sieve.settings.Check;
import dev.sieve.url.Url;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;

/**
 * Decides whether robots.txt (RFC 9309, parsed by crawler-commons) lets this crawler fetch a URL,
 * and keeps each origin's rules in a bounded cache. Thread-safe: share one instance across
 * workers.
 *
 * <h2>Fetching</h2>
 *
 * <p>{@link #check(Url)} fetches the robots.txt of the URL's origin ({@code scheme://host:port})
 * when it has no fresh rules for it, synchronously on the calling thread and through the fetch
 * function given to the builder. The crawl loop calls {@code check} on a worker that already holds
 * the host's politeness slot, right before fetching a page of that host, so the robots.txt request
 * counts against the host's politeness like any page. Redirects are followed even to other hosts
 * (RFC 9309 section 2.3.1.2); those few requests are not paced by the other host's politeness.
 *
 * <p>Concurrent checks of one origin fetch its robots.txt once: the first caller fetches and the
 * others block until it is done, then share the result. Waiting is not interruptible and lasts at
 * most as long as the fetch, bounded by the fetch function's timeouts times {@code 1 +
 * maxRedirects}. Checks of other origins never wait for it. To tell whether a check would fetch,
 * see {@link #cached(Url)}.
 *
 * <h2>Outcomes (RFC 9309 section 2.3.1)</h2>
 *
 * <ul>
 *   <li>2xx: the first 500 KiB of the body are parsed for this crawler's agent token; the rules
 *       live for the TTL. Garbage parses to whatever crawler-commons makes of it (usually allow
 *       all) and never throws; an oversized or mostly unparsable file is logged at INFO once per
 *       fetch.
 *   <li>3xx: up to {@code maxRedirects} redirects are followed, resolved with {@link
 *       Url#resolve}. A longer chain, a missing or unusable {@code Location} count as "no
 *       robots.txt": allow all, for the TTL. So does a redirect (or a robots.txt) to a host the
 *       fetcher refuses for its address ({@link FetchError#PRIVATE_ADDRESS}): nothing is sent
 *       there, and the server has not failed.
 *   <li>4xx: no robots.txt, allow all for the TTL; except 429, which is treated as a server error
 *       (a host that says we ask too often is not telling us to crawl everything).
 *   <li>5xx, 429, any other status, or a network failure ({@link FetchResult#error()} set, even
 *       on a 2xx whose body read failed): unreachable, disallow all, with the cause ({@link
 *       RobotsRules#failure()}) and the number of such failures in a row for the origin. Such
 *       rules expire after the retry interval (after a connection failure, the connection retry
 *       interval doubled per failure in a row, up to the retry interval), stretched to the {@code
 *       Retry-After} of a 429 or 503 but never past the TTL, and are then fetched again, once
 *       for the origin however many URLs wait for them. RFC 9309 lets a crawler treat a robots.txt unreachable
 *       for 30 days or more as absent; this policy does not, it keeps disallowing and retrying.
 * </ul>
 *
 * <p>A {@code Crawl-delay} above {@code maxCrawlDelay} makes every URL of the host denied with
 * {@link Decision#CRAWL_DELAY_TOO_LONG}; that is logged at INFO once per fetch of its rules, so
 * at most once per TTL per origin.
 *
 * <p>Log lines of the fetching and parsing, done by package-private helpers, all go to this
 * class's logger.
 */
public final class RobotsPolicy {
  private final String agentToken;
  private final Duration maxCrawlDelay;
  private final RobotsLoader loader;
  private final RobotsCache cache;
  private final LongAdder denials = new LongAdder();

  private RobotsPolicy(Builder b, String agentToken) {
    this.agentToken = agentToken;
    this.maxCrawlDelay = b.maxCrawlDelay;
    this.loader =
        new RobotsLoader(
            b.fetch,
            new RobotsParser(agentToken, b.maxCrawlDelay),
            b.clock,
            b.ttl,
            b.retryInterval,
            b.connectionRetryInterval,
            b.maxRedirects);
    this.cache = new RobotsCache(b.maxCacheBytes, b.clock, loader::load);
  }

  /** Returns a builder with the documented defaults; a fetch function must be set. */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Returns what the robots.txt of {@code url}'s origin says about fetching {@code url}, first
   * fetching it if this policy holds no fresh rules for the origin (see the class comment for
   * who fetches and who waits). Never throws for anything the web sends.
   *
   * @throws RuntimeException whatever the fetch function threw, e.g. {@link
   *     IllegalStateException} from a closed {@link Fetcher}, also to the callers that were
   *     waiting for that fetch; nothing is cached then, so the next check fetches again
   */
  public RobotsVerdict check(Url url) {
    Objects.requireNonNull(url, "url");
    RobotsRules rules = cache.get(url.origin());
    RobotsVerdict verdict = verdict(rules, url);
    if (!verdict.allowed()) {
      denials.increment();
    }
    return verdict;
  }

  /**
   * The fresh rules held for {@code url}'s origin, without fetching or waiting. Empty when none
   * are held, they have expired, or a fetch of them is under way: then {@link #check} would fetch
   * or wait.
   */
  public Optional<RobotsRules> cached(Url url) {
    Objects.requireNonNull(url, "url");
    return cache.fresh(url.origin());
  }

  /** The lower-case agent token matched against {@code User-agent} lines, e.g. "sievebot". */
  public String agentToken() {
    return agentToken;
  }

  /** The number of robots.txt requests made so far, each redirect hop counting as one. */
  public long robotsFetches() {
    return loader.fetches();
  }

  /** The number of {@link #check} calls so far whose verdict was not {@link Decision#ALLOWED}. */
  public long denials() {
    return denials.sum();
  }

  private RobotsVerdict verdict(RobotsRules rules, Url url) {
    if (rules.source() == Source.UNREACHABLE) {
      return RobotsVerdict.unreachable(rules);
    }
    Optional<Duration> delay = rules.crawlDelay();
    if (delay.isPresent() && delay.get().compareTo(maxCrawlDelay) > 0) {
      return RobotsVerdict.of(Decision.CRAWL_DELAY_TOO_LONG, delay, rules.sitemaps());
    }
    Decision decision = rules.isAllowed(url) ? Decision.ALLOWED : Decision.DISALLOWED_BY_RULE;
    return RobotsVerdict.of(decision, delay, rules.sitemaps());
  }

  /**
   * Settings for a {@link RobotsPolicy}; validated once in {@link #build()}. Not thread-safe.
   * Null arguments are reported by {@code build()}.
   */
  public static final class Builder {
    /** Big enough that the cache's segments each hold several 500 KiB robots.txt files. */
    private static final long MIN_CACHE_BYTES = 16L * 1024 * 1024;

    private String userAgent = Fetcher.DEFAULT_USER_AGENT;
    private Function<String, FetchResult> fetch;
    private Duration ttl = Duration.ofHours(RobotsSettings.DEFAULT_TTL_HOURS);
    private Duration retryInterval =
        Duration.ofSeconds(RobotsSettings.DEFAULT_RETRY_INTERVAL_SECONDS);
    private Duration connectionRetryInterval = Duration.ofSeconds(2);
    private int maxRedirects = 5;
    private Duration maxCrawlDelay =
        Duration.ofSeconds(RobotsSettings.DEFAULT_MAX_CRAWL_DELAY_SECONDS);
    private Clock clock = Clock.systemUTC();
    private long maxCacheBytes = 128L * 1024 * 1024;

    private Builder() {}

    /** The rules' time to live, failure retry interval and longest Crawl-delay of {@code settings}. */
    public Builder settings(RobotsSettings settings) {
      return ttl(settings.ttl())
          .retryInterval(settings.retryInterval())
          .maxCrawlDelay(settings.maxCrawlDelay());
    }

    /**
     * The {@code User-Agent} the fetch function sends; its leading product token, lower-cased,
     * is the agent token matched against {@code User-agent} lines ({@code "SieveBot/0.1
     * (+...)"} gives {@code "sievebot"}) and must consist of letters, {@code '-'} and {@code
     * '_'} only (RFC 9309). Default {@link Fetcher#DEFAULT_USER_AGENT}.
     */
    public Builder userAgent(String userAgent) {
      this.userAgent = userAgent;
      return this;
    }

    /**
     * Fetches one absolute robots.txt URL without following redirects, e.g. {@code
     * fetcher::fetch}, or a wrapper that paces it by the host's politeness. Required. Called on
     * the thread that calls {@link RobotsPolicy#check}.
     */
    public Builder fetch(Function<String, FetchResult> fetch) {
      this.fetch = fetch;
      return this;
    }

    /** How long fetched rules, or "no robots.txt", are used before fetching again. Default 24 h. */
    public Builder ttl(Duration ttl) {
      this.ttl = ttl;
      return this;
    }

    /**
     * How long a robots.txt that answered with a failure (5xx, 429…) disallows all, until
     * fetched again; also the longest wait after a connection failure. Default 1 min.
     */
    public Builder retryInterval(Duration retryInterval) {
      this.retryInterval = retryInterval;
      return this;
    }

    /**
     * How long a robots.txt that could not be connected to (refused, timed out, reset) first
     * disallows all, until fetched again; it doubles with each such failure in a row, up to the
     * retry interval. Default 2 s.
     */
    public Builder connectionRetryInterval(Duration connectionRetryInterval) {
      this.connectionRetryInterval = connectionRetryInterval;
      return this;
    }

    /** The most redirects followed for one robots.txt; 0 follows none. Default 5. */
    public Builder maxRedirects(int maxRedirects) {
      this.maxRedirects = maxRedirects;
      return this;
    }

    /** The longest {@code Crawl-delay} obeyed; hosts asking more are skipped. Default 30 s. */
    public Builder maxCrawlDelay(Duration maxCrawlDelay) {
      this.maxCrawlDelay = maxCrawlDelay;
      return this;
    }

    /** Decides when rules expire. Default {@link Clock#systemUTC()}. */
    public Builder clock(Clock clock) {
      this.clock = clock;
      return this;
    }

    /**
     * Bounds the cache by the summed size of the robots.txt bodies it holds, each entry counting
     * 1 KiB more; the least recently used origins are evicted first. Default 128 MiB.
     */
    public Builder maxCacheBytes(long maxCacheBytes) {
      this.maxCacheBytes = maxCacheBytes;
      return this;
    }

    /**
     * Returns a new policy with an empty cache.
     *
     * @throws IllegalArgumentException naming the first invalid setting
     */
    public RobotsPolicy build() {
      Check.notBlank("userAgent", userAgent);
      String token = RobotsTxt.agentToken(userAgent);
      if (!RobotsTxt.isValidAgentToken(token)) {
        throw new IllegalArgumentException(
            "userAgent ("
                + userAgent
                + ") must start with a product token of letters, '-' and '_', not '"
                + token
                + "'");
      }
      if (fetch == null) {
        throw new IllegalArgumentException("fetch (null) must not be null");
      }
      checkPositive("ttl", ttl);
      checkPositive("retryInterval", retryInterval);
      checkPositive("connectionRetryInterval", connectionRetryInterval);
      Check.atLeast("maxRedirects", maxRedirects, 0);
      if (maxCrawlDelay == null || maxCrawlDelay.isNegative()) {
        throw new IllegalArgumentException("maxCrawlDelay (" + maxCrawlDelay + ") must be >= 0");
      }
      if (clock == null) {
        throw new IllegalArgumentException("clock (null) must not be null");
      }
      Check.atLeast("maxCacheBytes", maxCacheBytes, MIN_CACHE_BYTES);
      return new RobotsPolicy(this, token);
    }

    /** {@link Check#positive(String, Duration)}, with null reported as not positive. */
    private static void checkPositive(String name, Duration value) {
      if (value == null) {
        throw new IllegalArgumentException(name + " (null) must be > 0");
      }
      Check.positive(name, value);
    }
  }
}
