package dev.sieve.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class ReportOptionsTest {
  private final CrawlCommand crawl = new CrawlCommand();
  private final CommandLine line = new CommandLine(crawl);

  @Test
  void file_byDefault_isReportHtmlBesideTheOutput() {
    line.parseArgs("--seeds", "s.txt", "--output", "out/crawl.jsonl");

    assertThat(crawl.reportOptions.file(crawl.output, line.getParseResult()))
        .isEqualTo(Path.of("out", "REPORT.html"));
  }

  @Test
  void file_noReportOrReportGiven_isNoneOrTheGivenFile() {
    line.parseArgs("--seeds", "s.txt", "--no-report");
    assertThat(crawl.reportOptions.file(crawl.output, line.getParseResult())).isNull();

    CrawlCommand other = new CrawlCommand();
    CommandLine otherLine = new CommandLine(other);
    otherLine.parseArgs("--seeds", "s.txt", "--report", "r/x.html");
    assertThat(other.reportOptions.file(other.output, otherLine.getParseResult()))
        .isEqualTo(Path.of("r/x.html"));
  }

  @Test
  void misuse_bothOnTheCommandLine_namesBoth() {
    line.parseArgs("--seeds", "s.txt", "--no-report", "--report", "x.html");

    assertThat(crawl.reportOptions.misuse(line.getParseResult()))
        .isEqualTo("--report FILE and --no-report contradict each other: give one");
  }

  @Test
  void settings_valuesThatMayHoldSecrets_areMaskedOrHidden() {
    line.parseArgs("--seeds", "s.txt", "--frontier", "redis://user:s3cret@127.0.0.1:6379/0",
        "--user-agent", "Bot/1");

    Map<String, String> settings = ReportOptions.settings(line.getCommandSpec());

    assertThat(settings).containsEntry("--frontier", "redis://***@127.0.0.1:6379/0")
        .containsEntry("--user-agent", "Bot/1").containsEntry("--seeds", "s.txt")
        .doesNotContainKeys("--help", "--version");
    assertThat(settings.values()).noneMatch(v -> v.contains("s3cret"));
  }
}
