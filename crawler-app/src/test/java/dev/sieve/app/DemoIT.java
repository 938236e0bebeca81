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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Runs {@code crawler.jar demo} as a newcomer would, and checks the crawl against the site. */
class DemoIT {
  private static final Path JAR = Path.of(System.getProperty("crawler.jar", "target/crawler.jar"));
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int PAGES = 1500;
  /** crawl's default --max-query-variants: the demo leaves it to end its calendar trap. */
  private static final int QUERY_VARIANTS = 100;

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
    Set<String> admitted = model.admitted(QUERY_VARIANTS);

    List<JsonNode> records = new ArrayList<>();
    for (String jsonLine : Files.readAllLines(dir.resolve("out/crawl.jsonl"))) {
      records.add(JSON.readTree(jsonLine));
    }
    List<String> crawled = records.stream().map(r -> address(r.get("url").asText(), hostOfPort)).toList();
    assertThat(Set.copyOf(crawled)).isEqualTo(admitted);
    assertThat(crawled).hasSize(admitted.size()).noneMatch(a -> DemoSite.disallowed(a.substring(1)));
    assertThat(records).anyMatch(r -> r.get("status").asInt() == 404)
        .anyMatch(r -> r.get("status").asInt() == 301).anyMatch(r -> r.get("status").asInt() == 302);

    // The trap is bounded by crawl's default --max-query-variants, not by a depth the demo sets.
    assertThat(line(stdout, "Running: crawl")).doesNotContain("--max-depth").doesNotContain("--max-query-variants");
    assertThat(line(stdout, "The calendar trap")).contains("ends at month " + (QUERY_VARIANTS - 1))
        .contains("--max-query-variants " + QUERY_VARIANTS + " refuses month=" + QUERY_VARIANTS);
    assertThat(crawled).filteredOn(a -> a.contains("/calendar?month=")).hasSize(DemoSite.HOSTS * QUERY_VARIANTS)
        .contains(DemoSite.key(0, "/calendar?month=" + (QUERY_VARIANTS - 1)))
        .doesNotContain(DemoSite.key(0, "/calendar?month=" + QUERY_VARIANTS));
    String log = Files.readString(dir.resolve("out/crawl.log"));
    for (int port : hostOfPort.keySet()) {
      String warning = "Query trap: http://127.0.0.1:" + port + "/calendar has more than " + QUERY_VARIANTS
          + " distinct query strings";
      assertThat(log.split(Pattern.quote(warning), -1)).as("one WARN for %s", warning).hasSize(2);
      assertThat(stderr).contains(warning);
    }

    assertThat(stdout).contains("Politeness scaled for loopback");
    assertThat(stderr).contains("Sieve capacity exceeded").contains("dev.sieve.progress");
    assertThat(log).contains("Sieve capacity exceeded");

    Map<String, Long> fates = linkFates(model, admitted, records, hostOfPort);
    assertThat(fates.get("query-trap")).isEqualTo((long) DemoSite.HOSTS);
    assertThat(fates.get("robots-denied")).isPositive();
    assertThat(fates.get("out-of-scope")).isPositive();
    assertThat(fates.get("seen")).isGreaterThan(fates.get("found") / 2);
    assertThat(counts(find(stdout, "\n  links: +\\{(.*)}", 1), "([a-z-]+)=([\\d,]+)"))
        .as("the summary's link fates").isEqualTo(fates);
    Matcher closing = find(stdout, "Of ([\\d,]+) links found on pages, the Sieve let ([\\d,]+) through as new and"
        + " dropped ([\\d,]+) as already seen; ([\\d,]+) were refused before it: (.*)\\.\n");
    Map<String, Long> refused = counts(closing.group(5), "([a-z-]+) ([\\d,]+)");
    Map<String, Long> told = new HashMap<>(refused);
    told.put("found", number(closing.group(1)));
    told.put("new", number(closing.group(2)));
    told.put("seen", number(closing.group(3)));
    assertThat(told).as("the closing paragraph's link fates").isEqualTo(fates);
    assertThat(number(closing.group(4))).isEqualTo(refused.values().stream().mapToLong(Long::longValue).sum());

    long newLinks = records.stream().mapToLong(r -> r.get("newLinks").asLong()).sum();
    long exact = DemoSite.HOSTS + newLinks;
    assertThat(exact).as("the seeds, new links and new redirect targets").isEqualTo(admitted.size());
    long estimate = number(find(stdout, "sieve: +~([\\d,]+) URLs seen", 1));
    assertThat(Math.abs(estimate - exact)).as("estimate %d, exact %d", estimate, exact).isLessThanOrEqualTo(exact / 50);
    Matcher files = find(stdout, "The JSONL is in (\\S+) \\(([\\d,]+) records.* the log in (\\S+)\\.");
    assertThat(Path.of(files.group(1))).isEqualTo(Path.of("out", "crawl.jsonl"));
    assertThat(number(files.group(2))).isEqualTo(records.size());
    assertThat(Path.of(files.group(3))).isEqualTo(Path.of("out", "crawl.log"));
    Matcher sieve = find(stdout, "The Sieve estimates ([\\d,]+) distinct URLs, exactly ([\\d,]+) went through");
    assertThat(number(sieve.group(1))).isEqualTo(estimate);
    assertThat(number(sieve.group(2))).isEqualTo(exact);
    Matcher served = find(stdout, "The site answered ([\\d,]+) requests: ([\\d,]+) for a page its robots.txt"
        + " disallows \\(([\\d,]+) links to such pages refused\\), and ([\\d,]+) for a page more than once\\.");
    assertThat(number(served.group(1))).as("one request per record, and robots.txt per host")
        .isEqualTo(records.size() + DemoSite.HOSTS);
    assertThat(number(served.group(2))).isZero();
    assertThat(number(served.group(3))).isEqualTo(fates.get("robots-denied"));
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
   * The fates of the links of the crawled pages, by the site's model rather than the crawl's
   * counters: off the site, out-of-scope; under /private/, robots-denied (a host's robots.txt is
   * fetched before its pages); on the site but not admitted, query-trap (the only other refusal);
   * the rest reach the Sieve, new as the records say, else seen.
   */
  private static Map<String, Long> linkFates(DemoSite site, Set<String> admitted, List<JsonNode> records,
      Map<Integer, Integer> hostOfPort) {
    Map<String, Long> fates = new HashMap<>();
    long found = 0;
    long sieved = 0;
    long added = 0;
    for (JsonNode record : records) {
      String address = address(record.get("url").asText(), hostOfPort);
      DemoSite.Answer answer = site.answer(address.charAt(0) - '0', address.substring(1));
      if (answer.status() != 200) {
        continue;
      }
      assertThat(record.get("outlinks").asLong()).as(address).isEqualTo(answer.links().size());
      found += answer.links().size();
      added += record.get("newLinks").asLong();
      for (DemoSite.Link link : answer.links()) {
        String fate = link.host() < 0 ? "out-of-scope"
            : DemoSite.disallowed(link.path()) ? "robots-denied"
            : admitted.contains(DemoSite.key(link.host(), link.path())) ? null
            : "query-trap";
        if (fate == null) {
          sieved++;
        } else {
          fates.merge(fate, 1L, Long::sum);
        }
      }
    }
    fates.put("found", found);
    fates.put("new", added);
    fates.put("seen", sieved - added);
    return fates;
  }

  /** {@code name=1,234, other=5} (or {@code name 1,234, …}) as a map, by {@code regex}'s 2 groups. */
  private static Map<String, Long> counts(String text, String regex) {
    Map<String, Long> counts = new HashMap<>();
    Matcher matcher = Pattern.compile(regex).matcher(text);
    while (matcher.find()) {
      counts.put(matcher.group(1), number(matcher.group(2)));
    }
    return counts;
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
