package dev.sieve.app.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * An nginx serving a directory on a free 127.0.0.1 port, started without root: its config, pid,
 * logs and temp files live in a temporary directory that closing it stops and deletes. Every
 * request is logged; {@link #requestsSinceLastCall()} returns those since the previous call.
 */
final class NginxServer implements AutoCloseable {
  /** One line of the access log: {@code bytesSent} counts the response's head and body. */
  record Request(int status, String contentType, String uri, String requestUri, long bytesSent) {
    boolean isHtmlPage() {
      return status == 200 && contentType.startsWith("text/html");
    }
  }

  private static final String MARK = "/.sieve-bench-mark-";

  private final Process process;
  private final Path dir;
  private final int port;
  private final Path accessLog;
  private long logOffset;
  private int marks;

  private NginxServer(Process process, Path dir, int port) {
    this.process = process;
    this.dir = dir;
    this.port = port;
    this.accessLog = dir.resolve("access.log");
  }

  /**
   * Starts {@code nginx} serving {@code root} and waits until it accepts connections.
   *
   * @throws IOException if it cannot start or exits first (with its error log's last line)
   */
  static NginxServer start(Path nginx, Path root) throws IOException, InterruptedException {
    Path dir = Files.createTempDirectory("sieve-bench-nginx");
    int port = freePort();
    Files.writeString(dir.resolve("nginx.conf"), config(dir, root.toAbsolutePath(), port));
    Process process = new ProcessBuilder(nginx.toString(), "-c", dir.resolve("nginx.conf").toString(),
            "-p", dir.toString())
        .redirectErrorStream(true)
        .redirectOutput(dir.resolve("stdout.log").toFile())
        .start();
    NginxServer server = new NginxServer(process, dir, port);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (!server.accepts()) {
      if (!process.isAlive() || System.nanoTime() > deadline) {
        String why = server.lastErrorLine();
        server.close();
        throw new IOException("nginx did not start on 127.0.0.1:" + port + ": " + why);
      }
      Thread.sleep(20); // polling a child process's port: nothing to await on
    }
    server.requestsSinceLastCall();
    return server;
  }

  private static String config(Path dir, Path root, int port) {
    String tmp = dir.resolve("tmp").toString();
    return String.join("\n",
        "daemon off;",
        "master_process off;",
        "worker_processes 1;",
        "pid " + dir.resolve("nginx.pid") + ";",
        "error_log " + dir.resolve("error.log") + " warn;",
        "events { worker_connections 256; }",
        "http {",
        "  include /etc/nginx/mime.types;",
        "  default_type application/octet-stream;",
        "  client_body_temp_path " + tmp + "-body;",
        "  proxy_temp_path " + tmp + "-proxy;",
        "  fastcgi_temp_path " + tmp + "-fastcgi;",
        "  uwsgi_temp_path " + tmp + "-uwsgi;",
        "  scgi_temp_path " + tmp + "-scgi;",
        "  log_format bench '$status\\t$sent_http_content_type\\t$uri\\t$request_uri\\t$bytes_sent';",
        "  access_log " + dir.resolve("access.log") + " bench;",
        "  server {",
        "    listen 127.0.0.1:" + port + ";",
        "    root " + root + ";",
        "    index index.html;",
        "  }",
        "}",
        "");
  }

  /** The server's URL with no trailing slash: {@code http://127.0.0.1:PORT}. */
  String base() {
    return "http://127.0.0.1:" + port;
  }

  long pid() {
    return process.pid();
  }

  /**
   * The requests logged since the previous call. nginx writes a request's line after sending its
   * response, so this first sends a marker request of its own and reads up to its line: every
   * request answered before then is in the list.
   */
  List<Request> requestsSinceLastCall() throws IOException, InterruptedException {
    String mark = MARK + (++marks);
    try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
      OutputStream out = socket.getOutputStream();
      out.write(("GET " + mark + " HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
      out.flush();
      InputStream in = socket.getInputStream();
      in.transferTo(OutputStream.nullOutputStream());
    }
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (true) {
      byte[] all = Files.readAllBytes(accessLog);
      String text = new String(all, (int) logOffset, all.length - (int) logOffset, StandardCharsets.UTF_8);
      int at = text.indexOf("\t" + mark + "\t");
      if (at >= 0) {
        int end = text.indexOf('\n', at + 1) + 1;
        logOffset += text.substring(0, end).getBytes(StandardCharsets.UTF_8).length;
        return parse(text.substring(0, text.lastIndexOf('\n', at) + 1));
      }
      if (System.nanoTime() > deadline) {
        throw new IOException("nginx did not log the marker request " + mark);
      }
      Thread.sleep(5); // the marker's line follows its response by microseconds
    }
  }

  private static List<Request> parse(String lines) {
    List<Request> requests = new ArrayList<>();
    for (String line : lines.split("\n")) {
      String[] fields = line.split("\t", -1);
      if (fields.length == 5) {
        requests.add(new Request(Integer.parseInt(fields[0]), fields[1], fields[2], fields[3],
            Long.parseLong(fields[4])));
      }
    }
    return requests;
  }

  private boolean accepts() {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 200);
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  private String lastErrorLine() {
    for (String name : List.of("error.log", "stdout.log")) {
      try {
        List<String> lines = Files.readAllLines(dir.resolve(name));
        if (!lines.isEmpty()) {
          return lines.get(lines.size() - 1);
        }
      } catch (IOException e) {
        // not written: try the next
      }
    }
    return process.isAlive() ? "no answer within 10 s" : "exited with " + process.exitValue();
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }

  @Override
  public void close() throws IOException, InterruptedException {
    process.destroy();
    if (!process.waitFor(10, TimeUnit.SECONDS)) {
      process.destroyForcibly();
    }
    deleteTree(dir);
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
