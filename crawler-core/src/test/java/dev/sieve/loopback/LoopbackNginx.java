package dev.sieve.loopback;

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
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * An nginx on 127.0.0.1 started without root: its config, pid, logs and temporary files live in a
 * temporary directory that {@link #close()} stops and deletes. The caller gives its {@code server}
 * blocks (on ports from {@link #freePort()}): HTTP ones, with the fields of the access log that
 * {@link #logSinceLastCall()} returns, or stream (TCP, TLS) proxies.
 */
public final class LoopbackNginx implements AutoCloseable {
  private static final String MARK = "/.sieve-mark-";

  private final Process process;
  private final Path dir;
  /** The plain HTTP port that marker requests go to; -1 for a stream proxy. */
  private final int markPort;
  private final Path accessLog;
  private long logOffset;
  private int marks;

  private LoopbackNginx(Process process, Path dir, int markPort) {
    this.process = process;
    this.dir = dir;
    this.markPort = markPort;
    this.accessLog = dir.resolve("access.log");
  }

  /**
   * Starts {@code nginx} with the {@code servers} lines inside its {@code http} block, logging each
   * request as {@code logFields} (nginx variables, one of them {@code $request_uri}) joined by
   * tabs, and waits until every port in {@code ports} accepts connections.
   *
   * @param ports the ports the servers listen on; the first must serve plain HTTP
   * @throws IOException if nginx cannot start or exits first (with its error log's last line)
   */
  public static LoopbackNginx start(Path nginx, List<String> servers, List<String> logFields,
      List<Integer> ports) throws IOException, InterruptedException {
    Path dir = Files.createTempDirectory("sieve-nginx-");
    String tmp = dir.resolve("tmp").toString();
    List<String> http = new ArrayList<>(List.of(
        "http {",
        "  include /etc/nginx/mime.types;",
        "  default_type application/octet-stream;",
        "  client_body_temp_path " + tmp + "-body;",
        "  proxy_temp_path " + tmp + "-proxy;",
        "  fastcgi_temp_path " + tmp + "-fastcgi;",
        "  uwsgi_temp_path " + tmp + "-uwsgi;",
        "  scgi_temp_path " + tmp + "-scgi;",
        "  log_format sieve '" + String.join("\\t", logFields) + "';",
        "  access_log " + dir.resolve("access.log") + " sieve;"));
    servers.forEach(server -> http.add("  " + server));
    http.add("}");
    LoopbackNginx server = launch(nginx, dir, List.of(), http, ports, ports.get(0));
    server.logSinceLastCall();
    return server;
  }

  /**
   * Starts {@code nginx} with the {@code servers} lines inside a {@code stream} block (TCP and
   * TLS proxies; {@code module} is the stream module to load) and waits until every port in
   * {@code ports} accepts connections. It logs no requests.
   */
  public static LoopbackNginx startStream(Path nginx, Path module, List<String> servers,
      List<Integer> ports) throws IOException, InterruptedException {
    List<String> stream = new ArrayList<>(List.of("stream {"));
    servers.forEach(server -> stream.add("  " + server));
    stream.add("}");
    return launch(nginx, Files.createTempDirectory("sieve-nginx-"),
        List.of("load_module " + module + ";"), stream, ports, -1);
  }

  private static LoopbackNginx launch(Path nginx, Path dir, List<String> modules,
      List<String> blocks, List<Integer> ports, int markPort)
      throws IOException, InterruptedException {
    List<String> config = new ArrayList<>(modules);
    config.addAll(List.of("daemon off;", "master_process off;", "worker_processes 1;",
        "pid " + dir.resolve("nginx.pid") + ";",
        "error_log " + dir.resolve("error.log") + " warn;",
        "events { worker_connections 256; }"));
    config.addAll(blocks);
    Path file = Files.write(dir.resolve("nginx.conf"), config);
    Process process = new ProcessBuilder(nginx.toString(), "-c", file.toString(), "-p",
        dir.toString())
        .redirectErrorStream(true)
        .redirectOutput(dir.resolve("stdout.log").toFile())
        .start();
    LoopbackNginx server = new LoopbackNginx(process, dir, markPort);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (!ports.stream().allMatch(LoopbackNginx::accepts)) {
      if (!process.isAlive() || System.nanoTime() > deadline) {
        String why = server.lastErrorLine();
        server.close();
        throw new IOException("nginx did not start on 127.0.0.1:" + ports + ": " + why);
      }
      Thread.sleep(20); // polling a child process's port: nothing to await on
    }
    return server;
  }

  /** The nginx process's id. */
  public long pid() {
    return process.pid();
  }

  /**
   * The access log's lines since the previous call, each split into its fields. nginx writes a
   * request's line after sending its response, so this first sends a marker request of its own
   * and reads up to its line: every request answered before then is in the list.
   */
  public List<String[]> logSinceLastCall() throws IOException, InterruptedException {
    if (markPort < 0) {
      throw new IllegalStateException("a stream nginx logs no requests");
    }
    String mark = MARK + (++marks);
    try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), markPort)) {
      OutputStream out = socket.getOutputStream();
      out.write(("GET " + mark + " HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n")
          .getBytes(StandardCharsets.US_ASCII));
      out.flush();
      InputStream in = socket.getInputStream();
      in.transferTo(OutputStream.nullOutputStream());
    }
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (true) {
      byte[] all = Files.readAllBytes(accessLog);
      String text = new String(all, (int) logOffset, all.length - (int) logOffset,
          StandardCharsets.UTF_8);
      List<String[]> lines = new ArrayList<>();
      int start = 0;
      for (int end = text.indexOf('\n'); end >= 0; end = text.indexOf('\n', start)) {
        String[] fields = text.substring(start, end).split("\t", -1);
        start = end + 1;
        if (Arrays.asList(fields).contains(mark)) {
          logOffset += text.substring(0, start).getBytes(StandardCharsets.UTF_8).length;
          return lines;
        }
        lines.add(fields);
      }
      if (System.nanoTime() > deadline) {
        throw new IOException("nginx did not log the marker request " + mark);
      }
      Thread.sleep(5); // the marker's line follows its response by microseconds
    }
  }

  private static boolean accepts(int port) {
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

  /** A port free on 127.0.0.1 now, for a server block. */
  public static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }

  /** Stops nginx (forcibly after 10 s) and deletes its directory. */
  @Override
  public void close() throws IOException, InterruptedException {
    process.destroy();
    if (!process.waitFor(10, TimeUnit.SECONDS)) {
      process.destroyForcibly();
    }
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path path : (Iterable<Path>) paths.sorted(Comparator.reverseOrder())::iterator) {
        Files.delete(path);
      }
    }
  }
}
