package dev.sieve.bench;

import static org.assertj.core.api.Assertions.assertThat;

import crawlercommons.urlfrontier.URLFrontierGrpc;
import crawlercommons.urlfrontier.Urlfrontier.Pagination;
import dev.sieve.serve.FrontierServer;
import dev.sieve.serve.ServeSettings;
import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BenchTlsTest {
  @TempDir Path dir;

  @Test
  void selfSigned_servesTlsThatItsClientTrusts() throws Exception {
    BenchTls tls = BenchTls.selfSigned(dir);
    assertThat(tls.access().tls()).isTrue();
    assertThat(Files.readString(dir.resolve("bench-tls.key"))).startsWith("-----BEGIN PRIVATE KEY-----");
    FrontierServer server = FrontierServer.start(ServeSettings.builder().host("127.0.0.1").port(0)
        .access(tls.access()).build(), Clock.systemUTC(), null);
    ManagedChannel channel = NettyChannelBuilder.forAddress("127.0.0.1", server.port(),
        tls.client()).build();
    try {
      assertThat(URLFrontierGrpc.newBlockingStub(channel).withDeadlineAfter(30, TimeUnit.SECONDS)
          .listQueues(Pagination.getDefaultInstance()).getValuesCount()).isZero();
    } finally {
      channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
      server.close();
    }
  }
}
