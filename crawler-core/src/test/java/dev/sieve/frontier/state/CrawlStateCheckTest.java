package dev.sieve.frontier.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A state directory is resumed only when whole, and only with the seeds it began with. */
class CrawlStateCheckTest {
  private static final Map<String, String> SETTINGS = Map.of("expected-urls", "1000", "filter", "blocked",
      "fpp", "1.0E-6", "hash-id", "1", "on-capacity", "grow", "queue-key", "host", "scope", "host");
  private static final List<String> SEEDS = List.of("http://a.example/", "http://b.example/");

  @TempDir Path dir;

  @Test
  void resumable_absentEmptyOrLockOnly_isANewCrawl() throws Exception {
    assertThat(CrawlState.resumable(dir.resolve("absent"))).isFalse();
    assertThat(CrawlState.resumable(dir)).isFalse();
    Files.writeString(dir.resolve("lock"), "");
    assertThat(CrawlState.resumable(dir)).isFalse();
  }

  @Test
  void resumable_journalsWithoutSettings_refusedNamingTheMissingFile() throws Exception {
    Files.writeString(dir.resolve("journal-3.log"), "");

    assertThatThrownBy(() -> CrawlState.resumable(dir)).isInstanceOf(CrawlStateException.class)
        .hasMessageContaining("settings.properties is missing (it holds journal-3.log)")
        .hasMessageContaining("--fresh");
  }

  @Test
  void resumable_settingsLackingKeys_refusedNamingThem() throws Exception {
    Files.writeString(dir.resolve("settings.properties"), "filter=blocked\nfpp=1e-6\n");

    assertThatThrownBy(() -> CrawlState.resumable(dir)).isInstanceOf(CrawlStateException.class)
        .hasMessageContaining("lacks expected-urls, hash-id, on-capacity, queue-key");
  }

  @Test
  void resumable_aRegularFile_refused() throws Exception {
    Path file = Files.writeString(dir.resolve("state"), "x");

    assertThatThrownBy(() -> CrawlState.resumable(file)).hasMessageContaining("it is not a directory");
  }

  @Test
  void open_resumeWithOtherSeeds_refusedWithTheDifference() throws Exception {
    CrawlState.open(dir, SETTINGS, false, SEEDS, false).close();

    assertThatThrownBy(() -> CrawlState.open(dir, SETTINGS, false,
        List.of("http://a.example/", "http://c.example/", "http://d.example/"), false))
        .isInstanceOf(CrawlStateException.class)
        .hasMessageContaining("2 seeds added, 1 removed (first added: http://c.example/;"
            + " first removed: http://b.example/)");
    assertThat(CrawlState.resumable(dir)).as("the refusal left the state whole").isTrue();
  }

  @Test
  void open_resumeWithAddSeeds_keepsTheSavedSeedsAndAddsTheNew() throws Exception {
    CrawlState.open(dir, SETTINGS, false, SEEDS, false).close();

    try (CrawlState state = CrawlState.open(dir, SETTINGS, false, List.of("http://c.example/"), true)) {
      assertThat(state.resumed()).isTrue();
      assertThat(state.seeds()).containsExactly("http://a.example/", "http://b.example/", "http://c.example/");
    }
    try (CrawlState state = CrawlState.open(dir, SETTINGS, false,
        List.of("http://a.example/", "http://b.example/", "http://c.example/"), false)) {
      assertThat(state.seeds()).as("the added seed is saved").hasSize(3);
    }
  }

  @Test
  void open_resumeWithOtherScope_refusedNamingIt() throws Exception {
    CrawlState.open(dir, SETTINGS, false, SEEDS, false).close();
    Map<String, String> domain = new java.util.HashMap<>(SETTINGS);
    domain.put("scope", "domain");

    assertThatThrownBy(() -> CrawlState.open(dir, domain, false, SEEDS, false))
        .hasMessageContaining("scope domain (the saved crawl has host)");
  }
}
