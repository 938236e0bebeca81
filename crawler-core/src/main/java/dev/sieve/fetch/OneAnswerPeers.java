package dev.sieve.fetch;

import com.google.common.cache.Cache;
import com.google.common.cache.CacheBuilder;
import java.io.IOException;
import java.net.Proxy;
import java.net.Socket;
import java.time.Duration;
import java.util.Locale;
import okhttp3.Connection;
import okhttp3.HttpUrl;
import okhttp3.Interceptor;
import okhttp3.Protocol;
import okhttp3.Request;
import okhttp3.Response;
import okhttp3.ResponseBody;
import okhttp3.Route;
import okio.Buffer;
import okio.ForwardingSource;
import okio.Okio;
import okio.Source;

/**
 * A network interceptor that keeps connections only to peers that keep them: a peer (the server,
 * or for a plain-http URL the HTTP proxy) that answers HTTP/1.0 without {@code Connection:
 * keep-alive} closes the connection after the answer, and one that closed a connection at once
 * after its first answer (tinyproxy does, answering HTTP/1.1) closes after each. OkHttp keeps such
 * connections for reuse, and the next request sent on one fails. So the connection of such an
 * answer is closed once its body is read; and the peer is remembered, its later requests going
 * with {@code Connection: close}, after which OkHttp keeps no connection. Thread-safe.
 */
final class OneAnswerPeers implements Interceptor {
  /**
   * A peer that closed a connection this soon after the connection's first answer closes after
   * every answer: shorter than any keep-alive timeout servers are configured with (1 s and up).
   */
  static final Duration CLOSED_AT_ONCE = Duration.ofMillis(500);
  /** Peers remembered at most; the least recently learned go first. */
  private static final int MAX_PEERS = 100_000;

  private final Cache<String, Boolean> peers =
      CacheBuilder.newBuilder().maximumSize(MAX_PEERS).build();

  @Override
  public Response intercept(Chain chain) throws IOException {
    Connection connection = chain.connection();
    Request request = chain.request();
    if (connection == null || connection.protocol() != Protocol.HTTP_1_1) {
      return chain.proceed(request);
    }
    String peer = peer(connection.route());
    Capture capture = request.tag(Capture.class);
    if (capture != null) {
      capture.peer = peer;
    }
    if (peers.getIfPresent(peer) != null) {
      request = request.newBuilder().header("Connection", "close").build();
    }
    Response response = chain.proceed(request);
    if (!closesAfter(response) || says(request.header("Connection"), "close")) {
      return response;
    }
    peers.put(peer, Boolean.TRUE);
    return closedAfterBody(response, connection.socket());
  }

  /** Remembers {@code peer} (from {@link Capture#peer}) as closing after each answer. */
  void learn(String peer) {
    peers.put(peer, Boolean.TRUE);
  }

  /**
   * Who answers on a connection of {@code route}: the HTTP proxy for a plain-http URL sent to it;
   * else the server (over a CONNECT tunnel or SOCKS5 too), by scheme, host and port.
   */
  static String peer(Route route) {
    HttpUrl url = route.address().url();
    if (route.proxy().type() == Proxy.Type.HTTP && !url.isHttps()) {
      return "proxy " + route.proxy().address();
    }
    return url.scheme() + "://" + url.host() + ":" + url.port();
  }

  /** An HTTP/1.0 answer whose {@code Connection} field does not ask to keep the connection. */
  private static boolean closesAfter(Response response) {
    return response.protocol() == Protocol.HTTP_1_0
        && !says(response.header("Connection"), "keep-alive");
  }

  /** Whether a {@code Connection} field's comma-separated options include {@code option}. */
  private static boolean says(String field, String option) {
    if (field == null) {
      return false;
    }
    for (String token : field.split(",")) {
      if (token.trim().toLowerCase(Locale.ROOT).equals(option)) {
        return true;
      }
    }
    return false;
  }

  /**
   * {@code response} with a body that closes {@code socket} as soon as it is read to its end (or
   * closed), before OkHttp could hand the connection to another request; at once when there is
   * no body to read.
   */
  private static Response closedAfterBody(Response response, Socket socket) {
    ResponseBody body = response.body();
    long length = body.contentLength();
    if (length == 0 || response.code() == 304 || response.code() == 204) {
      closeQuietly(socket);
      return response;
    }
    Source source = new ForwardingSource(body.source()) {
      private long read;

      @Override
      public long read(Buffer sink, long byteCount) throws IOException {
        long n = super.read(sink, byteCount);
        if (n == -1 || (length > 0 && (read += n) >= length)) {
          closeQuietly(socket);
        }
        return n;
      }

      @Override
      public void close() throws IOException {
        try {
          super.close();
        } finally {
          closeQuietly(socket);
        }
      }
    };
    return response.newBuilder()
        .body(ResponseBody.create(Okio.buffer(source), body.contentType(), length)).build();
  }

  private static void closeQuietly(Socket socket) {
    try {
      socket.close();
    } catch (IOException e) {
      // closed already, or closing failed: either way it is not reused
    }
  }
}
