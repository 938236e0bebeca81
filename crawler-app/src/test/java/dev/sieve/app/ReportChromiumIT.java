package dev.sieve.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sieve.units.Units;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code demo}'s REPORT.html opened in a real headless Chromium (Debian's package): the charts are
 * drawn, no script error or blocked fetch, and the figures in the page are the summary's and the
 * JSONL's. Leaves a screenshot in {@code target/report-screenshot.png}.
 */
class ReportChromiumIT {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Path SCREENSHOT = Path.of("target", "report-screenshot.png");
  private static final Pattern FIGURE = Pattern.compile("data-figure=\"([^\"]+)\" data-value=\"([^\"]*)\"");

  @TempDir Path dir;

  @Test
  void demoReport_inHeadlessChromium_drawsItsChartsWithoutErrorsAndShowsTheSummarysFigures()
      throws Exception {
    Path chromium = chromium();
    CrawlerJar.Run demo = new CrawlerJar(dir).run("demo", "--pages", "600", "--output", "out");
    assertThat(demo.exitCode()).as(demo.stderr()).isZero();
    Path report = dir.resolve("out/REPORT.html");
    assertThat(demo.stdout()).contains("  report:            out/REPORT.html");
    System.out.printf("REPORT.html after demo --pages 600: %,d bytes%n", Files.size(report));

    Browser dom = browse(chromium, "--dump-dom", report);
    assertThat(dom.exitCode).as(dom.stderr).isZero();
    String page = dom.stdout;
    assertThat(page).contains("data-report=\"sieve-crawl\"").contains("data-finished=\"true\"")
        .doesNotContain("data-errors=");
    assertThat(attribute(page, "data-drawn-paths")).as("paths the page's script found drawn")
        .isGreaterThan(20);
    assertThat(lineOf(page, "pages/s").split("L")).as("pages/s points").hasSizeGreaterThan(2);
    assertThat(lineOf(page, "estimated").split("L")).hasSizeGreaterThan(2);
    assertThat(lineOf(page, "exact").split("L")).hasSizeGreaterThan(2);
    assertThat(page).containsPattern("<g data-host-pages=\"127\\.0\\.0\\.1:\\d+\" data-value=\"\\d+\">"
        + "<text[^>]*>[^<]+</text><path fill=\"#[0-9a-f]+\" d=\"M[^\"]{8,}\"");
    assertThat(dom.stderr).as("console messages (errors, blocked loads)")
        .doesNotContainPattern("CONSOLE|Uncaught|Refused to");

    Map<String, String> figures = figures(page);
    String stdout = demo.stdout();
    assertThat(figures.get("pages")).isEqualTo(number(summary(stdout, "pages"), "^([\\d,]+) "));
    assertThat(figures.get("errors")).isEqualTo(number(summary(stdout, "errors"), "^([\\d,]+) "));
    assertThat(figures.get("retries")).isEqualTo(number(summary(stdout, "retries"), "^([\\d,]+)$"));
    assertThat(figures.get("pending")).isEqualTo(number(summary(stdout, "pending at end"), "^([\\d,]+)$"));
    assertThat(figures.get("sieve.estimate")).isEqualTo(number(summary(stdout, "sieve"), "^~([\\d,]+) "));
    assertThat(figures.get("sieve.fpp")).isEqualTo(summary(stdout, "sieve").replaceAll(".* fpp ", ""));
    assertThat(figures.get("capacityWarnings")).isEqualTo(number(summary(stdout, "capacity warnings"), "^([\\d,]+)$"));
    assertThat(Units.bytes(Long.parseLong(figures.get("bytes")))).isEqualTo(summary(stdout, "bytes"));
    assertThat(counts(figures, "links.")).isEqualTo(summary(stdout, "links"));
    assertThat(counts(figures, "errors.")).isEqualTo(summary(stdout, "errors").replaceAll("^[\\d,]+ ", ""));
    assertThat(Integer.parseInt(figures.get("capacityWarnings"))).as("the demo's Sieve is undersized").isPositive();
    assertThat(page.split("class=\"marker\"", -1)).as("each capacity WARN marked")
        .hasSize(Integer.parseInt(figures.get("capacityWarnings")) + 1);

    // The hosts' figures are the JSONL's records, counted here one by one.
    Map<String, Long> pagesByHost = new TreeMap<>();
    Map<String, Long> errorsByHost = new TreeMap<>();
    for (String line : Files.readAllLines(dir.resolve("out/crawl.jsonl"))) {
      JsonNode record = JSON.readTree(line);
      String host = record.get("url").asText().replaceFirst("^https?://", "").replaceFirst("/.*", "");
      pagesByHost.merge(host, 1L, Long::sum);
      errorsByHost.merge(host, record.get("error").isNull() ? 0L : 1L, Long::sum);
    }
    errorsByHost.values().removeIf(n -> n == 0);
    assertThat(pagesByHost.values().stream().mapToLong(Long::longValue).sum())
        .isEqualTo(Long.parseLong(figures.get("pages")));
    assertThat(bars(page, "host-pages")).isEqualTo(pagesByHost);
    assertThat(bars(page, "host-errors")).isEqualTo(errorsByHost);

    Path png = dir.resolve("report.png");
    Browser shot = browse(chromium, "--screenshot=" + png, report, "--hide-scrollbars", "--window-size=900,3400");
    assertThat(shot.exitCode).as(shot.stderr).isZero();
    assertThat(Files.size(png)).as("screenshot bytes").isGreaterThan(20_000);
    Files.createDirectories(SCREENSHOT.getParent());
    Files.copy(png, SCREENSHOT, StandardCopyOption.REPLACE_EXISTING);
  }

  /** Chromium, or a failure under CI=true (.ci/run installs it), else the test skipped. */
  private static Path chromium() {
    for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
      Path candidate = Path.of(dir, "chromium");
      if (Files.isExecutable(candidate)) {
        return candidate;
      }
    }
    String message = "chromium is not on PATH: the report's browser test needs it"
        + " (apt-get install -y chromium; .ci/run does)";
    if ("true".equalsIgnoreCase(System.getenv("CI"))) {
      Assertions.fail(message);
    }
    Assumptions.abort(message + "; skipped because CI is not set");
    throw new AssertionError("unreachable");
  }

  private record Browser(int exitCode, String stdout, String stderr) {}

  /** Runs headless Chromium on {@code file} with a new empty profile, offline (loopback only). */
  private Browser browse(Path chromium, String action, Path file, String... more)
      throws IOException, InterruptedException {
    Path profile = Files.createTempDirectory(dir, "profile");
    List<String> command = new ArrayList<>(List.of(chromium.toString(), "--headless", "--no-sandbox",
        "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--enable-logging=stderr", "--v=0",
        "--user-data-dir=" + profile));
    command.addAll(List.of(more));
    command.add(action);
    command.add(file.toUri().toString());
    Path out = Files.createTempFile(dir, "chromium", ".out");
    Path err = Files.createTempFile(dir, "chromium", ".err");
    Process process = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile())
        .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
    if (!process.waitFor(120, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new AssertionError("chromium did not finish in 120 s: " + Files.readString(err));
    }
    return new Browser(process.exitValue(), Files.readString(out), Files.readString(err));
  }

  private static int attribute(String page, String name) {
    Matcher m = Pattern.compile(name + "=\"(\\d+)\"").matcher(page);
    assertThat(m.find()).as(name + " in the DOM").isTrue();
    return Integer.parseInt(m.group(1));
  }

  private static String lineOf(String page, String name) {
    Matcher m = Pattern.compile("<path class=\"line\"[^>]* d=\"([^\"]*)\"><title>" + Pattern.quote(name) + "<")
        .matcher(page);
    assertThat(m.find()).as("a line named " + name).isTrue();
    return m.group(1);
  }

  private static Map<String, String> figures(String page) {
    Map<String, String> figures = new LinkedHashMap<>();
    Matcher m = FIGURE.matcher(page);
    while (m.find()) {
      figures.put(m.group(1), m.group(2));
    }
    return figures;
  }

  /** The figures under {@code prefix} as the summary writes a map: {@code {a=1, b=2}}. */
  private static String counts(Map<String, String> figures, String prefix) {
    Map<String, Long> counts = new LinkedHashMap<>();
    figures.keySet().stream().filter(k -> k.startsWith(prefix)).forEach(k ->
        counts.put(k.substring(prefix.length()), Long.parseLong(figures.get(k))));
    return ProgressReporter.counts(counts);
  }

  /** Each bar of a chart keyed {@code key}: its label and value. */
  private static Map<String, Long> bars(String page, String key) {
    Map<String, Long> bars = new TreeMap<>();
    Matcher m = Pattern.compile("<g data-" + key + "=\"([^\"]+)\" data-value=\"(\\d+)\"").matcher(page);
    while (m.find()) {
      bars.put(m.group(1), Long.parseLong(m.group(2)));
    }
    return bars;
  }

  /** The text after {@code "  NAME:"} on the summary's line. */
  private static String summary(String stdout, String name) {
    Matcher m = Pattern.compile("(?m)^  " + Pattern.quote(name) + ": +(.*)$").matcher(stdout);
    assertThat(m.find()).as("summary line " + name + " in:%n" + stdout).isTrue();
    return m.group(1).strip();
  }

  private static String number(String text, String regex) {
    Matcher m = Pattern.compile(regex).matcher(text);
    assertThat(m.find()).as(regex + " in " + text).isTrue();
    return m.group(1).replace(",", "");
  }
}
