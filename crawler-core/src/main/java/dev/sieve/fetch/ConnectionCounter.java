package dev.sieve.fetch;

import com.google.common.base.Ticker;
import com.google.common.cache.Cache;
import com.google.common.cache.CacheBuilder;
import java.net.InetSocketAddress;
import java.net.Proxy;
import java.util.concurrent.atomic.LongAdder;
import okhttp3.Call;
import okhttp3.Connection;
import okhttp3.EventListener;
import okhttp3.Protocol;

/**
 * Counts the connections a client opens, the requests that found one open, and the requests sent
 * again because the one they found was stale: every call's acquired connection is either new (a
 * TCP connect that ended well) or reused; tells each call's {@link Capture} whether it opened one,
 * or how long the one it reused had been idle and how many exchanges it had carried. One listener
 * for all calls; thread-safe.
 */
final class ConnectionCounter extends EventListener {
  private final LongAdder opened = new LongAdder();
  private final LongAdder acquired = new LongAdder();
  private final LongAdder stale = new LongAdder();
  /** Each pooled connection's last release and exchanges so far; forgotten with the connection. */
  private final Cache<Connection, Kept> kept = CacheBuilder.newBuilder().weakKeys().build();
  private final Ticker ticker;

  ConnectionCounter(Ticker ticker) {
    this.ticker = ticker;
  }

  @Override
  public void connectStart(Call call, InetSocketAddress address, Proxy proxy) {
    Capture capture = call.request().tag(Capture.class);
    if (capture != null) {
      capture.newConnection = true;
    }
  }

  @Override
  public void connectEnd(Call call, InetSocketAddress address, Proxy proxy, Protocol protocol) {
    opened.increment();
  }

  @Override
  public void connectionAcquired(Call call, Connection connection) {
    acquired.increment();
    Kept released = kept.getIfPresent(connection);
    Capture capture = call.request().tag(Capture.class);
    if (capture != null && released != null) {
      capture.idleNanos = ticker.read() - released.at;
      capture.earlierExchanges = released.exchanges;
    }
  }

  @Override
  public void connectionReleased(Call call, Connection connection) {
    long now = ticker.read();
    kept.asMap().merge(connection, new Kept(now, 1),
        (before, one) -> new Kept(now, before.exchanges + 1));
  }

  /** Notes a request sent again on a new connection because the kept one it was sent on was stale. */
  void countStale() {
    stale.increment();
  }

  /** Connections opened (TCP, and TLS where the URL is https). */
  long opened() {
    return opened.sum();
  }

  /** Requests sent on a connection opened for an earlier one. */
  long reused() {
    return Math.max(0, acquired.sum() - opened.sum());
  }

  /** Requests sent again, on a new connection, after failing unanswered on a kept one. */
  long stale() {
    return stale.sum();
  }

  /** When a kept connection was last given back, and the exchanges it has carried. */
  private record Kept(long at, int exchanges) {}
}
