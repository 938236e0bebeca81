package dev.sieve.bench;

import dev.sieve.loopback.LoopbackNginx;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * A {@link LoopbackNginx} serving a directory on a free 127.0.0.1 port. Every request is logged;
 * {@link #requestsSinceLastCall()} returns those since the previous call.
 */
final class NginxServer implements AutoCloseable {
  /** One line of the access log: {@code bytesSent} counts the response's head and body. */
  record Request(int status, String contentType, String uri, String requestUri, long bytesSent) {
    boolean isHtmlPage() {
      return status == 200 && contentType.startsWith("text/html");
    }
  }

  private static final List<String> LOG_FIELDS = List.of(
      "$status", "$sent_http_content_type", "$uri", "$request_uri", "$bytes_sent");

  private final LoopbackNginx nginx;
  private final int port;

  private NginxServer(LoopbackNginx nginx, int port) {
    this.nginx = nginx;
    this.port = port;
  }

  /**
   * Starts {@code nginx} serving {@code root} and waits until it accepts connections.
   *
   * @throws IOException if it cannot start or exits first (with its error log's last line)
   */
  static NginxServer start(Path nginx, Path root) throws IOException, InterruptedException {
    int port = LoopbackNginx.freePort();
    String server = "server { listen 127.0.0.1:" + port + "; root " + root.toAbsolutePath()
        + "; index index.html; }";
    return new NginxServer(
        LoopbackNginx.start(nginx, List.of(server), LOG_FIELDS, List.of(port)), port);
  }

  /** The server's URL with no trailing slash: {@code http://127.0.0.1:PORT}. */
  String base() {
    return "http://127.0.0.1:" + port;
  }

  long pid() {
    return nginx.pid();
  }

  /** The requests logged since the previous call; see {@link LoopbackNginx#logSinceLastCall}. */
  List<Request> requestsSinceLastCall() throws IOException, InterruptedException {
    List<Request> requests = new ArrayList<>();
    for (String[] fields : nginx.logSinceLastCall()) {
      if (fields.length == LOG_FIELDS.size()) {
        requests.add(new Request(Integer.parseInt(fields[0]), fields[1], fields[2], fields[3],
            Long.parseLong(fields[4])));
      }
    }
    return requests;
  }

  @Override
  public void close() throws IOException, InterruptedException {
    nginx.close();
  }

  /** Deletes {@code root} and everything under it. */
  static void deleteTree(Path root) throws IOException {
    if (!Files.exists(root)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path path : (Iterable<Path>) paths.sorted(Comparator.reverseOrder())::iterator) {
        Files.delete(path);
      }
    }
  }
}
