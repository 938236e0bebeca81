package dev.sieve.serve.access;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sieve.frontier.Lease;
import dev.sieve.frontier.Politeness;
import dev.sieve.frontier.QueueKey;
import dev.sieve.frontier.urlfrontier.ServiceFrontier;
import dev.sieve.serve.FrontierServer;
import dev.sieve.serve.ServeSettings;
import dev.sieve.testing.TestCa;
import dev.sieve.url.Url;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The crawl's client ({@code --frontier urlfrontier+tls://}, {@code --frontier-ca-cert}, {@code
 * --frontier-token-file}) against a real {@code serve} on loopback with TLS and tokens.
 */
class ServiceFrontierOverTlsTest {
  private static final Politeness POLITE =
      new Politeness(Duration.ZERO, 1, Long.MAX_VALUE, QueueKey.HOST);

  @TempDir Path dir;
  private TestCa.Issued cert;
  private FrontierServer server;
  private final List<ServiceFrontier> opened = new ArrayList<>();

  @BeforeEach
  void start() throws Exception {
    cert = TestCa.create(dir).issue("serve");
    Access access = Access.builder().tlsCert(cert.cert()).tlsKey(cert.key())
        .tokenFile(secret("tokens", "write w-token\nread r-token\n")).build();
    server = FrontierServer.start(ServeSettings.builder().host("127.0.0.1").port(0)
        .access(access).build(), Clock.systemUTC(), null);
  }

  @AfterEach
  void stop() throws InterruptedException {
    opened.forEach(ServiceFrontier::disconnect);
    server.close();
  }

  @Test
  void writeToken_overTls_pushesTakesAndCompletes() throws Exception {
    ServiceFrontier frontier = connect("urlfrontier+tls://127.0.0.1:", cert.ca(),
        secret("crawler.token", "# the crawlers'\nw-token\n"));
    assertThat(frontier.push(Url.parse("http://a.example/").orElseThrow(), 0, null, null)).isTrue();
    Lease lease = frontier.take();
    assertThat(lease.url().toString()).isEqualTo("http://a.example/");
    frontier.complete(lease, Map.of());
    assertThat(frontier.isFinished()).isTrue();
  }

  @Test
  void noToken_isUnauthenticated_readToken_mayLookButNotPush() throws Exception {
    ServiceFrontier anonymous = connect("urlfrontier+tls://127.0.0.1:", cert.ca(), null);
    assertThatThrownBy(anonymous::isFinished).isInstanceOf(UncheckedIOException.class)
        .hasMessageContaining("UNAUTHENTICATED");
    ServiceFrontier reader = connect("urlfrontier+tls://127.0.0.1:", cert.ca(),
        secret("reader.token", "r-token\n"));
    assertThat(reader.isFinished()).as("GetStats needs a read token only").isTrue();
    assertThatThrownBy(() -> reader.push(Url.parse("http://a.example/").orElseThrow(), 0, null, null))
        .isInstanceOf(UncheckedIOException.class).hasMessageContaining("PERMISSION_DENIED")
        .hasMessageNotContaining("r-token");
    assertThat(server.counters()).containsEntry("unauthenticated", 1L)
        .containsEntry("permission_denied", 1L);
  }

  @Test
  void serviceCertificate_notTrustedWithoutItsCa_andPlaintextRefused() throws Exception {
    Path token = secret("crawler.token", "w-token\n");
    assertThatThrownBy(() -> connect("urlfrontier+tls://127.0.0.1:", null, token).isFinished())
        .isInstanceOf(UncheckedIOException.class).hasMessageContaining("UNAVAILABLE");
    assertThatThrownBy(() -> connect("urlfrontier://127.0.0.1:", null, token).isFinished())
        .isInstanceOf(UncheckedIOException.class);
  }

  @Test
  void allowedNetworksWithTls_anAdmittedAddressHandshakes_anotherIsClosedBeforeIt()
      throws Exception {
    Path token = secret("crawler.token", "w-token\n");
    restart("127.0.0.1/32");
    ServiceFrontier admitted = connect("urlfrontier+tls://127.0.0.1:", cert.ca(), token);
    assertThat(admitted.push(Url.parse("http://a.example/").orElseThrow(), 0, null, null))
        .as("through the gate, TLS and the token as without it").isTrue();
    assertThat(server.counters().getOrDefault("access.refused_connections", 0L)).isZero();

    restart("10.0.0.0/8");
    ServiceFrontier outside = connect("urlfrontier+tls://127.0.0.1:", cert.ca(), token);
    assertThatThrownBy(outside::isFinished).isInstanceOf(UncheckedIOException.class)
        .hasMessageContaining("UNAVAILABLE");
    assertThat(server.counters().getOrDefault("access.refused_connections", 0L)).isPositive();
    assertThat(server.counters().getOrDefault("unauthenticated", 0L))
        .as("no call reached the token check").isZero();
  }

  /** Replaces the server by one with TLS, tokens and {@code --allow-insecure-from networks}. */
  private void restart(String networks) throws Exception {
    opened.forEach(ServiceFrontier::disconnect);
    opened.clear();
    server.close();
    Access access = Access.builder().tlsCert(cert.cert()).tlsKey(cert.key())
        .tokenFile(secret("tokens", "write w-token\n")).allowInsecureFrom(networks).build();
    server = FrontierServer.start(ServeSettings.builder().host("127.0.0.1").port(0)
        .access(access).build(), Clock.systemUTC(), null);
  }

  @Test
  void badClientFiles_areRefusedNamingTheOption() throws Exception {
    Path shared = dir.resolve("shared.token");
    Files.writeString(shared, "w-token\n");
    Files.setPosixFilePermissions(shared, PosixFilePermissions.fromString("rw-r-----"));
    assertThatThrownBy(() -> connect("urlfrontier+tls://127.0.0.1:", cert.ca(), shared))
        .hasMessage("--frontier-token-file (" + shared + ") may be read by its group or others:"
            + " make it readable by its owner only (chmod 600)");
    Path two = secret("two.token", "a\nb\n");
    assertThatThrownBy(() -> connect("urlfrontier+tls://127.0.0.1:", cert.ca(), two))
        .hasMessage("--frontier-token-file (" + two + ") must hold one line: the token (and #"
            + " comments)");
    assertThatThrownBy(() -> connect("urlfrontier://127.0.0.1:", cert.ca(), null))
        .hasMessageStartingWith("--frontier-ca-cert needs --frontier urlfrontier+tls://HOST:PORT");
    assertThatThrownBy(() -> connect("urlfrontier+tls://127.0.0.1:", dir.resolve("none.pem"),
        null)).hasMessageStartingWith("--frontier-ca-cert (" + dir.resolve("none.pem") + ")");
  }

  private ServiceFrontier connect(String scheme, Path ca, Path token) {
    ServiceFrontier frontier = ServiceFrontier.connect(scheme + server.port(), "c", POLITE,
        Duration.ofSeconds(30), Clock.systemUTC(), ca, token);
    opened.add(frontier);
    return frontier;
  }

  private Path secret(String name, String text) throws Exception {
    Path file = dir.resolve(name);
    Files.writeString(file, text);
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
    return file;
  }
}
