package dev.sieve.fetch;

import com.google.common.base.Ticker;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import okhttp3.Dns;

/**
 * Keeps each host's answer from {@code delegate} for {@code ttl}, so a host fetched every second
 * is looked up once a TTL, not once a fetch. Failures are not kept: the next fetch asks again.
 * Holds at most {@code maxHosts} answers (past it, the expired go, then all). Thread-safe.
 */
final class DnsCache implements Dns {
  private final Dns delegate;
  private final long ttlNanos;
  private final int maxHosts;
  private final Ticker ticker;
  private final ConcurrentHashMap<String, Answer> answers = new ConcurrentHashMap<>();

  private record Answer(List<InetAddress> addresses, long expiresAt) {}

  DnsCache(Dns delegate, long ttlNanos, int maxHosts, Ticker ticker) {
    this.delegate = delegate;
    this.ttlNanos = ttlNanos;
    this.maxHosts = maxHosts;
    this.ticker = ticker;
  }

  @Override
  public List<InetAddress> lookup(String host) throws UnknownHostException {
    long now = ticker.read();
    Answer answer = answers.get(host);
    if (answer != null && now - answer.expiresAt < 0) {
      return answer.addresses;
    }
    List<InetAddress> addresses = List.copyOf(delegate.lookup(host));
    if (answers.size() >= maxHosts) {
      answers.values().removeIf(a -> now - a.expiresAt >= 0);
      if (answers.size() >= maxHosts) {
        answers.clear();
      }
    }
    answers.put(host, new Answer(addresses, now + ttlNanos));
    return addresses;
  }

  /** Hosts whose answer is kept (expired or not). */
  int size() {
    return answers.size();
  }
}
