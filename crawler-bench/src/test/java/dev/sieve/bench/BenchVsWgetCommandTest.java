package dev.sieve.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class BenchVsWgetCommandTest {
  @TempDir Path corpus;

  @Test
  void vsWget_nginxMissing_exitsWithMissingProgramCode() throws IOException {
    Files.writeString(corpus.resolve("index.html"), "<a href=a.html>a</a>");

    int exit = bench("vs-wget", "--corpus", corpus.toString(),
        "--nginx", corpus.resolve("no-nginx").toString());

    assertThat(exit).isEqualTo(BenchVsWgetCommand.MISSING_PROGRAM);
  }

  @Test
  void vsWget_seedNotInCorpus_isAUsageError() {
    int exit = bench("vs-wget", "--corpus", corpus.toString(), "--seed", "missing.html");

    assertThat(exit).isEqualTo(2);
  }

  @Test
  void summary_evenCount_medianIsMeanOfMiddleTwoAndRangeIsMinToMax() {
    assertThat(Comparison.summary("%.1f", List.of(4.0, 1.0, 3.0, 2.0))).isEqualTo("2.5 (1.0-4.0)");
    assertThat(Comparison.summary("%.1f", List.of(5.0, 1.0, 3.0))).isEqualTo("3.0 (1.0-5.0)");
  }

  @Test
  void nginx_servesTheCorpus_andLogsEachRunsRequestsOnce() throws Exception {
    Path nginx = Path.of("/usr/sbin/nginx");
    if (!Files.isExecutable(nginx)) {
      // Under CI a missing nginx is a failure (.ci/run installs it), elsewhere a skip.
      assertThat("true".equalsIgnoreCase(System.getenv("CI")))
          .as("nginx is not installed at %s (apt-get install nginx-light; .ci/run does)", nginx)
          .isFalse();
      assumeTrue(false, "nginx is not installed");
    }
    Files.writeString(corpus.resolve("index.html"), "<a href=a.html>a</a>");
    Files.writeString(corpus.resolve("style.css"), "a {}");

    try (NginxServer server = NginxServer.start(nginx, corpus)) {
      assertThat(get(server, "/")).startsWith("HTTP/1.1 200");
      assertThat(get(server, "/style.css")).startsWith("HTTP/1.1 200");
      assertThat(get(server, "/missing.html")).startsWith("HTTP/1.1 404");
      List<NginxServer.Request> first = server.requestsSinceLastCall();
      assertThat(get(server, "/index.html")).startsWith("HTTP/1.1 200");
      List<NginxServer.Request> second = server.requestsSinceLastCall();

      assertThat(first).extracting(NginxServer.Request::requestUri).containsExactly("/", "/style.css", "/missing.html");
      assertThat(BenchVsWgetCommand.htmlPages(first)).containsExactly("/index.html");
      assertThat(second).extracting(NginxServer.Request::requestUri).containsExactly("/index.html");
      assertThat(URI.create(server.base()).getHost()).isEqualTo("127.0.0.1");
    }
  }

  /** Runs {@code bench ARGS} as {@code sieve} does, with no record output (no crawl runs here). */
  private static int bench(String... args) {
    BenchCommand bench = new BenchCommand(file -> {
      throw new AssertionError("no crawl writes records here");
    });
    return new CommandLine(bench).setExecutionStrategy(bench).execute(args);
  }

  private static String get(NginxServer server, String path) throws IOException {
    int port = URI.create(server.base()).getPort();
    try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
      OutputStream out = socket.getOutputStream();
      out.write(("GET " + path + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
      InputStream in = socket.getInputStream();
      return new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
    }
  }
}
