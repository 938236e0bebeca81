package dev.sieve.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code crawl --recrawl-after}: its durations, and the combinations refused as usage errors (exit
 * 2) naming the option, before any output is written.
 */
class RecrawlOptionsTest {
  @TempDir Path dir;

  private final OptionConverters.DurationConverter durations = new OptionConverters.DurationConverter();

  @Test
  void duration_wholeNumberAndUnit_parsed() {
    assertThat(durations.convert("500ms")).isEqualTo(Duration.ofMillis(500));
    assertThat(durations.convert("2s")).isEqualTo(Duration.ofSeconds(2));
    assertThat(durations.convert("10m")).isEqualTo(Duration.ofMinutes(10));
    assertThat(durations.convert(" 6H ")).isEqualTo(Duration.ofHours(6));
    assertThat(durations.convert("1d")).isEqualTo(Duration.ofDays(1));
  }

  @Test
  void duration_withoutUnitOrNotWhole_namesTheForm() {
    for (String bad : List.of("2", "1.5h", "2 weeks", "-1s", "s", "PT2S")) {
      assertThatThrownBy(() -> durations.convert(bad)).as(bad)
          .isInstanceOf(CommandLine.TypeConversionException.class)
          .hasMessage("'" + bad + "' is not a duration: use a whole number and a unit, ms, s, m,"
              + " h or d (e.g. 30s, 10m, 1d)");
    }
  }

  @Test
  void withoutState_refused() throws IOException {
    assertThat(usageError("--recrawl-after", "2s")).startsWith("--recrawl-after needs --state DIR:"
        + " a recrawl runs until stopped and resumes its schedule from there\n");
  }

  @Test
  void sharedFrontier_refused() throws IOException {
    assertThat(usageError("--recrawl-after", "2s", "--frontier", "redis://127.0.0.1:1",
        "--crawl-id", "c")).startsWith("--recrawl-after needs the local frontier: a Redis frontier"
            + " cannot schedule refetches; drop --frontier\n");
    assertThat(usageError("--recrawl-after", "2s", "--frontier", "urlfrontier://127.0.0.1:1"))
        .startsWith("--recrawl-after needs the local frontier: a URL Frontier service cannot"
            + " schedule refetches; drop --frontier\n");
  }

  @Test
  void belowOneSecond_refusedNamingTheOption() throws IOException {
    assertThat(usageError("--recrawl-after", "500ms", "--state", dir.resolve("state").toString()))
        .startsWith("Invalid setting: --recrawl-after (PT0.5S) must be >= 1 s\n");
  }

  private String usageError(String... args) throws IOException {
    return CrawlUsage.error(dir, args);
  }
}
