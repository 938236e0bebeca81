package dev.sieve.crawl;

import dev.sieve.fetch.FetchError;
import dev.sieve.fetch.FetchResult;
import dev.sieve.fetch.ProxyServer;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * Watches the fetches that go through a proxy: a proxy that fails ({@code proxy-unreachable},
 * {@code proxy-auth-required}) for {@code limit} fetches in a row, or on the first fetch through it
 * before any has got through, is dead: every other fetch would fail the same way, so the crawl
 * stops with one line saying so instead of recording every host as unreachable. Thread-safe.
 */
final class ProxyHealth {
  private final int limit;
  private final Consumer<String> onDead;
  private final AtomicInteger inARow = new AtomicInteger();
  private final AtomicBoolean dead = new AtomicBoolean();
  private volatile boolean through;

  /** Calls {@code onDead} once, with the one-line reason, when a proxy is found dead. */
  ProxyHealth(int limit, Consumer<String> onDead) {
    this.limit = limit;
    this.onDead = onDead;
  }

  /** Notes the outcome of a fetch that went through {@code proxy}; returns it unchanged. */
  FetchResult observe(ProxyServer proxy, FetchResult result) {
    FetchError error = result.error();
    if (error != FetchError.PROXY_UNREACHABLE && error != FetchError.PROXY_AUTH) {
      inARow.set(0);
      through = true;
      return result;
    }
    int failures = inARow.incrementAndGet();
    if ((failures >= limit || !through) && dead.compareAndSet(false, true)) {
      String what = error == FetchError.PROXY_AUTH
          ? "wants credentials it was not given or refused them"
          : "is unreachable";
      onDead.accept("Proxy " + proxy + " " + what + " (" + result.errorMessage() + "; "
          + failures + " fetch(es) in a row" + (through ? "" : ", none through it yet")
          + "): stopping the crawl");
    }
    return result;
  }
}
