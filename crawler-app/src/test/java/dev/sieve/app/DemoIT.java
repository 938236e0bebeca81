package dev.sieve.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Runs {@code crawler.jar demo} as a newcomer would, and checks the crawl against the site. */
class DemoIT {
  private static final Path JAR = Path.of(System.getProperty("crawler.jar", "target/crawler.jar"));
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int PAGES = 1500;

  @TempDir Path dir;

  @Test
  void demo_smallSite_crawlsEveryReachablePageOnceAndReportsTheSieveTruthfully() throws Exception {
    Process process = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-Xmx512m", "-jar", JAR.toAbsolutePath().toString(), "demo", "--pages", Integer.toString(PAGES),
            "--output", "out")
        .directory(dir.toFile())
        .redirectOutput(dir.resolve("stdout.txt").toFile())
        .redirectError(dir.resolve("stderr.txt").toFile())
        .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
        .start();
    boolean finished = process.waitFor(120, TimeUnit.SECONDS);
    if (!finished) {
      process.destroyForcibly();
    }
    String stdout = Files.readString(dir.resolve("stdout.txt"));
    String stderr = Files.readString(dir.resolve("stderr.txt"));
    // The calendar trap links month N+1 from every month N: only a bound ends the crawl.
    assertThat(finished).as("demo finished in 120 s; stderr:%n%s", stderr).isTrue();
    assertThat(process.exitValue()).as(stderr).isZero();

    Map<Integer, Integer> hostOfPort = new HashMap<>();
    Matcher origins = Pattern.compile("http://127\\.0\\.0\\.1:(\\d+)").matcher(line(stdout, "Demo site:"));
    while (origins.find()) {
      hostOfPort.put(Integer.parseInt(origins.group(1)), hostOfPort.size());
    }
    assertThat(hostOfPort).hasSize(DemoSite.HOSTS);
    DemoSite model = new DemoSite(PAGES);
    Map<String, Integer> admitted = model.admitted(DemoCommand.MAX_DEPTH);
    Set<String> reachable = admitted.keySet().stream()
        .filter(address -> !DemoSite.disallowed(address.substring(1))).collect(Collectors.toSet());

    List<JsonNode> records = new ArrayList<>();
    for (String jsonLine : Files.readAllLines(dir.resolve("out/crawl.jsonl"))) {
      records.add(JSON.readTree(jsonLine));
    }
    List<String> crawled = records.stream().map(r -> address(r.get("url").asText(), hostOfPort)).toList();
    assertThat(Set.copyOf(crawled)).isEqualTo(reachable);
    assertThat(crawled).hasSize(reachable.size());
    assertThat(crawled).filteredOn(a -> a.contains("/calendar?month=")).hasSize(DemoSite.HOSTS * DemoCommand.MAX_DEPTH);
    assertThat(records).anyMatch(r -> r.get("status").asInt() == 404)
        .anyMatch(r -> r.get("status").asInt() == 301).anyMatch(r -> r.get("status").asInt() == 302);

    assertThat(stdout).contains("Politeness scaled for loopback");
    assertThat(stderr).contains("Sieve capacity exceeded").contains("dev.sieve.progress");
    assertThat(Files.readString(dir.resolve("out/crawl.log"))).contains("Sieve capacity exceeded");

    long linksFound = records.stream().mapToLong(r -> r.get("outlinks").asLong()).sum();
    long newLinks = records.stream().mapToLong(r -> r.get("newLinks").asLong()).sum();
    long exact = DemoSite.HOSTS + newLinks;
    assertThat(exact).isEqualTo(admitted.size());
    long estimate = number(find(stdout, "sieve: +~([\\d,]+) URLs seen", 1));
    assertThat(Math.abs(estimate - exact)).as("estimate %d, exact %d", estimate, exact).isLessThanOrEqualTo(exact / 50);
    long robotsDenied = number(find(stdout, "robots-denied=([\\d,]+)", 1));
    assertThat(robotsDenied).isEqualTo(admitted.size() - reachable.size()).isPositive();
    long followable = records.stream().mapToLong(r -> followableLinks(model, r, hostOfPort)).sum();

    Matcher files = find(stdout, "The JSONL is in (\\S+) \\(([\\d,]+) records.* the log in (\\S+)\\.");
    assertThat(Path.of(files.group(1))).isEqualTo(Path.of("out", "crawl.jsonl"));
    assertThat(number(files.group(2))).isEqualTo(records.size());
    assertThat(Path.of(files.group(3))).isEqualTo(Path.of("out", "crawl.log"));
    Matcher sieve = find(stdout, "Of ([\\d,]+) links found, the Sieve dropped ([\\d,]+) as already seen\\. It estimates"
        + " ([\\d,]+) distinct URLs, exactly ([\\d,]+) went through");
    assertThat(number(sieve.group(1))).isEqualTo(linksFound);
    assertThat(number(sieve.group(2))).isEqualTo(followable - newLinks).isGreaterThan(linksFound / 2);
    assertThat(number(sieve.group(3))).isEqualTo(estimate);
    assertThat(number(sieve.group(4))).isEqualTo(exact);
    Matcher served = find(stdout, "The site answered ([\\d,]+) requests: ([\\d,]+) for the ([\\d,]+) pages its"
        + " robots.txt disallows, and ([\\d,]+) for a page more than once\\.");
    assertThat(number(served.group(1))).as("one request per record, and robots.txt per host")
        .isEqualTo(records.size() + DemoSite.HOSTS);
    assertThat(number(served.group(2))).isZero();
    assertThat(number(served.group(3))).isEqualTo(robotsDenied);
    assertThat(number(served.group(4))).isZero();
    assertThat(line(stdout, "Crawl your own seeds:")).endsWith("crawl --seeds config/seeds.txt");
  }

  /** The site's key of a crawled URL: the host's index, then the path and query. */
  private static String address(String url, Map<Integer, Integer> hostOfPort) {
    URI uri = URI.create(url);
    String path = uri.getRawPath() + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
    return DemoSite.key(hostOfPort.get(uri.getPort()), path);
  }

  /**
   * The links of a crawled page that reach the Sieve, by the site's model: those on the site and
   * within the depth limit (a redirect's target keeps the redirect's depth). Each is new or seen.
   */
  private static long followableLinks(DemoSite site, JsonNode record, Map<Integer, Integer> hostOfPort) {
    String address = address(record.get("url").asText(), hostOfPort);
    DemoSite.Answer answer = site.answer(address.charAt(0) - '0', address.substring(1));
    int depth = record.get("depth").asInt() + (answer.isRedirect() ? 0 : 1);
    return depth > DemoCommand.MAX_DEPTH ? 0 : answer.links().stream().filter(link -> link.host() >= 0).count();
  }

  private static String line(String text, String start) {
    return text.lines().filter(l -> l.startsWith(start)).findFirst()
        .orElseThrow(() -> new AssertionError("no line starting '" + start + "' in:\n" + text));
  }

  private static Matcher find(String text, String regex) {
    Matcher matcher = Pattern.compile(regex).matcher(text);
    if (!matcher.find()) {
      throw new AssertionError("no match for /" + regex + "/ in:\n" + text);
    }
    return matcher;
  }

  private static String find(String text, String regex, int group) {
    return find(text, regex).group(group);
  }

  private static long number(String digits) {
    return Long.parseLong(digits.replace(",", ""));
  }
}
