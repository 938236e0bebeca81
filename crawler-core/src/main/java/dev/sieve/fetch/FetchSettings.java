package dev.sieve.fetch;

import dev.sieve.settings.Check;
import java.time.Duration;
import java.util.Objects;

/**
 * How a crawl fetches: the request's agent, timeouts and body cap, and how failures are retried.
 * Immutable; built with {@link #builder()} and validated once in {@link Builder#build()}. Each
 * default is a constant here, read by the builder and by the command line's option defaults.
 */
public final class FetchSettings {
  /** Default {@link Builder#retries}. */
  public static final int DEFAULT_RETRIES = 2;
  /** Default {@link Builder#retryBackoff}, in milliseconds. */
  public static final long DEFAULT_RETRY_BACKOFF_MS = 2_000;
  /** Default {@link Builder#maxRedirects}. */
  public static final int DEFAULT_MAX_REDIRECTS = 5;
  /** Default {@link Builder#maxBodyBytes}: 10 MiB. */
  public static final long DEFAULT_MAX_BODY_BYTES = 10L << 20;
  /** Default {@link Builder#connectTimeout}, in seconds. */
  public static final long DEFAULT_CONNECT_TIMEOUT_SECONDS = 10;
  /** Default {@link Builder#readTimeout}, in seconds. */
  public static final long DEFAULT_READ_TIMEOUT_SECONDS = 30;
  /** Default {@link Builder#callTimeout}, in seconds. */
  public static final long DEFAULT_CALL_TIMEOUT_SECONDS = 60;
  /** Default {@link Builder#hostFailureLimit}. */
  public static final int DEFAULT_HOST_FAILURE_LIMIT = 3;
  /** Default {@link Builder#maxRetryAfter}, in seconds. */
  public static final long DEFAULT_MAX_RETRY_AFTER_SECONDS = 300;
  /** The most {@link Builder#maxRetryAfter} accepts: a host is never held longer than a day. */
  /**
   * Default {@link Builder#maxIdleConnections}: an idle connection for each of thousands of hosts
   * between their fetches (a few KB of heap and one file descriptor each).
   */
  public static final int DEFAULT_MAX_IDLE_CONNECTIONS = 4096;
  public static final Duration MAX_RETRY_AFTER_LIMIT = Duration.ofDays(1);

  private final String userAgent;
  private final int retries;
  private final Duration retryBackoff;
  private final int maxRedirects;
  private final long maxBodyBytes;
  private final Duration connectTimeout;
  private final Duration readTimeout;
  private final Duration callTimeout;
  private final int hostFailureLimit;
  private final Duration maxRetryAfter;
  private final int maxIdleConnections;
  private final dev.sieve.session.SessionSettings session;
  private final ProxySettings proxies;
  private final TlsSettings tls;

  private FetchSettings(Builder b) {
    this.proxies = b.proxies;
    this.tls = b.tls;
    this.userAgent = b.userAgent;
    this.retries = b.retries;
    this.retryBackoff = b.retryBackoff;
    this.maxRedirects = b.maxRedirects;
    this.maxBodyBytes = b.maxBodyBytes;
    this.connectTimeout = b.connectTimeout;
    this.readTimeout = b.readTimeout;
    this.callTimeout = b.callTimeout;
    this.hostFailureLimit = b.hostFailureLimit;
    this.maxRetryAfter = b.maxRetryAfter;
    this.maxIdleConnections = b.maxIdleConnections;
    this.session = b.session;
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Every setting at its default. */
  public static FetchSettings defaults() {
    return builder().build();
  }

  public String userAgent() {
    return userAgent;
  }

  public int retries() {
    return retries;
  }

  public Duration retryBackoff() {
    return retryBackoff;
  }

  public int maxRedirects() {
    return maxRedirects;
  }

  public long maxBodyBytes() {
    return maxBodyBytes;
  }

  public Duration connectTimeout() {
    return connectTimeout;
  }

  public Duration readTimeout() {
    return readTimeout;
  }

  public Duration callTimeout() {
    return callTimeout;
  }

  public int hostFailureLimit() {
    return hostFailureLimit;
  }

  public int maxIdleConnections() {
    return maxIdleConnections;
  }

  public Duration maxRetryAfter() {
    return maxRetryAfter;
  }

  /** Cookies, headers of one's own and credentials per origin. */
  public dev.sieve.session.SessionSettings session() {
    return session;
  }

  /** Which proxy each fetch goes through. */
  public ProxySettings proxies() {
    return proxies;
  }

  /** Which certificate authorities TLS connections trust. */
  public TlsSettings tls() {
    return tls;
  }

  /** Fetch settings; every value has a default. */
  public static final class Builder {
    private String userAgent = Fetcher.DEFAULT_USER_AGENT;
    private int retries = DEFAULT_RETRIES;
    private Duration retryBackoff = Duration.ofMillis(DEFAULT_RETRY_BACKOFF_MS);
    private int maxRedirects = DEFAULT_MAX_REDIRECTS;
    private long maxBodyBytes = DEFAULT_MAX_BODY_BYTES;
    private Duration connectTimeout = Duration.ofSeconds(DEFAULT_CONNECT_TIMEOUT_SECONDS);
    private Duration readTimeout = Duration.ofSeconds(DEFAULT_READ_TIMEOUT_SECONDS);
    private Duration callTimeout = Duration.ofSeconds(DEFAULT_CALL_TIMEOUT_SECONDS);
    private int hostFailureLimit = DEFAULT_HOST_FAILURE_LIMIT;
    private Duration maxRetryAfter = Duration.ofSeconds(DEFAULT_MAX_RETRY_AFTER_SECONDS);
    private int maxIdleConnections = DEFAULT_MAX_IDLE_CONNECTIONS;
    private dev.sieve.session.SessionSettings session = dev.sieve.session.SessionSettings.defaults();

    /** Cookies, headers and credentials (default: cookies kept, nothing else). */
    public Builder session(dev.sieve.session.SessionSettings session) {
      this.session = Objects.requireNonNull(session, "session");
      return this;
    }
    private ProxySettings proxies = ProxySettings.none();
    private TlsSettings tls = TlsSettings.system();

    private Builder() {}

    /** Which proxy each fetch goes through (default none: every fetch direct). */
    public Builder proxies(ProxySettings proxies) {
      this.proxies = Objects.requireNonNull(proxies, "proxies");
      return this;
    }

    /** Which certificate authorities TLS connections trust (default the system's). */
    public Builder tls(TlsSettings tls) {
      this.tls = Objects.requireNonNull(tls, "tls");
      return this;
    }

    /** Sent on every request; its product token is the robots.txt agent name. */
    public Builder userAgent(String userAgent) {
      this.userAgent = userAgent;
      return this;
    }

    /** Retries of a 5xx or network failure (default 2). */
    public Builder retries(int retries) {
      this.retries = retries;
      return this;
    }

    /** The first retry's delay, doubled for each later one (default 2 s). */
    public Builder retryBackoff(Duration backoff) {
      this.retryBackoff = Objects.requireNonNull(backoff, "retryBackoff");
      return this;
    }

    /** Redirects followed in one chain (default 5). */
    public Builder maxRedirects(int maxRedirects) {
      this.maxRedirects = maxRedirects;
      return this;
    }

    /** Body bytes kept per page, after decompression (default 10 MiB). */
    public Builder maxBodyBytes(long maxBodyBytes) {
      this.maxBodyBytes = maxBodyBytes;
      return this;
    }

    /** Bounds establishing the connection (default 10 s). */
    public Builder connectTimeout(Duration timeout) {
      this.connectTimeout = Objects.requireNonNull(timeout, "connectTimeout");
      return this;
    }

    /** Bounds each wait for bytes from the server (default 30 s). */
    public Builder readTimeout(Duration timeout) {
      this.readTimeout = Objects.requireNonNull(timeout, "readTimeout");
      return this;
    }

    /** Bounds a whole fetch, so a slow-drip server cannot hold a worker longer (default 60 s). */
    public Builder callTimeout(Duration timeout) {
      this.callTimeout = Objects.requireNonNull(timeout, "callTimeout");
      return this;
    }

    /**
     * Connection failures in a row (refused, timed out, reset; robots.txt fetches included) after
     * which an authority is unreachable: its URLs are recorded as {@code host-unreachable}
     * without fetching (default 3).
     */
    public Builder hostFailureLimit(int limit) {
      this.hostFailureLimit = limit;
      return this;
    }

    /**
     * A 429 or 503 asking (with {@code Retry-After}) for a longer wait than this fails its URL at
     * once, recorded as {@code retry-after-too-long} (default 5 min, at most 1 day).
     */
    public Builder maxRetryAfter(Duration max) {
      this.maxRetryAfter = Objects.requireNonNull(max, "maxRetryAfter");
      return this;
    }

    /**
     * Idle connections kept open for the next fetch of their host, across its politeness delay
     * (default 4096); past it the least recently used is closed.
     */
    public Builder maxIdleConnections(int max) {
      this.maxIdleConnections = max;
      return this;
    }

    public FetchSettings build() {
      Check.notBlank("userAgent", userAgent);
      Check.atLeast("retries", retries, 0);
      Check.notNegative("retryBackoff", retryBackoff);
      Check.atLeast("maxRedirects", maxRedirects, 0);
      Check.positive("maxBodyBytes", maxBodyBytes);
      Check.positive("hostFailureLimit", hostFailureLimit);
      Check.notNegative("maxRetryAfter", maxRetryAfter);
      Check.atMost("maxRetryAfter", maxRetryAfter, MAX_RETRY_AFTER_LIMIT);
      Check.atLeast("maxIdleConnections", maxIdleConnections, 0);
      return new FetchSettings(this);
    }
  }
}
