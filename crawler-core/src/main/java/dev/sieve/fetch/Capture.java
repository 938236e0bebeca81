package dev.sieve.fetch;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import okhttp3.Connection;
import okhttp3.Headers;
import okhttp3.HttpUrl;
import okhttp3.Interceptor;
import okhttp3.Protocol;
import okhttp3.Request;
import okhttp3.Response;

/**
 * What a network interceptor saw of one call: the request head as sent, the response head as
 * received and the connection's remote address. Travels with the request as its tag; written and
 * read on the thread running the call.
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
    capture.requestHead = requestHead(chain.request(), protocol);
    if (connection != null) {
      InetSocketAddress remote = connection.route().socketAddress();
      capture.ip = remote.getAddress() == null ? null : remote.getAddress().getHostAddress();
    }
    Response response = chain.proceed(chain.request());
    capture.responseHead = responseHead(response);
    return response;
  };

  /** Headers whose values are secrets: never written to a record. */
  private static final java.util.Set<String> SECRETS =
      java.util.Set.of("cookie", "set-cookie", "authorization", "proxy-authorization");
  /** What a record holds in place of a secret header's value. */
  static final String WITHHELD = "(withheld)";

  private String ip;
  /** Whether the call opened its connection rather than reusing a pooled one. */
  volatile boolean newConnection;
  /** How long the reused connection had been idle; 0 for a new one. */
  volatile long idleNanos;
  /**
   * Whether the call failed on a connection reused after an idle time before any answer: the
   * server most likely closed it while idle.
   */
  boolean stale;
  private byte[] requestHead;
  private byte[] responseHead;

  String ip() {
    return ip;
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
