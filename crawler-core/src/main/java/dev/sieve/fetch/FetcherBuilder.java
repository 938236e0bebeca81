package dev.sieve.fetch;

import com.google.common.base.Ticker;
import java.time.Clock;
import java.time.Duration;

/**
 * Settings for a {@link Fetcher}, from {@link Fetcher#builder()}; validated once in {@link
 * #build()}. Not thread-safe. Null arguments are reported by {@code build()}.
 */
public final class FetcherBuilder {
  private static final long MAX_BODY_LIMIT = Integer.MAX_VALUE - 8;

  String userAgent = Fetcher.DEFAULT_USER_AGENT;
  Duration connectTimeout = Duration.ofSeconds(FetchSettings.DEFAULT_CONNECT_TIMEOUT_SECONDS);
  Duration readTimeout = Duration.ofSeconds(FetchSettings.DEFAULT_READ_TIMEOUT_SECONDS);
  Duration callTimeout = Duration.ofSeconds(FetchSettings.DEFAULT_CALL_TIMEOUT_SECONDS);
  long maxBodyBytes = FetchSettings.DEFAULT_MAX_BODY_BYTES;
  Ticker ticker = Ticker.systemTicker();
  Clock clock = Clock.systemUTC();
  AddressPolicy addressPolicy = AddressPolicy.allowAll();
  ProxySettings proxies = ProxySettings.none();
  TlsSettings tls = TlsSettings.system();
  int maxIdleConnections = FetchSettings.DEFAULT_MAX_IDLE_CONNECTIONS;
  Duration idleTimeout = Fetcher.DEFAULT_IDLE_TIMEOUT;
  /**
   * Times how long connections stay idle and DNS answers are kept; apart from {@link #ticker},
   * which times fetches.
   */
  Ticker connectionTicker = Ticker.systemTicker();
  okhttp3.Interceptor requestStep;

  FetcherBuilder() {}

  /**
   * A step every request goes through before it is sent, and its response after (default
   * none): a crawl's session adds its cookies, headers and credentials there.
   */
  public FetcherBuilder requestStep(okhttp3.Interceptor step) {
    this.requestStep = step;
    return this;
  }

  /** For tests: the ticker of idle connections and DNS answers (default the system's). */
  FetcherBuilder connectionTicker(Ticker connectionTicker) {
    this.connectionTicker = connectionTicker;
    return this;
  }

  /** The agent, timeouts and body cap of {@code settings}. */
  public FetcherBuilder settings(FetchSettings settings) {
    return userAgent(settings.userAgent())
        .connectTimeout(settings.connectTimeout())
        .readTimeout(settings.readTimeout())
        .callTimeout(settings.callTimeout())
        .maxBodyBytes(settings.maxBodyBytes())
        .idleConnections(settings.maxIdleConnections(), idleTimeout)
        .proxies(settings.proxies())
        .tls(settings.tls());
  }

  /**
   * Which proxy each fetch goes through (default none). The address policy still applies to
   * each URL's host, resolved here before the fetch; the proxy's own address is exempt.
   */
  public FetcherBuilder proxies(ProxySettings proxies) {
    this.proxies = proxies;
    return this;
  }

  /** Which certificate authorities TLS connections trust (default the system's). */
  public FetcherBuilder tls(TlsSettings tls) {
    this.tls = tls;
    return this;
  }

  /**
   * Keeps up to {@code max} idle connections (default 4096), each for up to {@code timeout}
   * (default 4 s) after its last use: a crawl keeps each host's connection across its
   * politeness delay so the next fetch needs no new TCP or TLS handshake.
   */
  public FetcherBuilder idleConnections(int max, Duration timeout) {
    this.maxIdleConnections = max;
    this.idleTimeout = timeout;
    return this;
  }

  /** The {@code User-Agent} sent with every request; must not be blank. */
  public FetcherBuilder userAgent(String userAgent) {
    this.userAgent = userAgent;
    return this;
  }

  /** Bounds establishing the TCP (and TLS) connection. Default 10 s. */
  public FetcherBuilder connectTimeout(Duration connectTimeout) {
    this.connectTimeout = connectTimeout;
    return this;
  }

  /** Bounds each wait for bytes from the server. Default 30 s. */
  public FetcherBuilder readTimeout(Duration readTimeout) {
    this.readTimeout = readTimeout;
    return this;
  }

  /**
   * Bounds the whole fetch, body read included, so a slow-drip server cannot hold a worker
   * longer. Default 60 s.
   */
  public FetcherBuilder callTimeout(Duration callTimeout) {
    this.callTimeout = callTimeout;
    return this;
  }

  /**
   * The most body bytes kept, as transferred and again after decompression; longer bodies are
   * truncated. Default 10 MiB.
   */
  public FetcherBuilder maxBodyBytes(long maxBodyBytes) {
    this.maxBodyBytes = maxBodyBytes;
    return this;
  }

  /** Measures {@link FetchResult#fetchMs()}. Default {@link Ticker#systemTicker()}. */
  public FetcherBuilder ticker(Ticker ticker) {
    this.ticker = ticker;
    return this;
  }

  /**
   * Which resolved addresses may be connected to (default all). Host names are checked after
   * resolution, so a DNS answer cannot steer the crawler into a private network; IP literals
   * are checked before connecting. A refused fetch fails with {@link
   * FetchError#PRIVATE_ADDRESS} and sends nothing.
   */
  public FetcherBuilder addressPolicy(AddressPolicy addressPolicy) {
    this.addressPolicy = addressPolicy;
    return this;
  }

  /** The "now" that HTTP-date {@code Retry-After} values are relative to. Default UTC. */
  public FetcherBuilder clock(Clock clock) {
    this.clock = clock;
    return this;
  }

  /**
   * Returns a new fetcher with its own connection pool.
   *
   * @throws IllegalArgumentException naming the first invalid setting
   */
  public Fetcher build() {
    if (userAgent == null || userAgent.isBlank()) {
      throw new IllegalArgumentException("userAgent (" + userAgent + ") must not be blank");
    }
    checkTimeout("connectTimeout", connectTimeout);
    checkTimeout("readTimeout", readTimeout);
    checkTimeout("callTimeout", callTimeout);
    if (maxBodyBytes <= 0) {
      throw new IllegalArgumentException("maxBodyBytes (" + maxBodyBytes + ") must be > 0");
    }
    if (maxBodyBytes > MAX_BODY_LIMIT) {
      throw new IllegalArgumentException(
          "maxBodyBytes (" + maxBodyBytes + ") must be <= " + MAX_BODY_LIMIT);
    }
    if (ticker == null) {
      throw new IllegalArgumentException("ticker (null) must not be null");
    }
    if (clock == null) {
      throw new IllegalArgumentException("clock (null) must not be null");
    }
    if (maxIdleConnections < 0) {
      throw new IllegalArgumentException(
          "maxIdleConnections (" + maxIdleConnections + ") must be >= 0");
    }
    checkTimeout("idleTimeout", idleTimeout);
    if (addressPolicy == null) {
      throw new IllegalArgumentException("addressPolicy (null) must not be null");
    }
    if (proxies == null || tls == null) {
      throw new IllegalArgumentException((proxies == null ? "proxies" : "tls")
          + " (null) must not be null");
    }
    return new Fetcher(this);
  }

  private static void checkTimeout(String name, Duration value) {
    if (value == null || value.compareTo(Duration.ofMillis(1)) < 0) {
      throw new IllegalArgumentException(name + " (" + value + ") must be >= 1 ms");
    }
    if (value.compareTo(Duration.ofMillis(Integer.MAX_VALUE)) > 0) {
      throw new IllegalArgumentException(
          name + " (" + value + ") must be <= " + Integer.MAX_VALUE + " ms");
    }
  }
}
