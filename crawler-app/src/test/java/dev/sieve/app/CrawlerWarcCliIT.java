package dev.sieve.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The WARC options as a user meets them: a misuse is exit 2, an unusable directory exit 74. */
class CrawlerWarcCliIT {
  @TempDir Path dir;

  @Test
  void crawl_warcIndexWithoutWarc_usageErrorNamingTheOption() throws Exception {
    Path seeds = Files.writeString(dir.resolve("seeds.txt"), "http://127.0.0.1:9/\n");

    CrawlerJar.Run run = new CrawlerJar(dir).run("crawl", "--seeds", seeds.toString(), "--warc-index");

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.stderr()).contains("--warc-index (set) needs --warc DIR");
  }

  @Test
  void crawl_warcMaxSizeTooSmall_usageErrorNamingTheOption() throws Exception {
    Path seeds = Files.writeString(dir.resolve("seeds.txt"), "http://127.0.0.1:9/\n");

    CrawlerJar.Run run = new CrawlerJar(dir).run("crawl", "--seeds", seeds.toString(),
        "--warc", "warc", "--warc-max-size", "100");

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.stderr()).contains("Invalid setting: --warc-max-size (100) must be >= 16384");
  }

  @Test
  void crawl_warcUnderARegularFile_exit74WithOneLineNamingIt() throws Exception {
    Path seeds = Files.writeString(dir.resolve("seeds.txt"), "http://127.0.0.1:9/\n");
    Files.writeString(dir.resolve("file"), "x");

    CrawlerJar.Run run = new CrawlerJar(dir).run("crawl", "--seeds", seeds.toString(),
        "--warc", "file/warc");

    assertThat(run.exitCode()).as(run.stderr()).isEqualTo(CrawlCommand.EXIT_IO);
    assertThat(run.stderr().strip()).startsWith("cannot create WARC directory file/warc: ")
        .doesNotContain("\n").doesNotContain("Exception");
  }
}
