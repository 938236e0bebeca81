package dev.sieve.fetch;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetAddress;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A refetch sends the last response's validators back; a 304 is a result like any other. */
class FetchConditionalTest {
  private static final String LAST_MODIFIED = "Fri, 27 Nov 2026 07:00:00 GMT";

  private final MockWebServer server = new MockWebServer();
  private Fetcher fetcher;

  @BeforeEach
  void setUp() throws IOException {
    server.start(InetAddress.getByName("127.0.0.1"), 0);
    fetcher = Fetcher.builder().build();
  }

  @AfterEach
  void tearDown() {
    fetcher.close();
    server.close();
  }

  @Test
  void fetch_validatorsOfTheLastResponse_sentBackAnd304Recognized() throws Exception {
    String url = "http://127.0.0.1:" + server.getPort() + "/page.html";
    server.enqueue(new MockResponse.Builder().code(200).setHeader("ETag", "W/\"5f-1\"")
        .setHeader("Last-Modified", LAST_MODIFIED).body("<p>page</p>").build());
    server.enqueue(new MockResponse.Builder().code(304).setHeader("ETag", "W/\"5f-1\"").build());

    FetchResult first = fetcher.fetch(url);
    FetchResult again = fetcher.fetch(url, first.validators());

    assertThat(first.validators()).isEqualTo(new Validators("W/\"5f-1\"", LAST_MODIFIED));
    RecordedRequest unconditional = server.takeRequest();
    RecordedRequest conditional = server.takeRequest();
    assertThat(unconditional.getHeaders().get("If-None-Match")).isNull();
    assertThat(conditional.getHeaders().get("If-None-Match")).isEqualTo("W/\"5f-1\"");
    assertThat(conditional.getHeaders().get("If-Modified-Since")).isEqualTo(LAST_MODIFIED);
    assertThat(again.isNotModified()).isTrue();
    assertThat(again.bytes()).isZero();
    assertThat(again.error()).isNull();
  }

  @Test
  void validators_noneSentOrNoResponse_empty() {
    server.enqueue(new MockResponse.Builder().code(200).body("no validators").build());

    FetchResult plain = fetcher.fetch("http://127.0.0.1:" + server.getPort() + "/");
    FetchResult refused = fetcher.fetch("http://127.0.0.1:1/");

    assertThat(plain.validators().isEmpty()).isTrue();
    assertThat(refused.validators()).isEqualTo(Validators.NONE);
  }
}
