package dev.sieve.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.Error;
import com.networknt.schema.InputFormat;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SchemaRegistryConfig;
import com.networknt.schema.SpecificationVersion;
import dev.sieve.crawl.CrawlConfig;
import dev.sieve.crawl.Crawler;
import dev.sieve.crawl.LinkFate;
import dev.sieve.crawl.PageRecord;
import dev.sieve.testing.Routes;
import dev.sieve.url.Url;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code config/page-record.schema.json} describes the records a crawl really writes: a crawl of a
 * loopback site (HTML with links, a redirect chain, a 404, an image, a host that refuses
 * connections) through {@link JsonlOutput}, every line validated; the schema allows no field it
 * does not declare.
 */
class PageRecordSchemaTest {
  private static final Path SCHEMA = Path.of("..", "config", "page-record.schema.json");
  private static Schema schema;

  @TempDir Path dir;

  @BeforeAll
  static void loadSchema() throws IOException {
    SchemaRegistry registry = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12,
        builder -> builder.schemaRegistryConfig(
            SchemaRegistryConfig.builder().formatAssertionsEnabled(true).build()));
    try (InputStream in = Files.newInputStream(SCHEMA)) {
      schema = registry.getSchema(in);
    }
  }

  @Test
  void crawlOfALocalSite_everyRecordIsValid() throws Exception {
    Routes routes = new Routes()
        .html("/", "<a href=\"/a.html\">a</a> <a href=\"/old\">old</a> <a href=\"/missing.html\">x</a>"
            + " <a href=\"/logo.png\">logo</a> <a href=\"mailto:x@example.com\">mail</a>")
        .redirect("/old", "/older")
        .on("/older", () -> new MockResponse.Builder().code(302).setHeader("Location", "a.html?from=old")
            .build())
        .html("/a.html", "<a href=\"/\">home</a>")
        .html("/a.html?from=old", "<p>no links</p>")
        .on("/logo.png", () -> new MockResponse.Builder().code(200).setHeader("Content-Type", "image/png")
            .body("not really a png").build());
    int closed;
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      closed = socket.getLocalPort();
    }
    List<String> lines;
    try (MockWebServer server = new MockWebServer()) {
      server.setDispatcher(routes);
      server.start(InetAddress.getByName("127.0.0.1"), 0);
      String site = "http://127.0.0.1:" + server.getPort();
      lines = crawl(site + "/", "http://127.0.0.1:" + closed + "/");
    }

    List<JsonNode> records = new ArrayList<>();
    ObjectMapper mapper = new ObjectMapper();
    for (String line : lines) {
      assertThat(errors(line)).as(line).isEmpty();
      records.add(mapper.readTree(line));
    }
    assertThat(records).as("a record of each kind was validated")
        .anySatisfy(r -> assertThat(r.get("redirect").isTextual()).isTrue())
        .anySatisfy(r -> assertThat(r.get("status").asInt()).isEqualTo(404))
        .anySatisfy(r -> assertThat(r.get("links").path("found").asInt()).isPositive())
        .anySatisfy(r -> assertThat(r.get("via").isTextual()).isTrue())
        .anySatisfy(r -> assertThat(r.get("cause").isTextual()).isTrue())
        .anySatisfy(r -> assertThat(r.get("contentType").asText()).isEqualTo("image/png"));
  }

  @Test
  void recordWithEveryFieldSet_isValid() {
    PageRecord full = PageRecord.builder("https://a.example/new", Instant.parse("2026-01-01T00:00:01.5Z"))
        .found(2, "https://a.example/sitemap.xml", Instant.parse("2025-12-31T10:00:00Z"))
        .response(301, "text/html; charset=utf-8", 12, 34)
        .links(1, 1, null)
        .redirect("https://a.example/newer")
        .error("truncated", null)
        .payload("2001:db8::1", "3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ")
        .protocol("h2")
        .warc(new PageRecord.WarcLocation("SIEVE-20260101000000000-00000-host.warc.gz", 1234))
        .build();

    assertThat(errors(line(full))).isEmpty();
  }

  @Test
  void recordProtocol_onlyAnHttpProtocolName() {
    PageRecord.Builder record = PageRecord.builder("https://a.example/", Instant.EPOCH);

    for (String protocol : List.of("h2", "http/1.1", "http/1.0")) {
      assertThat(errors(line(record.protocol(protocol).build()))).as(protocol).isEmpty();
    }
    assertThat(errors(line(record.protocol("HTTP/2").build()))).isNotEmpty();
    assertThat(errors(line(record.protocol("tls/1.3").build()))).isNotEmpty();
  }

  @Test
  void refetchAnsweredNotModified_isValid() {
    PageRecord refetch = PageRecord.builder("https://a.example/", Instant.parse("2026-01-01T00:01:00Z"))
        .found(0, null, null)
        .response(304, null, 0, 3)
        .error("not-modified", null)
        .payload("127.0.0.1", "3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ")
        .refetch(2)
        .build();

    assertThat(errors(line(refetch))).isEmpty();
    assertThat(errors(line(refetch).replace("\"refetch\":2", "\"refetch\":-1"))).isNotEmpty();
  }

  @Test
  void docsExampleRecords_areValid() throws IOException {
    String readme = Files.readString(Path.of("..", "docs", "crawl.md"), StandardCharsets.UTF_8);
    int output = readme.indexOf("## Output");
    int start = readme.indexOf("```json\n", output) + "```json\n".length();
    List<String> examples = readme.substring(start, readme.indexOf("```", start)).lines().toList();

    assertThat(examples).hasSizeGreaterThanOrEqualTo(3)
        .allSatisfy(line -> assertThat(errors(line)).as(line).isEmpty());
  }

  @Test
  void schema_declaresEveryLinkFate() throws IOException {
    JsonNode fates = new ObjectMapper().readTree(SCHEMA.toFile())
        .at("/properties/links/oneOf/0/properties");

    for (LinkFate fate : LinkFate.values()) {
      assertThat(fates.has(fate.label())).as("links.%s in the schema", fate.label()).isTrue();
    }
  }

  @Test
  void recordWithAFieldTheSchemaDoesNotDeclare_isInvalid() {
    String line = line(PageRecord.builder("http://a.example/", Instant.EPOCH).build());
    String extra = line.replace("\"url\":", "\"referer\":\"http://b.example/\",\"url\":");

    assertThat(errors(line)).isEmpty();
    assertThat(errors(extra)).isNotEmpty();
  }

  @Test
  void recordWithMalformedValues_isInvalid() {
    PageRecord.Builder record = PageRecord.builder("http://a.example/", Instant.EPOCH);

    assertThat(errors(line(record.payload("localhost", null).build()))).isNotEmpty();
    assertThat(errors(line(record.payload(null, "sha1:abc").build()))).isNotEmpty();
    assertThat(errors(line(record.payload(null, null).redirect("/relative").build()))).isNotEmpty();
  }

  private List<String> crawl(String... seeds) throws Exception {
    Path file = dir.resolve("crawl.jsonl");
    CrawlConfig config = CrawlConfig.builder()
        .seeds(java.util.Arrays.stream(seeds).map(s -> Url.parse(s).orElseThrow()).toList())
        .threads(2)
        .politenessDelay(Duration.ZERO)
        .expectedUrls(1000)
        .fetch(f -> f.retries(0))
        .build();
    try (JsonlOutput output = JsonlOutput.open(file)) {
      output.replace();
      Crawler.open(config, output).run();
    }
    return Files.readAllLines(file, StandardCharsets.UTF_8);
  }

  private static String line(PageRecord record) {
    return new String(PageRecordJson.encode(record), StandardCharsets.UTF_8).trim();
  }

  private static List<Error> errors(String line) {
    return schema.validate(line, InputFormat.JSON);
  }
}
