package dev.sieve.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sieve.app.WarcioReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A recrawl over {@code --state} of a corpus served by a real nginx: the second round's requests
 * are conditional, so every unchanged page comes back {@code 304} (JSONL fate {@code
 * not-modified}, a WARC revisit with the server-not-modified profile that warcio reads) and the
 * one page changed between rounds {@code 200}, for a small share of the first round's bytes.
 */
class ConditionalRefetchIT {
  private static final Path JAR = Path.of(System.getProperty("crawler.jar", "target/crawler.jar"));
  private static final Path NGINX = Path.of("/usr/sbin/nginx");
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int PAGES = 50;
  private static final String CHANGED = "/p07.html";

  @TempDir Path dir;

  @Test
  void secondRound_unchanged304_changed200_under5PercentOfBytes_revisitsReadByWarcio()
      throws Exception {
    requireNginx();
    WarcioReader warcio = WarcioReader.require();
    Path corpus = corpus();
    try (NginxServer server = NginxServer.start(NGINX, corpus)) {
      Files.writeString(dir.resolve("seeds.txt"), server.base() + "/\n");
      Process crawler = start();
      awaitRecords(crawler, records -> round(records, 0).size() == PAGES + 1);
      Files.writeString(corpus.resolve(CHANGED.substring(1)), page(7, "changed between rounds"));
      awaitRecords(crawler, records -> round(records, 1).size() == PAGES + 1);
      crawler.destroy(); // SIGTERM: the recrawl runs until stopped
      assertThat(crawler.waitFor(60, TimeUnit.SECONDS)).as("the crawl stops on SIGTERM").isTrue();
      List<NginxServer.Request> requests = server.requestsSinceLastCall();

      List<JsonNode> records = records();
      Map<String, JsonNode> second = round(records, 1);
      for (JsonNode record : second.values()) {
        boolean changed = record.get("url").asText().endsWith(CHANGED);
        assertThat(record.get("status").asInt()).as(record.get("url").asText())
            .isEqualTo(changed ? 200 : 304);
        assertThat(record.get("error").isNull() ? null : record.get("error").asText())
            .isEqualTo(changed ? null : "not-modified");
      }
      Map<String, List<NginxServer.Request>> byUri = new LinkedHashMap<>();
      requests.stream().filter(r -> !r.requestUri().equals("/robots.txt"))
          .forEach(r -> byUri.computeIfAbsent(r.requestUri(), u -> new ArrayList<>()).add(r));
      long firstBytes = 0;
      long secondBytes = 0;
      int notModified = 0;
      for (Map.Entry<String, List<NginxServer.Request>> uri : byUri.entrySet()) {
        List<NginxServer.Request> served = uri.getValue();
        assertThat(served.get(0).status()).as("first fetch of %s", uri.getKey()).isEqualTo(200);
        assertThat(served.get(1).status()).as("second fetch of %s", uri.getKey())
            .isEqualTo(uri.getKey().equals(CHANGED) ? 200 : 304);
        notModified += served.get(1).status() == 304 ? 1 : 0;
        firstBytes += served.get(0).bytesSent();
        secondBytes += served.get(1).bytesSent();
      }
      double share = 100.0 * secondBytes / firstBytes;
      System.out.printf("conditional refetch: %d pages, second round %d x 304 + 1 x 200;"
          + " bytes sent %,d then %,d (%.2f%%)%n", byUri.size(), notModified, firstBytes,
          secondBytes, share);
      assertThat(byUri).hasSize(PAGES + 1);
      assertThat(notModified).isEqualTo(PAGES);
      assertThat(share).as("second round's bytes, %% of the first's").isLessThan(5.0);

      assertRevisitsReadByWarcio(warcio, second);
      long refetches = records.stream().filter(r -> r.get("refetch").asInt() > 0).count();
      long notModifiedRecords = records.stream()
          .filter(r -> "not-modified".equals(r.get("error").asText(null))).count();
      assertThat(Files.readString(dir.resolve("stdout.txt"))).contains(
          "refetches:         " + refetches + " (" + notModifiedRecords + " not modified)");
    }
  }

  /**
   * Every 304 is a revisit with the server-not-modified profile, referring to its URL's first
   * response record (its ID, target and date), as warcio reads them.
   */
  private void assertRevisitsReadByWarcio(WarcioReader warcio, Map<String, JsonNode> second)
      throws IOException {
    List<Path> files;
    try (Stream<Path> listed = Files.list(dir.resolve("warc"))) {
      files = listed.filter(f -> f.toString().endsWith(".warc.gz")).sorted().toList();
    }
    Map<String, WarcioReader.Entry> responses = new HashMap<>();
    List<WarcioReader.Entry> revisits = new ArrayList<>();
    for (WarcioReader.WarcFile file : warcio.read(files)) {
      for (WarcioReader.Entry entry : file.entries()) {
        if (entry.type().equals("response")) {
          responses.putIfAbsent(entry.targetUri(), entry);
        } else if (entry.type().equals("revisit")) {
          revisits.add(entry);
        }
      }
    }
    assertThat(revisits).hasSize(PAGES);
    for (WarcioReader.Entry revisit : revisits) {
      WarcioReader.Entry original = responses.get(revisit.targetUri());
      assertThat(second).containsKey(revisit.targetUri());
      assertThat(revisit.profile())
          .isEqualTo("http://netpreserve.org/warc/1.1/revisit/server-not-modified");
      assertThat(revisit.httpStatus()).isEqualTo(304);
      assertThat(revisit.refersTo()).isEqualTo(original.recordId());
      assertThat(revisit.refersToTargetUri()).isEqualTo(revisit.targetUri());
      assertThat(revisit.refersToDate()).isEqualTo(original.date());
    }
  }

  private static void requireNginx() {
    if (!Files.isExecutable(NGINX)) {
      // Under CI a missing nginx is a failure (.ci/run installs it), elsewhere a skip.
      assertThat("true".equalsIgnoreCase(System.getenv("CI")))
          .as("nginx is not installed at %s (apt-get install nginx-light; .ci/run does)", NGINX)
          .isFalse();
      assumeTrue(false, "nginx is not installed");
    }
  }

  /** An index linking {@code PAGES} pages of ~16 KB, each linking back. */
  private Path corpus() throws IOException {
    Path corpus = Files.createDirectories(dir.resolve("site"));
    StringBuilder index = new StringBuilder("<html><body>");
    for (int i = 0; i < PAGES; i++) {
      String name = String.format("p%02d.html", i);
      index.append("<a href=\"/").append(name).append("\">").append(name).append("</a>\n");
      Files.writeString(corpus.resolve(name), page(i, "as first served"));
    }
    Files.writeString(corpus.resolve("index.html"), index.append("</body></html>\n").toString());
    return corpus;
  }

  private static String page(int i, String version) {
    StringBuilder page = new StringBuilder("<html><body><h1>Page " + i + ", " + version + "</h1>");
    while (page.length() < 16_000) {
      page.append("<p>Sieve fetches this page again; a server that keeps its validators answers"
          + " 304 Not Modified and sends no body.</p>\n");
    }
    return page.append("<a href=\"/\">home</a></body></html>\n").toString();
  }

  private Process start() throws IOException {
    List<String> command = List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m",
        "-jar", JAR.toAbsolutePath().toString(), "crawl", "--seeds", "seeds.txt",
        "--output", "crawl.jsonl", "--state", "state", "--warc", "warc",
        "--recrawl-after", "10s", "--delay-ms", "0", "--expected-urls", "1000");
    return new ProcessBuilder(command).directory(dir.toFile())
        .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
        .redirectOutput(dir.resolve("stdout.txt").toFile())
        .redirectError(dir.resolve("stderr.txt").toFile())
        .start();
  }

  /** Waits (polling the output, bounded) until its records satisfy {@code done}. */
  private void awaitRecords(Process crawler, Predicate<List<JsonNode>> done) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    while (!done.test(records())) {
      if (!crawler.isAlive()) {
        throw new AssertionError("the crawler exited early with " + crawler.exitValue() + ": "
            + Files.readString(dir.resolve("stderr.txt")));
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError("the records did not come in 120 s: " + records().size());
      }
      crawler.waitFor(20, TimeUnit.MILLISECONDS);
    }
  }

  /** The output's whole lines, parsed. */
  private List<JsonNode> records() throws IOException {
    Path output = dir.resolve("crawl.jsonl");
    List<JsonNode> records = new ArrayList<>();
    if (!Files.exists(output)) {
      return records;
    }
    String text = Files.readString(output);
    for (String line : text.substring(0, text.lastIndexOf('\n') + 1).lines().toList()) {
      records.add(JSON.readTree(line));
    }
    return records;
  }

  /** The records of round {@code refetch} (0 the first fetch), by URL. */
  private static Map<String, JsonNode> round(List<JsonNode> records, int refetch) {
    Map<String, JsonNode> round = new LinkedHashMap<>();
    records.stream().filter(r -> r.get("refetch").asInt() == refetch)
        .forEach(r -> round.put(r.get("url").asText(), r));
    return round;
  }
}
