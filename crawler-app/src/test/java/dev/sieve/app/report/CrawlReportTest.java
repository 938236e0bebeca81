package dev.sieve.app.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sieve.crawl.CrawlProgress;
import dev.sieve.crawl.PageRecord;
import dev.sieve.frontier.CapacityWarning;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CrawlReportTest {
  private static final Instant AT = Instant.parse("2026-11-27T09:00:00Z");
  private static final Pattern PATH = Pattern.compile("<path[^>]* d=\"([^\"]*)\"");

  @TempDir Path dir;

  @Test
  void html_millionRecordsOnHundredThousandHostsOverElevenDays_staysUnderTwoMegabytes() {
    CrawlReport report = new CrawlReport(Map.of("--seeds", "seeds.txt"), 1000, 10_000_000);
    int records = 1_000_000;
    long newLinks = 0;
    for (int i = 0; i < records; i++) {
      boolean error = i % 17 == 0;
      report.onPage(PageRecord.builder("https://host-" + (i % 100_000) + ".example/page/" + i, AT)
          .response(error ? 404 : 200, "text/html", 20_000, 120).error(error ? "http-404" : null, null)
          .build());
      newLinks += 12;
      // One sample a second over a crawl of a million seconds: the series must downsample.
      report.sample(progress(Duration.ofSeconds(i + 1), i + 1, (i + 1) / 17 + 1, newLinks));
      if (i % 1000 == 999) {
        report.onCapacityWarning(new CapacityWarning(1 + i / 1000, newLinks, 10_000_000, 1e-5, 1e-6));
      }
    }
    String html = report.html(progress(Duration.ofSeconds(records), records, records / 17 + 1, newLinks),
        true, AT);
    int bytes = html.getBytes(StandardCharsets.UTF_8).length;
    System.out.printf("REPORT.html for %,d records on 100,000 hosts: %,d bytes%n", records, bytes);

    assertThat(bytes).isLessThan(2 * 1024 * 1024);
    assertThat(figure(html, "pages")).isEqualTo("1000000");
    assertThat(html).contains("data-host-pages=\"host-")
        .contains("hosts past the first 10,000 are counted together as (other hosts)");
    // The time series kept at most 600 points, the latest (the summary's) last.
    String pagesPerSecond = linePath(html, "pages/s");
    assertThat(pagesPerSecond.split("L")).hasSizeBetween(300, CrawlReport.SERIES_POINTS);
    assertThat(html).contains("the first " + CrawlReport.MAX_MARKERS + ")");
  }

  @Test
  void html_hostileUrlsAndSettings_areEscaped() {
    CrawlReport report = new CrawlReport(Map.of("--user-agent", "</td><script>alert(2)</script>"), 1, 1000);
    report.onPage(PageRecord.builder("http://\"><b onmouseover=alert(1)>.test:80/", AT)
        .response(200, "text/html", 10, 1).build());
    String html = report.html(progress(Duration.ofSeconds(2), 1, 0, 3), true, AT);

    assertThat(html).doesNotContain("<script>alert").doesNotContain("<b onmouseover")
        .contains("&quot;&gt;&lt;b onmouseover=alert(1)&gt;.test:80")
        .contains("&lt;/td&gt;&lt;script&gt;alert(2)&lt;/script&gt;");
    assertThat(html.split("<script>", -1)).as("only the report's own script").hasSize(2);
  }

  @Test
  void html_figuresAreTheLatestProgressAndTheChartsAreDrawn() {
    CrawlReport report = new CrawlReport(Map.of(), 3, 100);
    for (int s = 1; s <= 10; s++) {
      report.sample(progress(Duration.ofSeconds(s), 10L * s, s, 12L * s));
    }
    report.onCapacityWarning(new CapacityWarning(1.0, 104, 100, 2e-6, 1e-6));
    CrawlProgress last = progress(Duration.ofMillis(10_500), 107, 11, 125);
    String html = report.html(last, true, AT);

    assertThat(figure(html, "pages")).isEqualTo("107");
    assertThat(figure(html, "errors")).isEqualTo("11");
    assertThat(figure(html, "errors.http-4xx")).isEqualTo("11");
    assertThat(figure(html, "sieve.estimate")).isEqualTo("130");
    assertThat(figure(html, "sieve.exact")).isEqualTo("128");
    assertThat(figure(html, "sieve.capacity")).isEqualTo("100");
    assertThat(figure(html, "sieve.fpp")).isEqualTo("1.0e-06");
    assertThat(html).contains("data-finished=\"true\"").contains("class=\"marker\"")
        .contains("WARN at 10.5 s: estimate 104 passed 1.0× the capacity of 100");
    // Each chart drew its lines: 10 rates, 11 Sieve points.
    assertThat(linePath(html, "pages/s").split("L")).hasSize(10);
    assertThat(linePath(html, "estimated").split("L")).hasSize(11);
    Matcher paths = PATH.matcher(html);
    int drawn = 0;
    while (paths.find()) {
      drawn += paths.group(1).length() > 3 ? 1 : 0;
    }
    assertThat(drawn).isGreaterThan(10);
  }

  @Test
  void write_replacesTheFileWholeAndLeavesNoTemporaryFile() throws Exception {
    CrawlReport report = new CrawlReport(Map.of(), 1, 100);
    Path file = dir.resolve("sub/REPORT.html");
    report.write(file, progress(Duration.ofSeconds(1), 1, 0, 0), false, AT);
    assertThat(Files.readString(file)).contains("data-finished=\"false\"");

    report.write(file, progress(Duration.ofSeconds(2), 5, 0, 4), true, AT);

    assertThat(Files.readString(file)).contains("data-finished=\"true\"").endsWith("</html>\n");
    try (var entries = Files.list(file.getParent())) {
      assertThat(entries).containsExactly(file);
    }
  }

  /** The {@code d} of the line titled {@code name}. */
  private static String linePath(String html, String name) {
    Matcher m = Pattern.compile("<path class=\"line\"[^>]* d=\"([^\"]*)\"><title>" + Pattern.quote(name) + "<")
        .matcher(html);
    assertThat(m.find()).as("a line named " + name).isTrue();
    return m.group(1);
  }

  static String figure(String html, String key) {
    Matcher m = Pattern.compile("data-figure=\"" + Pattern.quote(key) + "\" data-value=\"([^\"]*)\"").matcher(html);
    assertThat(m.find()).as("figure " + key).isTrue();
    return m.group(1);
  }

  private static CrawlProgress progress(Duration elapsed, long pages, long errors, long newLinks) {
    return new CrawlProgress(elapsed, pages, pages * 20_000, 5, 2, 3,
        errors == 0 ? Map.of() : Map.of("http-4xx", errors), Map.of(), 0, newLinks * 3, newLinks,
        newLinks + 5, 1e-6, 1, 0, Map.of("found", newLinks * 3, "new", newLinks, "seen", newLinks * 2),
        Map.of(), CrawlProgress.Connections.NONE, Map.of(), 0, 0, 0);
  }
}
