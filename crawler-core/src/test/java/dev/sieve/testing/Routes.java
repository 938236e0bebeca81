package dev.sieve.testing;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.RecordedRequest;

/**
 * A mockwebserver3 dispatcher serving responses by path (404 for the rest) that logs every
 * request with the host it was sent to and its arrival time.
 */
public final class Routes extends Dispatcher {
  private final Map<String, Supplier<MockResponse>> responses = new ConcurrentHashMap<>();
  private final Map<String, AtomicInteger> hits = new ConcurrentHashMap<>();
  private final List<TestSite.Request> log = Collections.synchronizedList(new ArrayList<>());

  /** Serves {@code response} (called per request) for {@code path}. */
  public Routes on(String path, Supplier<MockResponse> response) {
    responses.put(path, response);
    return this;
  }

  /** Serves an HTML page. */
  public Routes html(String path, String html) {
    return on(path, () -> new MockResponse.Builder().code(200)
        .setHeader("Content-Type", "text/html; charset=utf-8").body(html).build());
  }

  /** Serves a redirect. */
  public Routes redirect(String path, String location) {
    return on(path, () -> new MockResponse.Builder().code(301).setHeader("Location", location).build());
  }

  /** Requests seen for {@code path}, on any host. */
  public int hits(String path) {
    AtomicInteger n = hits.get(path);
    return n == null ? 0 : n.get();
  }

  /** Every request, in arrival order. */
  public List<TestSite.Request> log() {
    synchronized (log) {
      return List.copyOf(log);
    }
  }

  @Override
  public MockResponse dispatch(RecordedRequest request) {
    String path = request.getUrl().encodedPath();
    log.add(new TestSite.Request(request.getUrl().host(), path, System.nanoTime()));
    hits.computeIfAbsent(path, p -> new AtomicInteger()).incrementAndGet();
    Supplier<MockResponse> response = responses.get(path);
    return response != null ? response.get() : new MockResponse.Builder().code(404).build();
  }
}
