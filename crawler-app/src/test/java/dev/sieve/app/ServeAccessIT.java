package dev.sieve.app;

import static dev.sieve.serve.FrontierClient.discovered;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import crawlercommons.urlfrontier.URLFrontierGrpc;
import crawlercommons.urlfrontier.Urlfrontier.AckMessage;
import crawlercommons.urlfrontier.Urlfrontier.DeleteCrawlMessage;
import crawlercommons.urlfrontier.Urlfrontier.Pagination;
import dev.sieve.loopback.LoopbackNginx;
import dev.sieve.serve.FrontierClient;
import dev.sieve.testing.TestCa;
import io.grpc.Channel;
import io.grpc.ClientInterceptors;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.TlsChannelCredentials;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.shaded.io.netty.channel.nio.NioEventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.socket.nio.NioSocketChannel;
import io.grpc.stub.MetadataUtils;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code serve} as a process on loopback with TLS and bearer tokens, and with an allowlist of
 * networks: what a client with each token, with none, or from outside the networks gets.
 */
class ServeAccessIT {
  private static final String WRITE = "w-6f1c2e0b9d";
  private static final String READ = "r-0a7d33c5e1";

  @TempDir Path dir;

  @Test
  void tlsAndTokens_writeTokenWorks_noneUnauthenticated_readTokenDeniedOnDeleteCrawl()
      throws Exception {
    TestCa.Issued cert = TestCa.create(dir).issue("serve");
    Path tokens = tokenFile("# operators\nwrite " + WRITE + "\n\nread " + READ + "\n");
    int metricsPort = LoopbackNginx.freePort();
    CrawlerJar.Started serve = new CrawlerJar(dir).start("serve", "--port", "0",
        "--tls-cert", cert.cert().toString(), "--tls-key", cert.key().toString(),
        "--token-file", tokens.toString(), "--metrics-port", "" + metricsPort);
    ManagedChannel channel = null;
    try {
      int port = ServeIT.awaitPort(serve);
      ManagedChannel tls = NettyChannelBuilder.forAddress("127.0.0.1", port,
          TlsChannelCredentials.newBuilder().trustManager(cert.ca().toFile()).build()).build();
      channel = tls;

      assertThat(FrontierClient.put(withToken(tls, WRITE), List.of(
          discovered("http://a.test/1"), discovered("http://a.test/1"))))
          .extracting(AckMessage::getStatus)
          .containsExactly(AckMessage.Status.OK, AckMessage.Status.SKIPPED);
      assertThat(stub(withToken(tls, READ)).listQueues(Pagination.getDefaultInstance())
          .getValuesList()).containsExactly("a.test");

      assertThatThrownBy(() -> stub(tls).listQueues(Pagination.getDefaultInstance()))
          .isInstanceOfSatisfying(StatusRuntimeException.class, e -> assertThat(e.getStatus()
              .getCode()).isEqualTo(Status.Code.UNAUTHENTICATED));
      assertThatThrownBy(() -> stub(withToken(tls, "not-a-token"))
          .listQueues(Pagination.getDefaultInstance()))
          .isInstanceOfSatisfying(StatusRuntimeException.class, e -> assertThat(e.getStatus()
              .getCode()).isEqualTo(Status.Code.UNAUTHENTICATED));
      assertThatThrownBy(() -> stub(withToken(tls, READ))
          .deleteCrawl(DeleteCrawlMessage.getDefaultInstance()))
          .isInstanceOfSatisfying(StatusRuntimeException.class, e -> {
            assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.PERMISSION_DENIED);
            assertThat(e.getStatus().getDescription()).contains("DeleteCrawl needs a write token");
          });
      assertThat(stub(withToken(tls, READ)).listQueues(Pagination.getDefaultInstance())
          .getValuesList()).as("the denied DeleteCrawl deleted nothing").containsExactly("a.test");

      HttpClient https = HttpClient.newBuilder().sslContext(trusting(cert.ca())).build();
      URI metrics = URI.create("https://127.0.0.1:" + metricsPort + "/metrics");
      assertThat(https.send(HttpRequest.newBuilder(metrics).build(),
          HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(401);
      HttpResponse<String> scrape = https.send(HttpRequest.newBuilder(metrics)
          .header("Authorization", "Bearer " + READ).build(), HttpResponse.BodyHandlers.ofString());
      assertThat(scrape.statusCode()).isEqualTo(200);
      Scrape samples = Scrape.parse(scrape.body());
      assertThat(samples.value("sieve_serve_errors_total{code=\"unauthenticated\"}")).isEqualTo(2);
      assertThat(samples.value("sieve_serve_errors_total{code=\"permission_denied\"}"))
          .isEqualTo(1);
      assertThat(samples.value("sieve_serve_scrapes_refused_total{reason=\"unauthenticated\"}"))
          .isEqualTo(1);
    } finally {
      if (channel != null) {
        channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
      }
      serve.process().destroy();
    }
    CrawlerJar.Run run = serve.finish();
    assertThat(run.stdout()).contains("Serving metrics on https://127.0.0.1:" + metricsPort);
    assertThat(run.stdout() + run.stderr()).doesNotContain(WRITE).doesNotContain(READ)
        .doesNotContain("\tat ");
  }

  @Test
  void allowInsecureFrom_closesAClientOutsideItsNetworksBeforeAnyCall() throws Exception {
    CrawlerJar.Started serve = new CrawlerJar(dir).start("serve", "--port", "0",
        "--allow-insecure-from", "10.0.0.0/8,fd00::/8");
    ManagedChannel channel = null;
    try {
      ManagedChannel outside = plaintext(ServeIT.awaitPort(serve));
      channel = outside;
      for (int i = 0; i < 2; i++) {
        // The server closes the connection as it accepts it, before the client's HTTP/2
        // preface: the client sees the connection fail, not an answer.
        assertThatThrownBy(() -> stub(outside).listQueues(Pagination.getDefaultInstance()))
            .isInstanceOfSatisfying(StatusRuntimeException.class, e -> assertThat(e.getStatus()
                .getCode()).as(e.getStatus().toString()).isEqualTo(Status.Code.UNAVAILABLE));
      }
    } finally {
      if (channel != null) {
        channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
      }
      serve.process().destroy();
    }
    CrawlerJar.Run run = serve.finish();
    assertThat(run.stderr()).contains("--allow-insecure-from: only [10.0.0.0/8, fd00::/8] may"
        + " connect, in plaintext and without a token");
    assertThat(run.stderr()).contains("connection from /127.0.0.1:")
        .contains("closed: outside --allow-insecure-from").doesNotContain("\tat ");
  }

  @Test
  void allowInsecureFrom_refusesAnotherSourceAddressAtConnection_countsIt_servesTheAllowedOne()
      throws Exception {
    int metricsPort = LoopbackNginx.freePort();
    CrawlerJar.Started serve = new CrawlerJar(dir).start("serve", "--port", "0",
        "--allow-insecure-from", "127.0.0.1/32", "--metrics-port", "" + metricsPort);
    NioEventLoopGroup loop = new NioEventLoopGroup(1);
    ManagedChannel inside = null;
    try {
      int port = ServeIT.awaitPort(serve);
      try (Socket socket = new Socket()) {
        socket.bind(new InetSocketAddress("127.0.0.2", 0));
        socket.connect(new InetSocketAddress("127.0.0.1", port), 30_000);
        socket.setSoTimeout(30_000);
        assertThat(socket.getInputStream().read()).as("closed before the server sends a byte")
            .isEqualTo(-1);
      }
      assertThat(refusedConnections(metricsPort)).isEqualTo(1);

      inside = plaintext(port);
      assertThat(FrontierClient.put(inside, List.of(discovered("http://a.test/1"))))
          .extracting(AckMessage::getStatus).containsExactly(AckMessage.Status.OK);
      assertThat(stub(inside).listQueues(Pagination.getDefaultInstance()).getValuesList())
          .containsExactly("a.test");
      assertThat(refusedConnections(metricsPort)).as("the allowed address is not counted")
          .isEqualTo(1);

      for (int i = 0; i < 2; i++) {
        // A new channel each time: a failed channel answers the next call from its backoff
        // without connecting again.
        ManagedChannel outside = plaintextFrom("127.0.0.2", port, loop);
        try {
          assertThatThrownBy(() -> stub(outside).listQueues(Pagination.getDefaultInstance()))
              .isInstanceOfSatisfying(StatusRuntimeException.class, e -> assertThat(e.getStatus()
                  .getCode()).as(e.getStatus().toString()).isEqualTo(Status.Code.UNAVAILABLE));
        } finally {
          outside.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        }
      }
      // A channel may connect more than once for one call (it retries a call that never left).
      assertThat(refusedConnections(metricsPort)).as("at least one per refused call")
          .isGreaterThanOrEqualTo(3);
    } finally {
      if (inside != null) {
        inside.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
      }
      loop.shutdownGracefully(0, 5, TimeUnit.SECONDS).await(10, TimeUnit.SECONDS);
      serve.process().destroy();
    }
    String stderr = serve.finish().stderr();
    assertThat(stderr).as("one WARN for the address, the later refusals at DEBUG")
        .containsOnlyOnce("closed: outside --allow-insecure-from [127.0.0.1/32]")
        .contains("connection from /127.0.0.2:").doesNotContain("\tat ");
  }

  @Test
  void allowInsecureFrom_letsAClientInsideItsNetworksCallWithoutAToken() throws Exception {
    CrawlerJar.Started serve = new CrawlerJar(dir).start("serve", "--port", "0",
        "--allow-insecure-from", "127.0.0.0/8");
    ManagedChannel channel = null;
    try {
      channel = plaintext(ServeIT.awaitPort(serve));
      assertThat(FrontierClient.put(channel, List.of(discovered("http://a.test/1"))))
          .extracting(AckMessage::getStatus).containsExactly(AckMessage.Status.OK);
      assertThat(stub(channel).listQueues(Pagination.getDefaultInstance())
          .getValuesList()).containsExactly("a.test");
    } finally {
      if (channel != null) {
        channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
      }
      serve.process().destroy();
    }
    assertThat(serve.finish().stderr()).doesNotContain("closed: outside");
  }

  private Path tokenFile(String text) throws IOException {
    Path file = dir.resolve("tokens");
    Files.writeString(file, text);
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
    return file;
  }

  private static ManagedChannel plaintext(int port) {
    return ManagedChannelBuilder.forAddress("127.0.0.1", port).usePlaintext().build();
  }

  /** {@code sieve_serve_refused_connections_total}, scraped from 127.0.0.1. */
  private static double refusedConnections(int metricsPort) throws Exception {
    HttpResponse<String> scrape = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
            URI.create("http://127.0.0.1:" + metricsPort + "/metrics")).build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(scrape.statusCode()).isEqualTo(200);
    return Scrape.parse(scrape.body()).value("sieve_serve_refused_connections_total");
  }

  /** A plaintext channel to 127.0.0.1 whose connections come from {@code source}. */
  private static ManagedChannel plaintextFrom(String source, int port, NioEventLoopGroup loop) {
    return NettyChannelBuilder.forAddress("127.0.0.1", port).usePlaintext().eventLoopGroup(loop)
        .channelFactory(() -> new NioSocketChannel() {
          @Override
          protected boolean doConnect(SocketAddress remote, SocketAddress local) throws Exception {
            return super.doConnect(remote, new InetSocketAddress(source, 0));
          }
        }).build();
  }

  private static Channel withToken(Channel channel, String token) {
    Metadata headers = new Metadata();
    headers.put(Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER),
        "Bearer " + token);
    return ClientInterceptors.intercept(channel, MetadataUtils.newAttachHeadersInterceptor(headers));
  }

  private static URLFrontierGrpc.URLFrontierBlockingStub stub(Channel channel) {
    return URLFrontierGrpc.newBlockingStub(channel).withDeadlineAfter(30, TimeUnit.SECONDS);
  }

  private static SSLContext trusting(Path ca) throws Exception {
    KeyStore store = KeyStore.getInstance("PKCS12");
    store.load(null, null);
    try (InputStream in = Files.newInputStream(ca)) {
      store.setCertificateEntry("ca", CertificateFactory.getInstance("X.509").generateCertificate(in));
    }
    TrustManagerFactory trust =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    trust.init(store);
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(null, trust.getTrustManagers(), null);
    return context;
  }

}
