package dev.sieve.app;

import dev.sieve.testing.LocalProxy;
import dev.sieve.testing.TestCa;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/**
 * An nginx on 127.0.0.1 serving a directory four ways, started by a test without root: plain
 * HTTP, HTTPS with HTTP/2 (a certificate for localhost from the test's CA), HTTPS with an expired
 * certificate and HTTPS with a certificate for another name. Its access log names each request's
 * client address, so requests through a proxy bound to 127.0.0.2 tell themselves from direct ones.
 */
final class TlsNginx implements AutoCloseable {
  private static final Path NGINX = Path.of("/usr/sbin/nginx");
  private static final String MARK = "/.sieve-mark-";

  /** One access log line: who asked, on which port, over which protocol, for what. */
  record Request(String client, int port, String protocol, int status, String uri) {}

  private final Process process;
  private final Path dir;
  final int http;
  final int https;
  final int expired;
  final int otherName;
  private long logOffset;
  private int marks;

  private TlsNginx(Process process, Path dir, int[] ports) {
    this.process = process;
    this.dir = dir;
    this.http = ports[0];
    this.https = ports[1];
    this.expired = ports[2];
    this.otherName = ports[3];
  }

  /**
   * Starts nginx serving {@code plainRoot} over HTTP and {@code tlsRoot} over HTTPS, with
   * certificates from {@code ca}, its own files in {@code dir}.
   */
  static TlsNginx start(Path dir, Path plainRoot, Path tlsRoot, TestCa ca)
      throws IOException, InterruptedException {
    if (!Files.isExecutable(NGINX)) {
      String message = "nginx is needed for the HTTPS tests: apt-get install -y nginx-light (.ci/run does)";
      if ("true".equalsIgnoreCase(System.getenv("CI"))) {
        Assertions.fail(message);
      }
      Assumptions.abort(message + "; skipped because CI is not set");
    }
    TestCa.Issued valid = ca.issue("localhost");
    TestCa.Issued expired = ca.issue("expired", "DNS:localhost,IP:127.0.0.1", -1);
    TestCa.Issued other = ca.issue("other", "DNS:other.example", 2);
    int[] ports = new int[4];
    for (int i = 0; i < ports.length; i++) {
      ports[i] = LocalProxy.freePort();
    }
    String tmp = dir.resolve("tmp").toString();
    List<String> config = new ArrayList<>(List.of(
        "daemon off;", "master_process off;", "worker_processes 1;",
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
        "  log_format t '$remote_addr\\t$server_port\\t$server_protocol\\t$status\\t$request_uri';",
        "  access_log " + dir.resolve("access.log") + " t;",
        "  ssl_protocols TLSv1.2 TLSv1.3;",
        "  server { listen 127.0.0.1:" + ports[0] + "; root " + plainRoot + "; }"));
    TestCa.Issued[] certs = {valid, expired, other};
    for (int i = 0; i < certs.length; i++) {
      config.add("  server { listen 127.0.0.1:" + ports[i + 1] + " ssl http2; root " + tlsRoot + ";"
          + " ssl_certificate " + certs[i].cert() + "; ssl_certificate_key " + certs[i].key() + "; }");
    }
    config.add("}");
    Path file = Files.write(dir.resolve("nginx.conf"), config);
    Process process = new ProcessBuilder(NGINX.toString(), "-c", file.toString(), "-p", dir.toString())
        .redirectErrorStream(true).redirectOutput(dir.resolve("stdout.log").toFile()).start();
    TlsNginx nginx = new TlsNginx(process, dir, ports);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (!accepts(ports[0]) || !accepts(ports[3])) {
      if (!process.isAlive() || System.nanoTime() > deadline) {
        nginx.close();
        throw new IOException("nginx did not start: " + Files.readString(dir.resolve("stdout.log"))
            + (Files.exists(dir.resolve("error.log")) ? Files.readString(dir.resolve("error.log")) : ""));
      }
      Thread.sleep(20); // polling a child process's port: nothing to await on
    }
    nginx.requestsSinceLastCall();
    return nginx;
  }

  /**
   * The requests logged since the previous call: sends a marker request of its own (nginx logs a
   * request after answering it) and reads up to its line.
   */
  List<Request> requestsSinceLastCall() throws IOException, InterruptedException {
    String mark = MARK + (++marks);
    try (Socket socket = new Socket(InetAddress.getByName("127.0.0.1"), http)) {
      OutputStream out = socket.getOutputStream();
      out.write(("GET " + mark + " HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
      out.flush();
      InputStream in = socket.getInputStream();
      in.transferTo(OutputStream.nullOutputStream());
    }
    Path log = dir.resolve("access.log");
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (true) {
      byte[] all = Files.readAllBytes(log);
      String text = new String(all, (int) logOffset, all.length - (int) logOffset, StandardCharsets.UTF_8);
      int at = text.indexOf("\t" + mark + "\n");
      if (at >= 0) {
        int end = text.indexOf('\n', at) + 1;
        logOffset += text.substring(0, end).getBytes(StandardCharsets.UTF_8).length;
        List<Request> requests = new ArrayList<>();
        for (String line : text.substring(0, text.lastIndexOf('\n', at) + 1).split("\n")) {
          String[] f = line.split("\t", -1);
          if (f.length == 5) {
            requests.add(new Request(f[0], Integer.parseInt(f[1]), f[2], Integer.parseInt(f[3]), f[4]));
          }
        }
        return requests;
      }
      if (System.nanoTime() > deadline) {
        throw new IOException("nginx did not log the marker request " + mark);
      }
      Thread.sleep(5); // the marker's line follows its response by microseconds
    }
  }

  private static boolean accepts(int port) {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), port), 200);
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  @Override
  public void close() throws InterruptedException {
    process.destroy();
    if (!process.waitFor(10, TimeUnit.SECONDS)) {
      process.destroyForcibly();
    }
  }
}
