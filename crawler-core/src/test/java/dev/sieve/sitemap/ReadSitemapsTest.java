package dev.sieve.sitemap;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sieve.testing.CapturedLogs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReadSitemapsTest {
  @TempDir Path dir;

  @Test
  void resumed_remembersWhatEarlierRunsRead_andAppends() {
    try (ReadSitemaps first = ReadSitemaps.open(dir, false)) {
      first.add("http://a.example/1.xml", Map.of("sitemap.fetched", 1L, "link.new", 3L));
    }
    try (ReadSitemaps second = ReadSitemaps.open(dir, true)) {
      assertThat(second.before()).containsExactly("http://a.example/1.xml");
      second.add("http://a.example/2.xml", Map.of("sitemap.fetched", 1L, "link.seen", 2L));
    }

    ReadSitemaps third = ReadSitemaps.open(dir, true);
    assertThat(third.before()).containsExactly("http://a.example/1.xml", "http://a.example/2.xml");
    assertThat(third.countsBefore()).containsOnly(Map.entry("sitemap.fetched", 2L),
        Map.entry("link.new", 3L), Map.entry("link.seen", 2L));
  }

  @Test
  void lineWrittenBeforeCountsWereKept_readAsASitemapWithNoCounts() throws IOException {
    Files.writeString(dir.resolve(ReadSitemaps.FILE), "http://a.example/1.xml\n");

    ReadSitemaps memo = ReadSitemaps.open(dir, true);

    assertThat(memo.before()).containsExactly("http://a.example/1.xml");
    assertThat(memo.countsBefore()).isEmpty();
  }

  @Test
  void newCrawl_forgetsAnEarlierCrawlsSitemaps_andLeavesNoFileUntilOneIsRead() {
    try (ReadSitemaps old = ReadSitemaps.open(dir, false)) {
      old.add("http://a.example/1.xml", Map.of());
    }

    try (ReadSitemaps fresh = ReadSitemaps.open(dir, false)) {
      assertThat(fresh.before()).isEmpty();
      assertThat(dir.resolve(ReadSitemaps.FILE)).doesNotExist();
    }
  }

  @Test
  void unusableFile_oneWarningAndTheCrawlGoesOn() throws IOException {
    Files.createDirectories(dir.resolve(ReadSitemaps.FILE).resolve("in-the-way"));

    try (CapturedLogs logs = new CapturedLogs(ReadSitemaps.class.getName());
        ReadSitemaps memo = ReadSitemaps.open(dir, true)) {
      memo.add("http://a.example/1.xml", Map.of());

      assertThat(memo.before()).isEmpty();
      assertThat(logs.messages()).singleElement().asString()
          .startsWith("Cannot use " + dir.resolve(ReadSitemaps.FILE))
          .endsWith("the sitemaps read before are read again");
    }
  }
}
