package dev.sieve.fetch;

import com.google.common.base.Ticker;
import java.io.IOException;
import java.net.UnknownHostException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import okhttp3.Call;
import okhttp3.ConnectionSpec;
import okhttp3.HttpUrl;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Fetches one URL with a GET and returns what happened as a {@link FetchResult}; network and HTTP
 * failures are results, not exceptions. Redirects are not followed and nothing is retried: one
 * fetch gets at most one answer (a request that failed on a kept connection before any byte of an
 * answer, the peer having closed it, is sent once more at once on a new one: {@link
 * #connectionsStale()}). Connections are kept across a host's politeness delay. Thread-safe: share one instance (and so its connection pools)
 * across workers, and {@link #close()} it when done.
 */
public final class Fetcher implements AutoCloseable {
  /** The default {@code User-Agent}. */
  public static final String DEFAULT_USER_AGENT = "SieveBot/0.1 (+https://example.invalid/sieve)";

  private static final Logger log = LoggerFactory.getLogger(Fetcher.class);
  /** How long a host's resolved addresses are used before it is looked up again. */
  static final Duration DNS_TTL = Duration.ofMinutes(5);
  /** Hosts whose addresses are kept at most. */
  private static final int DNS_MAX_HOSTS = 100_000;
  /**
   * Default {@link FetcherBuilder#idleConnections} timeout: without retries a pooled connection
   * the server has closed fails the fetch, so idle connections go before the shortest keep-alive
   * common on servers (5 s) unless the politeness delay asks for longer.
   */
  public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofSeconds(4);
  private static final String ACCEPT =
      "text/html,application/xhtml+xml;q=0.9,text/plain;q=0.8,*/*;q=0.5";

  private final Clients clients;
  private final String userAgent;
  private final long maxBodyBytes;
  private final Ticker ticker;
  private final Clock clock;
  private final AddressPolicy addressPolicy;
  private final AtomicBoolean closed = new AtomicBoolean();
  private final DnsCache dns;
  private final ConnectionCounter connections;
  private final OneAnswerPeers oneAnswerPeers = new OneAnswerPeers();

  Fetcher(FetcherBuilder b) {
    this.userAgent = b.userAgent;
    this.maxBodyBytes = b.maxBodyBytes;
    this.ticker = b.ticker;
    this.clock = b.clock;
    this.addressPolicy = b.addressPolicy;
    this.connections = new ConnectionCounter(b.connectionTicker);
    this.dns = new DnsCache(addressPolicy::resolve, DNS_TTL.toNanos(), DNS_MAX_HOSTS,
        b.connectionTicker);
    OkHttpClient.Builder baseBuilder = new OkHttpClient.Builder();
    if (b.requestStep != null) {
      baseBuilder.addInterceptor(b.requestStep);
    }
    OkHttpClient base =
        baseBuilder
            // Cleartext only, as every client made from it (Clients): built with TLS, it would
            // load the JDK's trust store and SSL context (~0.2 CPU-s) that no http crawl uses;
            // the TLS clients set theirs up at the first https URL.
            .connectionSpecs(List.of(ConnectionSpec.CLEARTEXT))
            .connectTimeout(b.connectTimeout)
            .readTimeout(b.readTimeout)
            .callTimeout(b.callTimeout)
            // One fetch is one request: the crawler decides about redirects and retries, and
            // counts them. OkHttp would otherwise repeat a request after a dropped connection or
            // a 408, and a 503 with Retry-After 0 (see NoSilentRetries).
            .retryOnConnectionFailure(false)
            .followRedirects(false)
            .followSslRedirects(false)
            .addNetworkInterceptor(new NoSilentRetries())
            // Connections to peers that close after each answer are not kept for reuse.
            .addNetworkInterceptor(oneAnswerPeers)
            // Innermost: sees the exchange exactly as on the wire.
            .addNetworkInterceptor(Capture.INTERCEPTOR)
            // An idle connection per host waits out the host's politeness delay for its next fetch
            // (see FetcherBuilder#idleConnections).
            .eventListener(connections)
            .build();
    this.clients = new Clients(base, dns, b.maxIdleConnections, b.idleTimeout, b.proxies, b.tls);
  }

  /** Returns a builder with the documented defaults. */
  public static FetcherBuilder builder() {
    return new FetcherBuilder();
  }

  /**
   * GETs {@code url} and reads its body (as transferred and gzip-decoded, each capped at {@code
   * maxBodyBytes}) whatever
   * the status. Blocks for at most about {@code callTimeout}. Never throws for network or HTTP
   * problems; see {@link FetchResult#error()}.
   *
   * @param url an absolute http or https URL
   * @throws IllegalArgumentException if {@code url} is null or not an absolute http(s) URL
   * @throws IllegalStateException if this fetcher is closed
   */
  public FetchResult fetch(String url) {
    return fetch(url, Validators.NONE);
  }

  /**
   * {@link #fetch(String)}, conditional on {@code validators} from an earlier response: sends
   * {@code If-None-Match} and {@code If-Modified-Since} for those present, so an unchanged page
   * may come back as {@code 304 Not Modified} with no body.
   */
  public FetchResult fetch(String url, Validators validators) {
    HttpUrl httpUrl = url == null ? null : HttpUrl.parse(url);
    if (httpUrl == null) {
      throw new IllegalArgumentException("url (" + url + ") must be an absolute http(s) URL");
    }
    if (closed.get()) {
      throw new IllegalStateException("Fetcher is closed");
    }
    Optional<ProxyServer> proxy = clients.proxyFor(httpUrl);
    Capture capture = new Capture();
    FetchResult result = fetch(url, httpUrl, validators, capture, proxy, false);
    if (capture.stale) {
      // A kept connection its peer had closed: the request got no byte of an answer, so it is
      // sent once more, at once, on a new connection (the pool may hold more such connections).
      log.debug("fetch {}: kept connection closed by its peer; sending again on a new one", url);
      connections.countStale();
      if (capture.peer != null && capture.earlierExchanges == 1
          && capture.idleNanos < OneAnswerPeers.CLOSED_AT_ONCE.toNanos()) {
        // Closed at once after its first answer: the peer closes after each (tinyproxy does).
        oneAnswerPeers.learn(capture.peer);
      }
      result = fetch(url, httpUrl, validators, new Capture(), proxy, true);
    }
    return result;
  }

  /** One GET; on a new connection when {@code newConnection}, else on a kept one if any. */
  private FetchResult fetch(String url, HttpUrl httpUrl, Validators validators, Capture capture,
      Optional<ProxyServer> proxy, boolean newConnection) {
    capture.proxy = proxy.orElse(null);
    Request.Builder request =
        validators.addTo(new Request.Builder())
            .url(httpUrl)
            .header("User-Agent", userAgent)
            .header("Accept", ACCEPT)
            // Asked for here, not by OkHttp, so the body stays as transferred for the archive;
            // BodyReader decodes it for the parser.
            .header("Accept-Encoding", "gzip")
            .tag(Capture.class, capture);
    if (capture.proxy != null && capture.proxy.hasCredentials() && !httpUrl.isHttps()
        && capture.proxy.kind() != ProxyServer.Kind.SOCKS5) {
      // Sent up front to an HTTP proxy (a CONNECT gets it from the proxy authenticator); Capture
      // leaves it out of the archived head.
      request.header(Clients.PROXY_AUTHORIZATION, Clients.credentials(capture.proxy));
    }
    Instant date = clock.instant();
    long start = ticker.read();
    OkHttpClient client = clients.client(httpUrl, proxy);
    Call call = (newConnection ? clients.unpooled(client) : client).newCall(request.build());
    try {
      if (bypassesDns(httpUrl.host())) {
        addressPolicy.resolve(httpUrl.host()); // throws if refused: nothing is sent
      }
      try (Response response = call.execute()) {
        if (response.code() == 407 && capture.proxy != null) {
          return FetchResult.failure(url, elapsedMs(start), FetchError.PROXY_AUTH,
              "proxy answered 407");
        }
        return read(url, call, response, start, date, capture);
      }
    } catch (IOException e) {
      FetchError error = FetchError.classify(e);
      String reason = FetchError.reason(e);
      ProxyFailure atProxy = ProxyFailure.of(error, reason, capture, httpUrl.isHttps());
      if (atProxy != null) {
        error = atProxy.error;
        reason = atProxy.getMessage();
      }
      log.debug("fetch {} failed: {} ({})", url, error.label(), reason);
      capture.stale = capture.requestHead() != null && capture.responseHead() == null
          && !capture.newConnection && StaleConnection.unanswered(e);
      return FetchResult.failure(url, elapsedMs(start), error, reason);
    }
  }

  /**
   * Whether OkHttp connects to {@code host} without asking the DNS: what it takes for an IP
   * address, an IPv6 literal or digits and dots ({@code 127.1}, {@code 2130706433} are loopback to
   * the JDK), so the policy is applied before the call.
   */
  private static boolean bypassesDns(String host) {
    if (host.indexOf(':') >= 0) {
      return true;
    }
    for (int i = 0; i < host.length(); i++) { // a loop, not a stream: it runs on every fetch
      char c = host.charAt(i);
      if (c != '.' && (c < '0' || c > '9')) {
        return false;
      }
    }
    return true;
  }

  /**
   * Whether a fetch from {@code host} would be refused by the address policy, resolving the name
   * now: lets a caller record the refusal before spending anything else on the URL.
   */
  public boolean refusesAddress(String host) {
    if (addressPolicy.exempts(host)) {
      return false;
    }
    try {
      dns.lookup(host);
      return false;
    } catch (BlockedAddressException e) {
      return true;
    } catch (UnknownHostException e) {
      return false;
    }
  }

  /** The proxy a fetch of {@code url} goes through, or empty: direct (or not a URL). */
  public Optional<ProxyServer> proxyFor(String url) {
    HttpUrl httpUrl = url == null ? null : HttpUrl.parse(url);
    return httpUrl == null ? Optional.empty() : clients.proxyFor(httpUrl);
  }

  /** Connections opened so far (TCP connects that succeeded). */
  public long connectionsOpened() {
    return connections.opened();
  }

  /** Requests so far sent on a connection kept from an earlier one. */
  public long connectionsReused() {
    return connections.reused();
  }

  /**
   * Requests so far sent again, at once and on a new connection, because the kept connection they
   * were sent on had been closed by its peer (they failed before any byte of an answer); not
   * retries: each fetch is sent again at most once.
   */
  public long connectionsStale() {
    return connections.stale();
  }

  private FetchResult read(String url, Call call, Response response, long start, Instant date,
      Capture capture) {
    int status = response.code();
    String location = status >= 300 && status < 400 ? response.header("Location") : null;
    if (location != null && location.isBlank()) {
      location = null;
    }
    Duration retryAfter =
        status == 429 || status == 503
            ? RetryAfter.parse(response.header(NoSilentRetries.HEADER), clock.instant()).orElse(null)
            : null;

    BodyReader.Body body = BodyReader.read(call, response, maxBodyBytes);
    if (body.error() != null) {
      log.debug("fetch {} status {} body read failed: {} ({})", url, status, body.error().label(),
          body.reason());
    }
    Exchange exchange = capture.responseHead() == null
        ? null
        : new Exchange(date, capture.ip(), capture.requestHead(), capture.responseHead(),
            body.wire(), body.wireCut(), capture.protocols(), capture.cipherSuite());
    return new FetchResult(
        url,
        status,
        response.header("Content-Type"),
        body.decoded(),
        body.truncated(),
        location,
        retryAfter,
        elapsedMs(start),
        body.error(),
        body.reason(),
        exchange);
  }

  private long elapsedMs(long start) {
    return TimeUnit.NANOSECONDS.toMillis(ticker.read() - start);
  }

  /**
   * Releases the dispatcher's threads and the pooled connections. Idempotent; {@link #fetch}
   * must not be called afterwards.
   */
  @Override
  public void close() {
    if (closed.compareAndSet(false, true)) {
      clients.close();
    }
  }
}
