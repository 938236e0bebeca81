package dev.sieve.fetch;

import com.google.common.hash.Hashing;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Proxy;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.UnaryOperator;
import javax.net.SocketFactory;
import javax.net.ssl.X509TrustManager;
import okhttp3.ConnectionPool;
import okhttp3.ConnectionSpec;
import okhttp3.Credentials;
import okhttp3.Dns;
import okhttp3.HttpUrl;
import okhttp3.OkHttpClient;

/**
 * A fetcher's OkHttp clients: one family per route (direct, or each proxy of the {@link
 * ProxySettings}), each with a client per shard of the hosts, and made on its shard's first https
 * fetch, a TLS one sharing its pool. OkHttp looks for a pooled connection by scanning every
 * connection in its pool, which with thousands of hosts cost more CPU than the rest of the crawl;
 * plain http clients make no TLS context (trust store, SSL context: ~0.1 s of CPU in a fresh JVM).
 * Thread-safe.
 */
final class Clients {
  /** The header an HTTP proxy's credentials go in. */
  static final String PROXY_AUTHORIZATION = "Proxy-Authorization";

  private final ProxySettings proxies;
  private final TlsSettings tls;
  private final Family direct;
  private final Map<ProxyServer, Family> proxied = new HashMap<>();
  /** Each client's unpooled twin ({@link #unpooled}), made on its first use. */
  private final Map<OkHttpClient, OkHttpClient> unpooled = new ConcurrentHashMap<>();
  private X509TrustManager trust;

  /**
   * Clients made from {@code base} (timeouts, interceptors, listener), resolving direct fetches'
   * hosts with {@code dns}, each shard keeping its share of {@code maxIdle} connections for
   * {@code idleTimeout}.
   */
  Clients(OkHttpClient base, Dns dns, int maxIdle, Duration idleTimeout, ProxySettings proxies,
      TlsSettings tls) {
    this.proxies = proxies;
    this.tls = tls;
    int shards = Math.max(1, Math.min(64, maxIdle / 32));
    OkHttpClient plain = base.newBuilder()
        .connectionSpecs(List.of(ConnectionSpec.CLEARTEXT)).build();
    // Only the crawl's settings choose a proxy, never the JDK's default ProxySelector. Direct
    // cleartext fetches put no read or write under Okio's watchdog: reads are bounded by the
    // socket's read timeout (see TimedSocket), a request's writes (a GET's head, a few hundred
    // bytes) by the call timeout. Their TLS clients, which may speak HTTP/2, go back to OkHttp's.
    this.direct = new Family(plain.newBuilder().dns(dns).proxy(Proxy.NO_PROXY)
        .socketFactory(TimedSocket.factory(base.readTimeoutMillis()))
        .readTimeout(Duration.ZERO).writeTimeout(Duration.ZERO).build(), shards, maxIdle,
        idleTimeout,
        tlsBuilder -> tlsBuilder.socketFactory(SocketFactory.getDefault())
            .readTimeout(Duration.ofMillis(base.readTimeoutMillis()))
            .writeTimeout(Duration.ofMillis(base.writeTimeoutMillis())));
    for (ProxyServer proxy : proxies.servers()) {
      proxied.put(proxy, new Family(through(plain, proxy).build(), shards, maxIdle, idleTimeout,
          tlsBuilder -> tlsBuilder));
    }
  }

  /** {@code builder} routed through {@code proxy}. */
  private OkHttpClient.Builder through(OkHttpClient builder, ProxyServer proxy) {
    if (proxy.kind() == ProxyServer.Kind.SOCKS5) {
      // Connected by Socks5Socket, which sends the target's name to the proxy: the names are not
      // resolved here (the address policy is applied before each fetch, see Fetcher).
      return builder.newBuilder().proxy(Proxy.NO_PROXY)
          .socketFactory(Socks5Socket.factory(proxy))
          .dns(Clients::unresolved);
    }
    OkHttpClient.Builder http = builder.newBuilder()
        .proxy(new Proxy(Proxy.Type.HTTP, InetSocketAddress.createUnresolved(proxy.host(), proxy.port())))
        // Only the proxy's own name is resolved: it may be a private address.
        .dns(Dns.SYSTEM)
        .proxyAuthenticator((route, response) -> {
          // Called before each CONNECT (preemptively) and on a 407: credentials once, never again.
          if (!proxy.hasCredentials() || response.request().header(PROXY_AUTHORIZATION) != null) {
            return null;
          }
          return response.request().newBuilder()
              .header(PROXY_AUTHORIZATION, credentials(proxy)).build();
        });
    if (proxy.kind() == ProxyServer.Kind.HTTPS) {
      http.socketFactory(TlsProxySockets.factory(proxy, trustManager()));
    }
    return http;
  }

  /**
   * A made-up address per host name, never connected to: the SOCKS5 socket sends the name. Unique
   * per name so that OkHttp never shares an HTTP/2 connection between two hosts.
   */
  private static List<InetAddress> unresolved(String host) throws UnknownHostException {
    byte[] address = Hashing.murmur3_128().hashString(host, StandardCharsets.UTF_8).asBytes();
    address[0] = (byte) 0xfd; // unique local: never a real route
    return List.of(InetAddress.getByAddress(host, address));
  }

  /** The {@code Proxy-Authorization} value for {@code proxy}'s credentials. */
  static String credentials(ProxyServer proxy) {
    return Credentials.basic(proxy.user(), proxy.password(), StandardCharsets.UTF_8);
  }

  /** The proxy a fetch of {@code url} goes through, or empty: direct. */
  Optional<ProxyServer> proxyFor(HttpUrl url) {
    return proxies.forUrl(url.scheme(), url.host());
  }

  /** The client for {@code url}, going through {@code proxy} (from {@link #proxyFor}) or direct. */
  OkHttpClient client(HttpUrl url, Optional<ProxyServer> proxy) {
    Family family = proxy.map(proxied::get).orElse(direct);
    int shard = Math.floorMod(url.host().hashCode(), family.plain.length);
    if (!url.isHttps()) {
      return family.plain[shard];
    }
    OkHttpClient client = family.tls.get(shard);
    if (client == null) {
      OkHttpClient.Builder builder = family.toTls.apply(family.plain[shard].newBuilder())
          .connectionSpecs(List.of(ConnectionSpec.MODERN_TLS, ConnectionSpec.CLEARTEXT));
      if (!tls.isSystem()) {
        X509TrustManager trustManager = trustManager();
        builder.sslSocketFactory(TlsSettings.context(trustManager).getSocketFactory(), trustManager);
      }
      family.tls.compareAndSet(shard, null, builder.build());
      client = family.tls.get(shard);
    }
    return client;
  }

  /**
   * {@code client} (from {@link #client}) with an empty pool of its own that keeps nothing: its
   * call opens a new connection and closes it after the answer. For a request sent again because
   * the kept connection it had was stale, when its pool may hold more like it.
   */
  OkHttpClient unpooled(OkHttpClient client) {
    return unpooled.computeIfAbsent(client, pooled -> pooled.newBuilder()
        .connectionPool(new ConnectionPool(0, 1, TimeUnit.SECONDS)).build());
  }

  private synchronized X509TrustManager trustManager() {
    if (trust == null) {
      trust = tls.trustManager();
    }
    return trust;
  }

  /** Releases the dispatcher's threads (shared by all clients) and every pooled connection. */
  void close() {
    direct.plain[0].dispatcher().executorService().shutdown();
    direct.evictAll();
    proxied.values().forEach(Family::evictAll);
  }

  /** The clients of one route: a plain one per shard, each with its own pool, and TLS ones. */
  private static final class Family {
    final OkHttpClient[] plain;
    final AtomicReferenceArray<OkHttpClient> tls;
    /** What a TLS client changes in its shard's plain client's settings, besides TLS. */
    final UnaryOperator<OkHttpClient.Builder> toTls;

    Family(OkHttpClient client, int shards, int maxIdle, Duration idleTimeout,
        UnaryOperator<OkHttpClient.Builder> toTls) {
      this.toTls = toTls;
      plain = new OkHttpClient[shards];
      tls = new AtomicReferenceArray<>(shards);
      for (int i = 0; i < shards; i++) {
        plain[i] = client.newBuilder()
            .connectionPool(new ConnectionPool((maxIdle + shards - 1) / shards,
                idleTimeout.toMillis(), TimeUnit.MILLISECONDS))
            .build();
      }
    }

    void evictAll() {
      for (OkHttpClient client : plain) {
        client.connectionPool().evictAll();
      }
    }
  }
}
