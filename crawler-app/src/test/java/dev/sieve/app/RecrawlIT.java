package dev.sieve.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sieve.testing.Routes;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import mockwebserver3.MockWebServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code crawl --recrawl-after} run as a user runs it, on a 3-page loopback site: each page is
 * fetched again and again, never two fetches of one page closer than the interval (the JSONL
 * records' times say), and a {@code kill -9} then a resume keeps the schedule.
 */
class RecrawlIT {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration INTERVAL = Duration.ofSeconds(2);

  @TempDir Path dir;

  /** One fetch's record: its URL, time and refetch number. */
  private record Fetch(String url, Instant at, int refetch, int line) {}

  @Test
  void recrawlAfter2s_threePages_eachFetchedThreeTimesIn7s_neverCloserThan2sAcrossAKill()
      throws Exception {
    try (MockWebServer server = site()) {
      String base = "http://127.0.0.1:" + server.getPort();
      CrawlerJar jar = new CrawlerJar(dir);
      String[] args = args(base, "2s", "500");

      CrawlerJar.Started first = jar.start(args);
      List<Fetch> before = await(first.process(), 0, 3);
      Instant start = before.stream().map(Fetch::at).min(Instant::compareTo).orElseThrow();
      for (String url : urls(base)) {
        assertThat(before.stream().filter(f -> f.url().equals(url))
            .filter(f -> !f.at().isAfter(start.plusSeconds(7))))
            .as("fetches of %s within 7 s of the first record", url).hasSizeGreaterThanOrEqualTo(3);
      }
      first.process().destroyForcibly().waitFor(30, TimeUnit.SECONDS);
      assertThat(first.process().exitValue()).as("killed by SIGKILL").isEqualTo(137);
      int killedAt = fetches().size();

      CrawlerJar.Started resumed = jar.start(args);
      await(resumed.process(), killedAt, 2);
      resumed.process().destroy();
      CrawlerJar.Run run = resumed.finish();

      List<Fetch> all = fetches();
      Map<String, List<Fetch>> byUrl = byUrl(all);
      assertThat(byUrl.keySet()).containsExactlyInAnyOrderElementsOf(urls(base));
      long closest = Long.MAX_VALUE;
      for (List<Fetch> fetches : byUrl.values()) {
        for (int i = 0; i < fetches.size(); i++) {
          assertThat(fetches.get(i).refetch()).as("refetch numbers of %s go on across the kill",
              fetches.get(i).url()).isEqualTo(i);
          if (i > 0) {
            closest = Math.min(closest,
                Duration.between(fetches.get(i - 1).at(), fetches.get(i).at()).toMillis());
          }
        }
      }
      System.out.printf("recrawl --recrawl-after 2s: %d records, per page %s, closest two fetches"
          + " of a page %d ms apart%n", all.size(), counts(byUrl), closest);
      assertThat(closest).as("least time between two fetches of a page").isGreaterThanOrEqualTo(
          INTERVAL.toMillis());
      long refetches = all.stream().filter(f -> f.refetch() > 0).count();
      assertThat(run.stdout()).contains("refetches:         " + refetches + " (0 not modified)");
    }
  }

  @Test
  void killAndResume_urlDueAtTStaysDueAtT() throws Exception {
    try (MockWebServer server = site()) {
      String base = "http://127.0.0.1:" + server.getPort();
      CrawlerJar jar = new CrawlerJar(dir);
      String[] args = args(base, "8s", "1000");

      CrawlerJar.Started first = jar.start(args);
      List<Fetch> round1 = await(first.process(), 0, 1);
      first.process().destroyForcibly().waitFor(30, TimeUnit.SECONDS);
      Instant restart = Instant.now();
      long restartNanos = System.nanoTime();
      CrawlerJar.Started resumed = jar.start(args);
      await(resumed.process(), round1.size(), 1);
      resumed.process().destroy();
      resumed.finish();

      Map<String, List<Fetch>> byUrl = byUrl(fetches());
      for (List<Fetch> fetches : byUrl.values()) {
        Duration gap = Duration.between(fetches.get(0).at(), fetches.get(1).at());
        assertThat(gap).as("%s refetched no sooner than 8 s after its fetch", fetches.get(0).url())
            .isGreaterThanOrEqualTo(Duration.ofSeconds(8));
      }
      // The first page was due 8 s after its fetch: the resumed crawl, once it has read robots.txt
      // (its first request, whenever the JVM got there) and waited out the politeness delay,
      // fetches it when due, not 8 s after it started over.
      Fetch firstFetched = round1.get(0);
      Fetch refetched = byUrl.get(firstFetched.url()).get(1);
      long firstRequest = routes.log().stream().mapToLong(r -> r.nanoTime())
          .filter(t -> t > restartNanos).min().orElseThrow();
      Instant resumedAt = restart.plusNanos(firstRequest - restartNanos);
      Instant due = firstFetched.at().plusSeconds(8);
      Instant expected = (due.isAfter(resumedAt.plusSeconds(1)) ? due : resumedAt.plusSeconds(1));
      System.out.printf("recrawl kill: %s fetched %s (due %s), killed %s, first request of the"
          + " resumed crawl %s, refetched %s%n", firstFetched.url(), firstFetched.at(), due, restart,
          resumedAt, refetched.at());
      assertThat(refetched.at()).as("refetched when due, or as soon as the resumed crawl could")
          .isBefore(expected.plusSeconds(2));
    }
  }

  /** The site's routes, with every request logged. */
  private final Routes routes = new Routes();

  private MockWebServer site() throws IOException {
    MockWebServer server = new MockWebServer();
    server.setDispatcher(routes
        .html("/", "<a href=\"/a.html\">a</a> <a href=\"/b.html\">b</a>")
        .html("/a.html", "<a href=\"/\">home</a> <a href=\"/b.html\">b</a>")
        .html("/b.html", "<a href=\"/\">home</a>"));
    server.start(InetAddress.getByName("127.0.0.1"), 0);
    return server;
  }

  private static List<String> urls(String base) {
    return List.of(base + "/", base + "/a.html", base + "/b.html");
  }

  private String[] args(String base, String interval, String delayMs) throws IOException {
    Files.writeString(dir.resolve("seeds.txt"), base + "/\n");
    return new String[] {"crawl", "--seeds", "seeds.txt", "--output", "crawl.jsonl",
        "--state", "state", "--recrawl-after", interval, "--delay-ms", delayMs,
        "--checkpoint-interval", "1", "--expected-urls", "1000"};
  }

  /**
   * Waits (polling the output, bounded) until each of the 3 pages has {@code each} records after
   * the first {@code from} lines; returns those records.
   */
  private List<Fetch> await(Process crawler, int from, int each) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
    Predicate<List<Fetch>> done = fetches -> byUrl(fetches).size() == 3
        && byUrl(fetches).values().stream().allMatch(f -> f.size() >= each);
    while (true) {
      List<Fetch> after = fetches().stream().filter(f -> f.line() >= from).toList();
      if (done.test(after)) {
        return after;
      }
      if (!crawler.isAlive()) {
        throw new AssertionError("the crawler exited early with " + crawler.exitValue()
            + ": " + Files.readString(dir.resolve("run-1.err")));
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError("not " + each + " records of each page in 90 s: " + after);
      }
      crawler.waitFor(20, TimeUnit.MILLISECONDS);
    }
  }

  /** The records so far, in order (whole lines only). */
  private List<Fetch> fetches() throws IOException {
    Path output = dir.resolve("crawl.jsonl");
    List<Fetch> fetches = new ArrayList<>();
    if (!Files.exists(output)) {
      return fetches;
    }
    String text = Files.readString(output);
    List<String> lines = text.substring(0, text.lastIndexOf('\n') + 1).lines().toList();
    for (int i = 0; i < lines.size(); i++) {
      JsonNode record = JSON.readTree(lines.get(i));
      fetches.add(new Fetch(record.get("url").asText(), Instant.parse(record.get("fetchedAt").asText()),
          record.get("refetch").asInt(), i));
    }
    return fetches;
  }

  private static Map<String, List<Fetch>> byUrl(List<Fetch> fetches) {
    Map<String, List<Fetch>> byUrl = new LinkedHashMap<>();
    for (Fetch fetch : fetches) {
      byUrl.computeIfAbsent(fetch.url(), u -> new ArrayList<>()).add(fetch);
    }
    return byUrl;
  }

  private static Map<String, Integer> counts(Map<String, List<Fetch>> byUrl) {
    Map<String, Integer> counts = new LinkedHashMap<>();
    byUrl.forEach((url, fetches) -> counts.put(url.substring(url.lastIndexOf('/')), fetches.size()));
    return counts;
  }
}
