package dev.sieve.app;

import dev.sieve.loopback.LoopbackNginx;
import dev.sieve.testing.TestCa;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/**
 * A {@link LoopbackNginx} serving a directory four ways, started by a test without root: plain
 * HTTP, HTTPS with HTTP/2 (a certificate for localhost from the test's CA), HTTPS with an expired
 * certificate and HTTPS with a certificate for another name. Its access log names each request's
 * client address, so requests through a proxy bound to 127.0.0.2 tell themselves from direct ones.
 */
final class TlsNginx implements AutoCloseable {
  private static final Path NGINX = Path.of("/usr/sbin/nginx");
  private static final List<String> LOG_FIELDS = List.of(
      "$remote_addr", "$server_port", "$server_protocol", "$status", "$request_uri");

  /** One access log line: who asked, on which port, over which protocol, for what. */
  record Request(String client, int port, String protocol, int status, String uri) {}

  private final LoopbackNginx nginx;
  final int http;
  final int https;
  final int expired;
  final int otherName;

  private TlsNginx(LoopbackNginx nginx, List<Integer> ports) {
    this.nginx = nginx;
    this.http = ports.get(0);
    this.https = ports.get(1);
    this.expired = ports.get(2);
    this.otherName = ports.get(3);
  }

  /**
   * Starts nginx serving {@code plainRoot} over HTTP and {@code tlsRoot} over HTTPS, with
   * certificates from {@code ca}.
   */
  static TlsNginx start(Path plainRoot, Path tlsRoot, TestCa ca)
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
    List<Integer> ports = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      ports.add(LoopbackNginx.freePort());
    }
    List<String> servers = new ArrayList<>(List.of("ssl_protocols TLSv1.2 TLSv1.3;",
        "server { listen 127.0.0.1:" + ports.get(0) + "; root " + plainRoot + "; }"));
    TestCa.Issued[] certs = {valid, expired, other};
    for (int i = 0; i < certs.length; i++) {
      servers.add("server { listen 127.0.0.1:" + ports.get(i + 1) + " ssl http2; root " + tlsRoot
          + "; ssl_certificate " + certs[i].cert() + "; ssl_certificate_key " + certs[i].key()
          + "; }");
    }
    return new TlsNginx(LoopbackNginx.start(NGINX, servers, LOG_FIELDS, ports), ports);
  }

  /** The requests logged since the previous call; see {@link LoopbackNginx#logSinceLastCall}. */
  List<Request> requestsSinceLastCall() throws IOException, InterruptedException {
    List<Request> requests = new ArrayList<>();
    for (String[] f : nginx.logSinceLastCall()) {
      if (f.length == LOG_FIELDS.size()) {
        requests.add(new Request(f[0], Integer.parseInt(f[1]), f[2], Integer.parseInt(f[3]), f[4]));
      }
    }
    return requests;
  }

  @Override
  public void close() throws IOException, InterruptedException {
    nginx.close();
  }
}
