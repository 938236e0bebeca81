package dev.sieve.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class WireServerTest {
  private static final HttpReply PAGE = HttpReply.of(200, "OK", "text/plain", "hello".getBytes(StandardCharsets.UTF_8));

  @Test
  void reply_headRequest_sendsTheHeadOnly_andLogsIt() throws Exception {
    try (WireServer server = WireServer.start(request -> PAGE)) {
      String received = exchange(server, "HEAD /x HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n");

      assertThat(received).isEqualTo("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 5\r\n\r\n");
      assertThat(server.exchanges("/x")).singleElement()
          .satisfies(e -> assertThat(e.wire()).isEqualTo(PAGE.head()));
    }
  }

  @Test
  void reply_requestWithBody_bodySkippedAndNextRequestOnTheConnectionAnswered() throws Exception {
    try (WireServer server = WireServer.start(request -> PAGE)) {
      String received = exchange(server, "POST /form?a=1 HTTP/1.1\r\nContent-Length: 7\r\n\r\nGET / x"
          + "GET /next HTTP/1.1\r\nConnection: close\r\n\r\n");

      assertThat(received).isEqualTo(new String(PAGE.wire(), StandardCharsets.UTF_8).repeat(2));
      assertThat(server.exchanges()).extracting(e -> e.request().method() + " " + e.request().target())
          .containsExactly("POST /form?a=1", "GET /next");
      assertThat(server.exchanges().get(0).request().field("content-length")).hasValue("7");
    }
  }

  @Test
  void reply_handlerThrows_answers500NamingTheException() throws Exception {
    try (WireServer server = WireServer.start(request -> {
      throw new IllegalStateException("broken fixture");
    })) {
      String received = exchange(server, "GET / HTTP/1.1\r\nConnection: close\r\n\r\n");

      assertThat(received).startsWith("HTTP/1.1 500 Internal Server Error\r\n")
          .endsWith("java.lang.IllegalStateException: broken fixture");
    }
  }

  @Test
  void wire_chunkedReply_framesTheBodyInChunksOfTheGivenSize() {
    HttpReply reply = HttpReply.chunked("text/plain", "abcdefghij".getBytes(StandardCharsets.UTF_8), 4);

    assertThat(new String(reply.wire(), StandardCharsets.UTF_8)).isEqualTo(
        "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\n\r\n"
            + "4\r\nabcd\r\n4\r\nefgh\r\n2\r\nij\r\n0\r\n\r\n");
  }

  private static String exchange(WireServer server, String requests) throws IOException {
    try (Socket socket = new Socket(InetAddress.getByName("127.0.0.1"), server.port())) {
      socket.setSoTimeout(10_000);
      OutputStream out = socket.getOutputStream();
      out.write(requests.getBytes(StandardCharsets.ISO_8859_1));
      out.flush();
      try (InputStream in = socket.getInputStream()) {
        return new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
      }
    }
  }
}
