package dev.sieve.testing;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A generated web site served on 127.0.0.1 by the JDK's HTTP server, with the link graph known in
 * advance so tests can compute exactly what a crawl should fetch.
 *
 * <p>Page {@code /p/i.html} links to the next page (absolute), to a page further on (relative,
 * with {@code ../}), back to page {@code i/2} with a fragment (cycles), the next page again
 * (duplicate), {@code mailto:} and {@code javascript:} junk, and to page 0 on another host
 * ({@code localhost}: same server, another origin). Every 10th page links into a redirect chain
 * {@code /r/1 → /r/2 → /r/3 → /p/target.html}; every 25th links to a missing page (404). Pages
 * {@code ≥ pages} exist but nothing links to them. The server counts requests per path and keeps
 * a log of request arrival times per host.
 */
public final class TestSite implements AutoCloseable {
  public static final int REDIRECT_HOPS = 3;

  private final int pages;
  private final HttpServer server;
  private final ExecutorService executor = Executors.newFixedThreadPool(8);
  private final Map<String, AtomicInteger> requests = new ConcurrentHashMap<>();
  private final List<Request> log = Collections.synchronizedList(new ArrayList<>());

  /** One request the server saw. */
  public record Request(String host, String path, long nanoTime) {}

  private TestSite(int pages) throws IOException {
    // Without it the JDK server's header and body writes wait on delayed ACKs: ~40 ms a page.
    System.setProperty("sun.net.httpserver.nodelay", "true");
    this.pages = pages;
    this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
    server.setExecutor(executor);
    server.createContext("/", this::handle);
    server.start();
  }

  /** Starts a site of {@code pages} linked pages on a free loopback port. */
  public static TestSite start(int pages) throws IOException {
    return new TestSite(pages);
  }

  public int port() {
    return server.getAddress().getPort();
  }

  /** The URL of {@code path} on the site's main origin, {@code http://127.0.0.1:port}. */
  public String url(String path) {
    return "http://127.0.0.1:" + port() + path;
  }

  /** The number of requests for {@code path} on any host. */
  public int requests(String path) {
    AtomicInteger count = requests.get(path);
    return count == null ? 0 : count.get();
  }

  /** Every path requested, with how many times. */
  public Map<String, Integer> requestCounts() {
    Map<String, Integer> counts = new HashMap<>();
    requests.forEach((path, count) -> counts.put(path, count.get()));
    return counts;
  }

  /** Every request, in arrival order. */
  public List<Request> log() {
    synchronized (log) {
      return List.copyOf(log);
    }
  }

  /**
   * The paths on the main origin a crawl from page 0 should fetch, following links up to {@code
   * maxDepth} (redirect targets keep the depth of the redirect), within the main origin only.
   */
  public Set<String> reachablePaths(int maxDepth) {
    Set<String> seen = new HashSet<>();
    Queue<String> queue = new ArrayDeque<>();
    Map<String, Integer> depth = new HashMap<>();
    seen.add("/p/0.html");
    depth.put("/p/0.html", 0);
    queue.add("/p/0.html");
    while (!queue.isEmpty()) {
      String path = queue.poll();
      int d = depth.get(path);
      for (Link link : linksOf(path)) {
        int next = link.redirect ? d : d + 1;
        if (next <= maxDepth && seen.add(link.path)) {
          depth.put(link.path, next);
          queue.add(link.path);
        }
      }
    }
    return seen;
  }

  private record Link(String path, boolean redirect) {}

  /** The same-origin links of a path, as a crawler should discover them. */
  private List<Link> linksOf(String path) {
    List<Link> links = new ArrayList<>();
    if (path.startsWith("/r/")) {
      int hop = Integer.parseInt(path.substring(3));
      links.add(new Link(hop < REDIRECT_HOPS ? "/r/" + (hop + 1) : "/p/" + redirectTarget() + ".html", true));
      return links;
    }
    int i = pageIndex(path);
    if (i < 0) {
      return links;
    }
    links.add(new Link(page(next(i)), false));
    links.add(new Link(page(further(i)), false));
    links.add(new Link(page(i / 2), false));
    if (i % 10 == 0) {
      links.add(new Link("/r/1", false));
    }
    if (i % 25 == 0) {
      links.add(new Link("/missing/" + i + ".html", false));
    }
    return links;
  }

  private int next(int i) {
    return (i + 1) % pages;
  }

  private int further(int i) {
    return (int) ((i * 7L + 3) % pages);
  }

  private int redirectTarget() {
    return pages - 1;
  }

  private static String page(int i) {
    return "/p/" + i + ".html";
  }

  private int pageIndex(String path) {
    if (!path.startsWith("/p/") || !path.endsWith(".html")) {
      return -1;
    }
    try {
      int i = Integer.parseInt(path.substring(3, path.length() - 5));
      return i >= 0 && i < pages * 2 ? i : -1;
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  private void handle(HttpExchange exchange) throws IOException {
    String path = exchange.getRequestURI().getRawPath();
    String host = exchange.getRequestHeaders().getFirst("Host");
    log.add(new Request(host == null ? "" : host.replaceFirst(":\\d+$", ""), path, System.nanoTime()));
    requests.computeIfAbsent(path, p -> new AtomicInteger()).incrementAndGet();
    try (exchange) {
      if (path.equals("/robots.txt")) {
        respond(exchange, 404, "text/plain", "");
      } else if (path.startsWith("/r/")) {
        int hop = Integer.parseInt(path.substring(3));
        String location = hop < REDIRECT_HOPS ? "/r/" + (hop + 1) : page(redirectTarget());
        exchange.getResponseHeaders().set("Location", location);
        exchange.sendResponseHeaders(301, -1);
      } else if (pageIndex(path) >= 0) {
        respond(exchange, 200, "text/html; charset=utf-8", html(pageIndex(path)));
      } else {
        respond(exchange, 404, "text/html", "<html><body>not found</body></html>");
      }
    }
  }

  private String html(int i) {
    StringBuilder body = new StringBuilder("<!doctype html><html><head><title>Page ")
        .append(i).append("</title></head><body>\n")
        .append("<a href=\"http://127.0.0.1:").append(port()).append(page(next(i))).append("\">next</a>\n")
        .append("<a href=\"../p/").append(further(i)).append(".html\">further</a>\n")
        .append("<a href=\"").append(i / 2).append(".html#top\">back</a>\n")
        .append("<a href=\"").append(page(next(i))).append("\">next again</a>\n")
        .append("<a href=\"mailto:owner@example.com\">mail</a> <a href=\"javascript:void(0)\">js</a>\n")
        .append("<a href=\"http://localhost:").append(port()).append("/p/0.html\">other host</a>\n");
    if (i % 10 == 0) {
      body.append("<a href=\"/r/1\">moved</a>\n");
    }
    if (i % 25 == 0) {
      body.append("<a href=\"/missing/").append(i).append(".html\">gone</a>\n");
    }
    return body.append("</body></html>\n").toString();
  }

  private static void respond(HttpExchange exchange, int status, String type, String body)
      throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", type);
    exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
    if (bytes.length > 0) {
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(bytes);
      }
    }
  }

  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }
}
