package dev.sieve.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sieve.testing.ReadWarc;
import dev.sieve.testing.ReadWarc.Read;
import dev.sieve.testing.TestSite;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * kill -9 during a crawl with --warc, resumed several times: every WARC file, closed or recovered,
 * reads to its end, and every record with a status has its response (or revisit) archived.
 */
class CrawlerWarcKillIT {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;

  @Test
  void crawlWithWarc_killedAndResumed_everyFileValidAndNoResponseLost() throws Exception {
    WarcioReader warcio = WarcioReader.require();
    Path warc = dir.resolve("warc");
    CrawlerJar jar = new CrawlerJar(dir);
    try (TestSite site = TestSite.start(1200)) {
      Path seeds = Files.writeString(dir.resolve("seeds.txt"), site.url("/p/0.html") + "\n");
      Path output = dir.resolve("crawl.jsonl");
      String[] args = {"crawl", "--seeds", seeds.toString(), "--output", output.toString(),
          "--state", dir.resolve("state").toString(), "--threads", "4", "--per-host", "4",
          "--delay-ms", "0", "--checkpoint-interval", "1", "--expected-urls", "100000",
          "--warc", warc.toString(), "--warc-max-size", "150000", "--warc-index"};
      Random random = new Random(15);
      int kills = 3;
      for (int k = 0; k < kills; k++) {
        long before = JsonlFiles.lines(output);
        Process crawler = jar.start(args).process();
        JsonlFiles.awaitLines(output, before + 50 + random.nextInt(250), crawler);
        crawler.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        assertThat(crawler.exitValue()).as("killed by SIGKILL").isEqualTo(137);
      }
      CrawlerJar.Run last = jar.start(args).finish();
      assertThat(last.exitCode()).as(last.stderr()).isZero();

      String logs = Files.readString(dir.resolve("run-" + (kills + 1) + ".err"))
          + Files.readString(dir.resolve("run-" + (kills + 1) + ".out"));
      assertThat(logs).contains("left open by a crash");
      List<Path> files;
      try (Stream<Path> list = Files.list(warc)) {
        files = list.sorted().toList();
      }
      assertThat(files).noneMatch(f -> f.toString().endsWith(".open"));
      Set<String> archived = new HashSet<>();
      int warcs = 0;
      for (Path file : files) {
        if (!file.toString().endsWith(".warc.gz")) {
          continue;
        }
        warcs++;
        List<Read> records = ReadWarc.records(file); // to the end, or it throws
        assertThat(records.get(0).type()).as(file.toString()).isEqualTo("warcinfo");
        for (Read record : records) {
          if (record.type().equals("response") || record.type().equals("revisit")) {
            archived.add(record.header("WARC-Target-URI").orElseThrow());
            assertThat(record.record().blockDigest().orElseThrow().base32())
                .isEqualTo(record.blockSha1());
          }
        }
        // An independent reader finds the same records, every one complete.
        assertThat(warcio.read(file).records()).as(file.toString()).isEqualTo(records.size());
        String name = file.getFileName().toString();
        assertThat(warc.resolve(name.replace(".warc.gz", ".cdxj"))).exists();
      }
      assertThat(warcs).isGreaterThan(kills + 1);
      long withStatus = 0;
      for (String line : Files.readAllLines(output)) {
        JsonNode record = JSON.readTree(line);
        if (record.get("status").asInt() > 0) {
          withStatus++;
          assertThat(archived).as("archived response of a recorded URL")
              .contains(record.get("url").asText());
        }
      }
      assertThat(withStatus).isGreaterThan(1200);
      assertThat(archived).contains(site.url("/robots.txt"));
    }
  }
}
