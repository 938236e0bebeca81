package dev.sieve.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.common.io.BaseEncoding;
import dev.sieve.testing.HttpReply;
import dev.sieve.testing.WireServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.netpreserve.jwarc.WarcReader;
import org.netpreserve.jwarc.WarcRecord;
import org.netpreserve.jwarc.WarcRequest;
import org.netpreserve.jwarc.WarcResponse;
import org.netpreserve.jwarc.WarcRevisit;

/**
 * Issue 15's acceptance: the packaged crawler crawls {@link AcceptanceSite} with {@code --warc};
 * the archive read back (with jwarc, and with warcio.js as an independent reader) holds, for every
 * URL fetched, the exact bytes the server sent; revisit, truncation and digest fields are right;
 * the page only a sitemap lists is fetched with its lastmod; URL rules are obeyed.
 */
class WarcAcceptanceIT {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int MAX_BODY_BYTES = 4096;

  @TempDir Path dir;

  /** One archived record and its block, read while the reader was at it. */
  private record Capture(WarcRecord record, byte[] block) {}

  @Test
  void crawlWithWarc_archiveHoldsExactlyWhatTheServerSent() throws Exception {
    WarcioReader warcio = WarcioReader.require();
    try (AcceptanceSite site = AcceptanceSite.start(MAX_BODY_BYTES)) {
      Files.writeString(dir.resolve("seeds.txt"), site.url(AcceptanceSite.HOME) + "\n");

      CrawlerJar.Run run = new CrawlerJar(dir).run("crawl", "--seeds", "seeds.txt",
          "--output", "crawl.jsonl", "--warc", "warc", "--warc-index", "--delay-ms", "0",
          "--max-body-bytes", Integer.toString(MAX_BODY_BYTES));

      assertThat(run.exitCode()).as(run.stderr()).isZero();
      Map<String, JsonNode> records = records(dir.resolve("crawl.jsonl"));
      List<Path> warcs = files(dir.resolve("warc"), ".warc.gz");
      assertThat(warcs).isNotEmpty();
      assertThat(files(dir.resolve("warc"), ".open")).isEmpty();
      assertThat(files(dir.resolve("warc"), ".cdxj")).hasSameSizeAs(warcs);

      // Every exchange the server saw is archived: its request as received, its reply as sent.
      Map<String, List<Capture>> archived = readAll(warcs);
      for (WireServer.Exchange exchange : site.exchanges()) {
        String target = exchange.request().target();
        List<Capture> captures = archived.get(site.url(target));
        assertThat(captures).as(target).isNotNull();
        Capture request = only(captures, WarcRequest.class, target);
        assertThat(request.block()).as("request of " + target)
            .isEqualTo(exchange.request().head());
        checkResponse(site, target, captures, archived);
      }

      // Every record with a status points at its response or revisit in the archive.
      for (JsonNode record : records.values()) {
        if (record.get("status").asInt() == 0) {
          continue;
        }
        JsonNode warc = record.get("warc");
        assertThat(warc.isObject()).as(record.toString()).isTrue();
        try (WarcReader reader = new WarcReader(dir.resolve("warc").resolve(warc.get("file").asText()))) {
          reader.position(warc.get("offset").asLong());
          WarcRecord at = reader.next().orElseThrow();
          assertThat(at.type()).isIn("response", "revisit");
          assertThat(((org.netpreserve.jwarc.WarcTargetRecord) at).target())
              .isEqualTo(record.get("url").asText());
        }
        assertThat(record.get("ip").asText()).isEqualTo("127.0.0.1");
        assertThat(record.get("sha1").asText()).hasSize(32);
      }

      // Identical bodies: the second is a revisit of the first.
      List<Capture> twins = new ArrayList<>();
      twins.addAll(archived.get(site.url(AcceptanceSite.SAME_1)));
      twins.addAll(archived.get(site.url(AcceptanceSite.SAME_2)));
      WarcRevisit revisit = (WarcRevisit) only(twins, WarcRevisit.class, "twins").record();
      assertThat(revisit.profile().toString()).endsWith("identical-payload-digest");
      assertThat(revisit.refersToTargetURI().map(URI::toString)).get()
          .isIn(site.url(AcceptanceSite.SAME_1), site.url(AcceptanceSite.SAME_2));

      // Truncated at the body cap: marked, and digests of the bytes kept.
      WarcResponse big = (WarcResponse) only(archived.get(site.url(AcceptanceSite.BIG)),
          WarcResponse.class, "big").record();
      assertThat(big.truncated().toString()).isEqualToIgnoringCase("length");

      // robots.txt and the sitemaps are archived too; the sitemap-only page was fetched with its lastmod.
      assertThat(archived).containsKey(site.url(AcceptanceSite.ROBOTS));
      for (String sitemap : site.sitemaps()) {
        assertThat(archived).as(sitemap).containsKey(site.url(sitemap));
      }
      for (String only : site.sitemapOnly()) {
        JsonNode record = records.get(only);
        assertThat(record).as(only).isNotNull();
        assertThat(record.get("status").asInt()).isEqualTo(200);
        assertThat(Instant.parse(record.get("lastmod").asText())).isEqualTo(site.lastmods().get(only));
        assertThat(record.get("via").asText())
            .isIn(site.sitemaps().stream().map(site::url).toList());
      }
      JsonNode redirect = records.get(AcceptanceSite.REDIRECT_A);
      assertThat(redirect.get("redirect").asText()).isEqualTo(site.url(AcceptanceSite.REDIRECT_B));
      assertThat(records.get(AcceptanceSite.REDIRECT_B).get("via").asText())
          .isEqualTo(site.url(AcceptanceSite.REDIRECT_A));

      // An independent reader agrees: same records, declared digests are the digests of the bytes.
      List<WarcioReader.WarcFile> read = warcio.read(warcs);
      int count = read.stream().mapToInt(WarcioReader.WarcFile::records).sum();
      assertThat(count).isEqualTo(archived.values().stream().mapToInt(List::size).sum()
          + warcs.size()); // + one warcinfo per file
      for (WarcioReader.WarcFile file : read) {
        for (WarcioReader.Entry entry : file.entries()) {
          if ("warcinfo".equals(entry.type())) {
            continue; // a warcinfo block digest is optional, and not written
          }
          assertThat(entry.computedBlockDigest()).as(entry.type() + " " + entry.targetUri())
              .isEqualTo(entry.blockDigest());
          if ("response".equals(entry.type())) {
            assertThat(entry.computedPayloadDigest()).as(entry.targetUri())
                .isEqualTo(entry.payloadDigest());
          }
        }
      }
    }
  }

  @Test
  void crawlWithRules_fetchesOnlyWhatTheRulesAllow() throws Exception {
    try (AcceptanceSite site = AcceptanceSite.start(MAX_BODY_BYTES)) {
      Files.writeString(dir.resolve("seeds.txt"), site.url(AcceptanceSite.HOME) + "\n");

      CrawlerJar.Run run = new CrawlerJar(dir).run("crawl", "--seeds", "seeds.txt",
          "--output", "crawl.jsonl", "--delay-ms", "0", "--include", AcceptanceSite.INCLUDE_DOCS,
          "--exclude", AcceptanceSite.EXCLUDE_SORT);

      assertThat(run.exitCode()).as(run.stderr()).isZero();
      Map<String, JsonNode> records = records(dir.resolve("crawl.jsonl"));
      Pattern exclude = Pattern.compile(AcceptanceSite.EXCLUDE_SORT);
      assertThat(records.keySet()).contains("/docs/index.html", "/docs/guide.html")
          .allSatisfy(target -> {
            if (!target.equals(AcceptanceSite.HOME)) {
              assertThat(target).contains(AcceptanceSite.INCLUDE_DOCS);
            }
            assertThat(exclude.matcher(target).find()).as(target).isFalse();
          });
      assertThat(site.exchanges()).noneSatisfy(e ->
          assertThat(exclude.matcher(e.request().target()).find()).isTrue());
      long excluded = records.values().stream().map(r -> r.get("links"))
          .filter(JsonNode::isObject).mapToLong(l -> l.path("excluded").asLong()).sum();
      assertThat(excluded).isPositive();
    }
  }

  /** The response (or revisit) for {@code target} holds the reply as the server sent it. */
  private static void checkResponse(AcceptanceSite site, String target, List<Capture> captures,
      Map<String, List<Capture>> archived) throws IOException {
    HttpReply reply = site.reply(target);
    List<Capture> responses = captures.stream()
        .filter(c -> c.record() instanceof WarcResponse || c.record() instanceof WarcRevisit)
        .toList();
    assertThat(responses).as(target).hasSize(1);
    WarcRecord response = responses.get(0).record();
    byte[] block = responses.get(0).block();
    byte[] head = expectedHead(reply);
    assertThat(Arrays.copyOf(block, Math.min(block.length, head.length))).as("head of " + target)
        .isEqualTo(head);
    byte[] payload = Arrays.copyOfRange(block, head.length, block.length);
    byte[] sent = reply.body();
    if (response instanceof WarcRevisit) {
      assertThat(payload).as(target).isEmpty();
      assertThat(((WarcRevisit) response).payloadDigest().orElseThrow().base32())
          .isEqualTo(sha1(sent));
      return;
    }
    WarcResponse full = (WarcResponse) response;
    if (sent.length > MAX_BODY_BYTES) {
      assertThat(payload).as(target).isEqualTo(Arrays.copyOf(sent, MAX_BODY_BYTES));
    } else {
      assertThat(payload).as(target).isEqualTo(sent);
    }
    assertThat(full.payloadDigest().orElseThrow().base32()).as(target).isEqualTo(sha1(payload));
    assertThat(full.blockDigest().orElseThrow().base32()).as(target).isEqualTo(sha1(block));
    assertThat(full.ipAddress().map(Object::toString).orElse("")).contains("127.0.0.1");
  }

  /** The reply's head as archived: as sent, but a chunked body is stored de-chunked. */
  private static byte[] expectedHead(HttpReply reply) {
    String head = new String(reply.head(), StandardCharsets.ISO_8859_1);
    if (reply.chunkSize() > 0) {
      head = head.replace("\r\nTransfer-Encoding: chunked\r\n",
          "\r\nX-Sieve-Transfer-Encoding: chunked\r\n");
    }
    return head.getBytes(StandardCharsets.ISO_8859_1);
  }

  private static Capture only(List<Capture> captures, Class<? extends WarcRecord> type,
      String what) {
    List<Capture> found = captures.stream().filter(c -> type.isInstance(c.record())).toList();
    assertThat(found).as(what).hasSize(1);
    return found.get(0);
  }

  /** Every record of the files except warcinfo, by target URI, each with its body read. */
  private static Map<String, List<Capture>> readAll(List<Path> warcs) throws IOException {
    Map<String, List<Capture>> byTarget = new HashMap<>();
    for (Path warc : warcs) {
      try (WarcReader reader = new WarcReader(warc)) {
        for (WarcRecord record : reader) {
          if (record instanceof org.netpreserve.jwarc.WarcTargetRecord targeted) {
            byTarget.computeIfAbsent(targeted.target(), t -> new ArrayList<>())
                .add(new Capture(record, record.body().stream().readAllBytes()));
          }
        }
      }
    }
    return byTarget;
  }

  private static Map<String, JsonNode> records(Path jsonl) throws IOException {
    return Files.readAllLines(jsonl).stream().map(WarcAcceptanceIT::parse)
        .collect(Collectors.toMap(r -> target(r.get("url").asText()), Function.identity()));
  }

  private static List<Path> files(Path dir, String suffix) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files.filter(f -> f.getFileName().toString().endsWith(suffix)).sorted().toList();
    }
  }

  private static String sha1(byte[] bytes) {
    try {
      return BaseEncoding.base32().encode(MessageDigest.getInstance("SHA-1").digest(bytes));
    } catch (NoSuchAlgorithmException e) {
      throw new AssertionError(e);
    }
  }

  private static JsonNode parse(String line) {
    try {
      return JSON.readTree(line);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String target(String url) {
    URI uri = URI.create(url);
    return uri.getRawPath() + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
  }
}
