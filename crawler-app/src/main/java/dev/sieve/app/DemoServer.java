package dev.sieve.app;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.LongAdder;

/**
 * Serves a {@link DemoSite} over HTTP on free ports of 127.0.0.1, one per host, with the JDK's
 * server (16 threads), and counts every request by address. Thread-safe.
 */
final class DemoServer implements AutoCloseable {
  private final DemoSite site;
  private final List<HttpServer> servers = new ArrayList<>();
  private final ExecutorService executor = Executors.newFixedThreadPool(16, runnable -> {
    Thread thread = new Thread(runnable, "demo-site");
    thread.setDaemon(true);
    return thread;
  });
  private final Map<String, LongAdder> requests = new ConcurrentHashMap<>();

  private DemoServer(DemoSite site) {
    this.site = site;
  }

  /** Starts serving {@code site}, one server per host. */
  static DemoServer start(DemoSite site) throws IOException {
    // Without it the JDK server's header and body writes wait on delayed ACKs: ~40 ms a page.
    System.setProperty("sun.net.httpserver.nodelay", "true");
    DemoServer server = new DemoServer(site);
    try {
      for (int host = 0; host < DemoSite.HOSTS; host++) {
        HttpServer http = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 256);
        int index = host;
        http.createContext("/", exchange -> server.handle(index, exchange));
        http.setExecutor(server.executor);
        http.start();
        server.servers.add(http);
      }
    } catch (IOException e) {
      server.close();
      throw e;
    }
    return server;
  }

  /** The origin of {@code host}, e.g. {@code http://127.0.0.1:40123}. */
  String origin(int host) {
    return "http://127.0.0.1:" + servers.get(host).getAddress().getPort();
  }

  private void handle(int host, HttpExchange exchange) throws IOException {
    try (exchange) {
      String path = exchange.getRequestURI().getRawPath();
      String query = exchange.getRequestURI().getRawQuery();
      if (query != null) {
        path += "?" + query;
      }
      requests.computeIfAbsent(DemoSite.key(host, path), k -> new LongAdder()).increment();
      if (path.equals("/robots.txt")) {
        send(exchange, 200, "text/plain; charset=utf-8", DemoSite.ROBOTS);
        return;
      }
      DemoSite.Answer answer = site.answer(host, path);
      if (answer.isRedirect()) {
        exchange.getResponseHeaders().set("Location", href(answer.links().get(0), path));
        exchange.sendResponseHeaders(answer.status(), -1);
        return;
      }
      send(exchange, answer.status(), "text/html; charset=utf-8", html(path, answer));
    }
  }

  private String html(String path, DemoSite.Answer answer) {
    StringBuilder html = new StringBuilder(2048)
        .append("<!doctype html><html><head><meta charset=\"utf-8\"><title>")
        .append(answer.status() == 200 ? path : "Not found").append("</title></head><body>\n<nav>\n");
    for (DemoSite.Link link : answer.links()) {
      html.append("<a href=\"").append(href(link, path)).append("\">").append(link.path()).append("</a>\n");
    }
    html.append("</nav>\n");
    if (path.startsWith("/articles/") && answer.status() == 200) {
      html.append("<p>Sieve remembers every URL it has seen in a few bits, so each page is fetched")
          .append(" once however many pages link to it. This paragraph is the article.</p>\n");
    }
    return html.append("</body></html>\n").toString();
  }

  /** The href of {@code link} on the page at {@code from}. */
  private String href(DemoSite.Link link, String from) {
    if (link.host() < 0) {
      return DemoSite.OFF_SITE + link.path();
    }
    if (link.form() == DemoSite.Form.ABSOLUTE) {
      return origin(link.host()) + link.path();
    }
    String directory = from.substring(0, from.lastIndexOf('/') + 1);
    if (link.form() == DemoSite.Form.ROOT) {
      return link.path();
    }
    if (link.path().startsWith(directory)) {
      return link.path().substring(directory.length());
    }
    return directory.chars().filter(c -> c == '/').count() == 2 ? ".." + link.path() : link.path();
  }

  private static void send(HttpExchange exchange, int status, String type, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", type);
    exchange.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }

  /** Requests the servers answered, robots.txt included. */
  long requests() {
    return requests.values().stream().mapToLong(LongAdder::sum).sum();
  }

  /** Requests for pages robots.txt disallows. */
  long disallowedRequests() {
    return requests.entrySet().stream().filter(e -> DemoSite.disallowed(e.getKey().substring(1)))
        .mapToLong(e -> e.getValue().sum()).sum();
  }

  /** Addresses requested more than once. */
  long repeatedRequests() {
    return requests.values().stream().filter(count -> count.sum() > 1).count();
  }

  @Override
  public void close() {
    servers.forEach(server -> server.stop(0));
    executor.shutdownNow();
  }
}
