package dev.sieve.fetch;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import okhttp3.Connection;
import okhttp3.Handshake;
import okhttp3.Headers;
import okhttp3.HttpUrl;
import okhttp3.Interceptor;
import okhttp3.Protocol;
import okhttp3.Request;
import okhttp3.Response;
import okhttp3.TlsVersion;

/**
 * What a network interceptor saw of one call: the request head as sent, the response head as
 * received, the connection's remote address (unless through a proxy: then the server's is not
 * known), its protocol and TLS version and cipher suite. Travels with the request as its tag;
 * written and read on the thread running the call.
 *
 * <p>An HTTP/2 exchange is written in HTTP/1.1 syntax, its status line {@code HTTP/1.1 200}
 * (HTTP/2 has no text form, and WARC readers and replay tools parse HTTP/1.x heads: the WARC
 * HTTP/2 proposals and Nutch and StormCrawler write it so); {@link #protocol()} says what it was,
 * for the record's {@code WARC-Protocol}. A proxy's credentials are never part of the head.
 */
final class Capture {
  /** Fills in the {@link Capture} tagged on each request; innermost, next to the network. */
  static final Interceptor INTERCEPTOR = chain -> {
    Capture capture = chain.request().tag(Capture.class);
    if (capture == null) {
      return chain.proceed(chain.request());
    }
    Connection connection = chain.connection();
    Protocol protocol = connection == null ? Protocol.HTTP_1_1 : connection.protocol();
    capture.protocol = protocol;
    capture.requestHead = requestHead(chain.request(), protocol);
    if (connection != null) {
      InetSocketAddress remote = connection.route().socketAddress();
      capture.ip = capture.proxy != null || remote.getAddress() == null
          ? null : remote.getAddress().getHostAddress();
      Handshake handshake = connection.handshake();
      if (handshake != null) {
        capture.tlsVersion = handshake.tlsVersion();
        capture.cipherSuite = handshake.cipherSuite().javaName();
      }
    }
    Response response = chain.proceed(chain.request());
    capture.protocol = response.protocol(); // an HTTP/1.0 answer on an HTTP/1.1 connection
    capture.responseHead = responseHead(response);
    return response;
  };

  /** Headers whose values are secrets: never written to a record. */
  private static final java.util.Set<String> SECRETS =
      java.util.Set.of("cookie", "set-cookie", "authorization", "proxy-authorization");
  /** What a record holds in place of a secret header's value. */
  static final String WITHHELD = "(withheld)";

  private String ip;
  private Protocol protocol = Protocol.HTTP_1_1;
  private TlsVersion tlsVersion;
  private String cipherSuite;
  /** The proxy the call goes through, or null: set before the call. */
  volatile ProxyServer proxy;
  /** Whether the call opened its connection rather than reusing a pooled one. */
  volatile boolean newConnection;
  /** How long the reused connection had been idle; 0 for a new one. */
  volatile long idleNanos;
  /** How many exchanges the reused connection had carried before this one; 0 for a new one. */
  volatile int earlierExchanges;
  /** Who answers on the call's HTTP/1.1 connection ({@link OneAnswerPeers#peer}), or null. */
  volatile String peer;
  /**
   * Whether the call failed on a reused connection before any byte of an answer: the peer had
   * closed it (while idle, or right after its last answer, without saying so).
   */
  boolean stale;
  private byte[] requestHead;
  private byte[] responseHead;

  String ip() {
    return ip;
  }

  /** The HTTP protocol the exchange used. */
  Protocol protocol() {
    return protocol;
  }

  /** The TLS version, or null without TLS. */
  TlsVersion tlsVersion() {
    return tlsVersion;
  }

  /** The cipher suite's IANA name (as Java names it), or null without TLS. */
  String cipherSuite() {
    return cipherSuite;
  }

  /** {@link Exchange#protocols()}: the HTTP protocol, then the TLS version where TLS. */
  List<String> protocols() {
    String http = switch (protocol) {
      case HTTP_2, H2_PRIOR_KNOWLEDGE -> "h2";
      case HTTP_1_0 -> "http/1.0";
      default -> "http/1.1";
    };
    if (tlsVersion == null) {
      return List.of(http);
    }
    String tls = switch (tlsVersion) {
      case TLS_1_3 -> "tls/1.3";
      case TLS_1_2 -> "tls/1.2";
      case TLS_1_1 -> "tls/1.1";
      case TLS_1_0 -> "tls/1.0";
      case SSL_3_0 -> "ssl/3";
    };
    return List.of(http, tls);
  }

  /** The request head, or null when the request was never sent. */
  byte[] requestHead() {
    return requestHead;
  }

  /** The response head, or null when no response arrived. */
  byte[] responseHead() {
    return responseHead;
  }

  /**
   * The request in HTTP/1.1 syntax (an HTTP/2 exchange too, as WARC wants it): origin-form
   * target, headers in the order sent.
   */
  private static byte[] requestHead(Request request, Protocol protocol) {
    HttpUrl url = request.url();
    StringBuilder head = new StringBuilder(256)
        .append(request.method()).append(' ').append(url.encodedPath());
    if (url.encodedQuery() != null) {
      head.append('?').append(url.encodedQuery());
    }
    head.append(' ').append(version(protocol)).append("\r\n");
    Headers headers = request.headers();
    if (headers.get("Host") == null) {
      head.append("Host: ").append(hostHeader(url)).append("\r\n");
    }
    return headersAndEnd(head, headers);
  }

  private static byte[] responseHead(Response response) {
    StringBuilder head = new StringBuilder(256)
        .append(version(response.protocol())).append(' ').append(response.code());
    if (!response.message().isEmpty()) {
      head.append(' ').append(response.message());
    }
    head.append("\r\n");
    return headersAndEnd(head, response.headers());
  }

  private static byte[] headersAndEnd(StringBuilder head, Headers headers) {
    for (int i = 0; i < headers.size(); i++) {
      String name = headers.name(i);
      if (name.equalsIgnoreCase(Clients.PROXY_AUTHORIZATION)) {
        continue; // the proxy's credentials: for the proxy, never for the archive
      }
      head.append(name).append(": ")
          .append(SECRETS.contains(name.toLowerCase(java.util.Locale.ROOT)) ? WITHHELD : headers.value(i))
          .append("\r\n");
    }
    return head.append("\r\n").toString().getBytes(StandardCharsets.ISO_8859_1);
  }

  private static String version(Protocol protocol) {
    return protocol == Protocol.HTTP_1_0 ? "HTTP/1.0" : "HTTP/1.1";
  }

  private static String hostHeader(HttpUrl url) {
    String host = url.host().indexOf(':') >= 0 ? "[" + url.host() + "]" : url.host();
    return url.port() == HttpUrl.defaultPort(url.scheme()) ? host : host + ":" + url.port();
  }
}
