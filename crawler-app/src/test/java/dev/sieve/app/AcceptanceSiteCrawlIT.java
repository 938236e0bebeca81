package dev.sieve.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The packaged crawler against {@link AcceptanceSite}: what the fixture says a crawl reaches is
 * what the crawler fetches (sitemap-listed pages may come on top), each kind of reply recorded
 * as it should be. The acceptance test of issue 15 builds on both.
 */
class AcceptanceSiteCrawlIT {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int MAX_BODY_BYTES = 4096;

  @TempDir Path dir;

  @Test
  void crawl_acceptanceSite_fetchesWhatTheFixtureSaysIsLinked_eachOnce() throws Exception {
    try (AcceptanceSite site = AcceptanceSite.start(MAX_BODY_BYTES)) {
      Files.writeString(dir.resolve("seeds.txt"), site.url(AcceptanceSite.HOME) + "\n");

      CrawlerJar.Run run = new CrawlerJar(dir).run("crawl", "--seeds", "seeds.txt", "--output", "crawl.jsonl",
          "--delay-ms", "0", "--max-body-bytes", Integer.toString(MAX_BODY_BYTES));

      assertThat(run.exitCode()).as(run.stderr()).isZero();
      Map<String, JsonNode> records = Files.readAllLines(dir.resolve("crawl.jsonl")).stream()
          .map(AcceptanceSiteCrawlIT::parse)
          .collect(Collectors.toMap(r -> target(r.get("url").asText()), Function.identity()));
      Set<String> linkedOrListed = new HashSet<>(site.linked());
      linkedOrListed.addAll(site.listed());
      assertThat(records.keySet()).containsAll(site.linked()).isSubsetOf(linkedOrListed);
      assertThat(site.exchanges()).allSatisfy(e -> assertThat(site.requests(e.request().target()))
          .as(e.request().target()).isOne());
      assertThat(site.requests(AcceptanceSite.ROBOTS)).isOne();
      assertThat(site.requests(AcceptanceSite.DISALLOWED)).isZero();

      assertThat(records.get(AcceptanceSite.BIG).get("error").asText()).isEqualTo("truncated");
      assertThat(records.get(AcceptanceSite.MISSING).get("status").asInt()).isEqualTo(404);
      assertThat(records.get(AcceptanceSite.REDIRECT_A).get("status").asInt()).isEqualTo(301);
      assertThat(records.get(AcceptanceSite.REDIRECT_END).get("status").asInt()).isEqualTo(200);
      assertThat(records.get(AcceptanceSite.PNG).get("contentType").asText()).isEqualTo("image/png");
      assertThat(records.get(AcceptanceSite.GZIP).get("newLinks").asInt()).isOne();
      assertThat(records.get(AcceptanceSite.CHUNKED).get("error").isNull()).isTrue();
    }
  }

  private static JsonNode parse(String line) {
    try {
      return JSON.readTree(line);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static String target(String url) {
    URI uri = URI.create(url);
    return uri.getRawPath() + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
  }
}
