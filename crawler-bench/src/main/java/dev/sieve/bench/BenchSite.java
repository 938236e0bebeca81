package dev.sieve.bench;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A generated static site for the crawl benchmark, served from memory on 127.0.0.1 by the JDK's
 * HTTP server: {@code /p/i.html} for {@code i < pages}, each about {@code pageBytes} of HTML with
 * {@code links} links (to the next page, so every page is reachable from page 0, and to random
 * others). Run in its own process so the crawler's profile is its own:
 * {@code java -cp crawler.jar dev.sieve.bench.BenchSite PAGES PORT}; it prints {@code ready PORT}.
 */
final class BenchSite implements AutoCloseable {
  private final byte[][] pages;
  private final HttpServer server;
  private final ExecutorService executor = Executors.newFixedThreadPool(16);

  BenchSite(int pageCount, int pageBytes, int links, int port) throws IOException {
    pages = new byte[pageCount][];
    Random random = new Random(42);
    for (int i = 0; i < pageCount; i++) {
      pages[i] = page(i, pageCount, pageBytes, links, random);
    }
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 256);
    server.setExecutor(executor);
    server.createContext("/", this::handle);
    server.start();
  }

  int port() {
    return server.getAddress().getPort();
  }

  private static byte[] page(int i, int count, int bytes, int links, Random random) {
    StringBuilder html = new StringBuilder(bytes + 4096)
        .append("<!doctype html><html><head><meta charset=\"utf-8\"><title>Page ").append(i)
        .append("</title></head><body><h1>Page ").append(i).append("</h1>\n<nav>")
        .append("<a href=\"/p/").append((i + 1) % count).append(".html\">next</a>\n");
    for (int l = 1; l < links; l++) {
      html.append("<a href=\"/p/").append(random.nextInt(count)).append(".html\">article ")
          .append(l).append("</a>\n");
    }
    html.append("</nav>\n");
    while (html.length() < bytes) {
      html.append("<p>Sieve crawls politely and remembers every URL it has seen in a few bits. ")
          .append("This paragraph is filler so that the page weighs what a real article does.</p>\n");
    }
    return html.append("</body></html>\n").toString().getBytes(StandardCharsets.UTF_8);
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      String path = exchange.getRequestURI().getPath();
      int page = -1;
      if (path.startsWith("/p/") && path.endsWith(".html")) {
        try {
          page = Integer.parseInt(path.substring(3, path.length() - 5));
        } catch (NumberFormatException e) {
          page = -1;
        }
      }
      if (page < 0 || page >= pages.length) {
        exchange.sendResponseHeaders(404, -1);
        return;
      }
      exchange.getResponseHeaders().set("Content-Type", "text/html; charset=utf-8");
      exchange.sendResponseHeaders(200, pages[page].length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(pages[page]);
      }
    }
  }

  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }

  /** Serves until killed: {@code BenchSite PAGES PORT [PAGE_BYTES] [LINKS]}. */
  public static void main(String[] args) throws Exception {
    // Without it the JDK server's header and body writes wait on delayed ACKs: ~40 ms a page.
    System.setProperty("sun.net.httpserver.nodelay", "true");
    int pages = Integer.parseInt(args[0]);
    int port = Integer.parseInt(args[1]);
    int bytes = args.length > 2 ? Integer.parseInt(args[2]) : 40_000;
    int links = args.length > 3 ? Integer.parseInt(args[3]) : 50;
    BenchSite site = new BenchSite(pages, bytes, links, port);
    System.out.println("ready " + site.port());
    System.out.flush();
    Thread.currentThread().join();
  }
}
