package dev.sieve.bench;

import dev.sieve.crawl.CrawlConfig;
import dev.sieve.crawl.CrawlListener;
import dev.sieve.crawl.CrawlProgress;
import dev.sieve.crawl.Crawler;
import dev.sieve.units.Units;
import dev.sieve.url.Url;
import dev.sieve.warc.WarcSettings;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordingFile;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/**
 * {@code bench crawl}: serves a generated site from another process on 127.0.0.1, crawls it with
 * no politeness delay, and prints pages/s and where the crawler's CPU went (JFR execution
 * samples, inclusive, by component).
 */
@Command(
    name = "crawl",
    mixinStandardHelpOptions = true,
    description = "Crawl a generated loopback site as fast as possible and profile the crawler.")
final class BenchCrawlCommand implements Callable<Integer> {
  @ParentCommand BenchCommand bench;

  @Option(names = "--pages", defaultValue = "4000", description = "Pages on the site (default ${DEFAULT-VALUE}).")
  int pages;

  @Option(names = "--page-bytes", defaultValue = "40000", description = "HTML bytes per page (default ${DEFAULT-VALUE}).")
  int pageBytes;

  @Option(names = "--links", defaultValue = "50", description = "Links per page (default ${DEFAULT-VALUE}).")
  int links;

  @Option(names = "--threads", defaultValue = "8", description = "Crawler worker threads (default ${DEFAULT-VALUE}).")
  int threads;

  @Option(names = "--per-host", defaultValue = "8", description = "Fetches in flight on the site (default ${DEFAULT-VALUE}).")
  int perHost;

  @Option(names = "--runs", defaultValue = "5",
      description = "Measured crawls of the site; pages/s is their median, the profile covers them all (default ${DEFAULT-VALUE}).")
  int runs;

  @Option(names = "--warmup", defaultValue = "2",
      description = "Unmeasured crawls of the site first, so that the JIT has compiled the crawler as it"
          + " has in any crawl of more than a few seconds; 0 measures a cold JVM (default ${DEFAULT-VALUE}).")
  int warmup;

  @Option(names = "--warc",
      description = "Also crawl with a WARC archive (into a temporary directory), alternating runs with and"
          + " without it, and print the two side by side with their ratio.")
  boolean warc;

  @Option(names = "--warc-gzip-level", defaultValue = "" + WarcSettings.DEFAULT_GZIP_LEVEL, paramLabel = "N",
      description = "With --warc: how each record is deflated, as crawl's --warc-gzip-level: 1 Sieve's fast encoder, 2-9 zlib's levels (default ${DEFAULT-VALUE}).")
  int gzipLevel;

  @Option(names = "--recording", paramLabel = "FILE",
      description = "Keep the JFR recording here, for `jfr print` or JDK Mission Control (default: deleted).")
  Path keepRecording;

  /** JFR's default is 10 or 20 ms; finer gives more samples, at 1 ms the sampling itself costs. */
  private static final Duration SAMPLE_PERIOD = Duration.ofMillis(5);

  /** Components by the first matching frame prefix; a sample counts for each it passes through. */
  private static final Map<String, String> COMPONENTS = new LinkedHashMap<>();

  static {
    COMPONENTS.put("Sieve + frontier", "dev.sieve.frontier.|dev.sieve.bloom.");
    COMPONENTS.put("fetch (OkHttp, sockets)", "dev.sieve.fetch.|okhttp3.|okio.|sun.nio.|java.net.");
    COMPONENTS.put("parse (link scanner)", "dev.sieve.parse.|org.jsoup.");
    COMPONENTS.put("URL normalization", "dev.sieve.url.|crawlercommons.filters.");
    COMPONENTS.put("robots.txt", "dev.sieve.robots.|crawlercommons.robots.");
    COMPONENTS.put("output", "dev.sieve.app.JsonlOutput|com.fasterxml.");
    COMPONENTS.put("WARC (records, gzip)", "dev.sieve.warc.|org.netpreserve.");
  }

  @Override
  public Integer call() throws Exception {
    PrintStream out = System.out;
    Path recordingFile = Files.createTempFile("sieve-bench-crawl", ".jfr");
    try (SiteProcess site = SiteProcess.start("2g", pages, pageBytes, links)) {
      out.printf(Locale.ROOT, "Site: %,d pages of ~%,d bytes, %d links each, on 127.0.0.1:%d (pid %d)%n",
          pages, pageBytes, links, site.port(), site.pid());
      CrawlConfig config = CrawlConfig.builder()
          .seeds(List.of(Url.parse(site.seed()).orElseThrow()))
          .threads(threads)
          .politenessDelay(Duration.ZERO)
          .maxInFlightPerHost(perHost)
          .expectedUrls(Math.max(1_000_000, pages * 2L))
          .build();
      Path warcDir = warc ? Files.createTempDirectory("sieve-bench-warc") : null;
      CrawlConfig archiving = warc ? CrawlConfig.builder()
          .seeds(config.seeds())
          .threads(threads)
          .politenessDelay(Duration.ZERO)
          .maxInFlightPerHost(perHost)
          .expectedUrls(config.frontierSettings().expectedUrls)
          .warc(WarcSettings.builder(warcDir).gzipLevel(gzipLevel).build())
          .build() : null;
      Duration serverCpuBefore;
      Instant measuredFrom;
      Runs plain = new Runs();
      Runs archived = new Runs();
      // Started before the warm-up: starting JFR in a warm JVM throws away much of its compiled
      // code, and the measured crawls would pay for compiling it again. Only the samples taken
      // during the measured crawls are counted.
      try (Recording recording = new Recording()) {
        recording.enable("jdk.ExecutionSample").withPeriod(SAMPLE_PERIOD);
        recording.start();
        for (int i = 1; i <= warmup; i++) {
          Run cold = crawl(config, null);
          out.printf(Locale.ROOT, "Warm-up crawl %d: %,d pages in %.2f s, %.0f pages/s (not measured)%n",
              i, cold.pages, cold.seconds, cold.rate());
          if (warc) {
            Run coldWarc = crawl(archiving, warcDir);
            out.printf(Locale.ROOT, "Warm-up crawl %d with WARC: %,d pages in %.2f s, %.0f pages/s (not measured)%n",
                i, coldWarc.pages, coldWarc.seconds, coldWarc.rate());
          }
        }
        serverCpuBefore = site.cpuTime();
        measuredFrom = Instant.now();
        for (int i = 1; i <= runs; i++) {
          // Alternating which goes first, so neither always follows the other's garbage.
          if (warc && i % 2 == 0) {
            archived.add(out, i, crawl(archiving, warcDir), "with WARC");
          }
          plain.add(out, i, crawl(config, null), warc ? "without WARC" : "");
          if (warc && i % 2 == 1) {
            archived.add(out, i, crawl(archiving, warcDir), "with WARC");
          }
        }
        recording.stop();
        recording.dump(recordingFile);
      } finally {
        if (warcDir != null) {
          deleteFiles(warcDir);
          Files.deleteIfExists(warcDir);
        }
      }
      out.printf(Locale.ROOT, "Median of %d crawls: %.0f pages/s (%d threads, %d per host)%n",
          runs, plain.medianRate(), threads, perHost);
      double serverCpu = site.cpuTime().minus(serverCpuBefore).toNanos() / 1e9;
      out.printf(Locale.ROOT,
          "CPU: crawler %.2f s (%.0f pages per CPU-second), site server %.2f s, on %d cores over %.2f s%n",
          plain.cpu + archived.cpu, (plain.pages + archived.pages) / (plain.cpu + archived.cpu), serverCpu,
          Runtime.getRuntime().availableProcessors(), plain.seconds + archived.seconds);
      if (warc) {
        printSideBySide(out, plain, archived);
      }
      printProfile(out, recordingFile, measuredFrom);
      if (keepRecording != null) {
        Files.copy(recordingFile, keepRecording, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        out.printf(Locale.ROOT, "Recording kept at %s%n", keepRecording);
      }
      return 0;
    } finally {
      Files.deleteIfExists(recordingFile);
    }
  }

  /** One crawl of the site: its pages, bytes, wall and CPU seconds, and what it archived. */
  private record Run(long pages, long bytes, double seconds, double cpu, long warcBytes) {
    double rate() {
      return pages / seconds;
    }
  }

  /** The measured crawls of one kind. */
  private static final class Runs {
    final List<Double> rates = new ArrayList<>();
    long pages;
    long bytes;
    double seconds;
    double cpu;
    long warcBytes;

    void add(PrintStream out, int i, Run run, String kind) {
      rates.add(run.rate());
      pages += run.pages;
      bytes += run.bytes;
      seconds += run.seconds;
      cpu += run.cpu;
      warcBytes += run.warcBytes;
      out.printf(Locale.ROOT, "Crawl %d%s: %,d pages (%s) in %.2f s: %.0f pages/s%n", i,
          kind.isEmpty() ? "" : " " + kind, run.pages, Units.bytes(run.bytes), run.seconds, run.rate());
    }

    double medianRate() {
      List<Double> sorted = new ArrayList<>(rates);
      Collections.sort(sorted);
      return sorted.get(sorted.size() / 2);
    }
  }

  /** Crawls the site once; with {@code warcDir}, measures and then deletes what it archived. */
  private Run crawl(CrawlConfig config, Path warcDir) throws Exception {
    long cpuBefore = processCpuNanos();
    // Records are written as `crawl` writes them, so both sides pay for the output (and the
    // payload SHA-1 a record holds, which the archive's payload digest shares).
    Path records = Files.createTempFile("sieve-bench-records", ".jsonl");
    CrawlProgress result;
    CrawlListener output = bench.records(records);
    try {
      result = Crawler.open(config, output).run();
    } finally {
      if (output instanceof AutoCloseable closeable) {
        closeable.close();
      }
      Files.deleteIfExists(records);
    }
    double cpu = (processCpuNanos() - cpuBefore) / 1e9;
    long warcBytes = 0;
    if (warcDir != null) {
      warcBytes = deleteFiles(warcDir);
    }
    return new Run(result.pages(), result.bytes(), result.elapsed().toNanos() / 1e9, cpu, warcBytes);
  }

  /** Deletes the files in {@code dir}; returns their total size. */
  private static long deleteFiles(Path dir) throws java.io.IOException {
    long total = 0;
    try (var files = Files.list(dir)) {
      for (Path file : (Iterable<Path>) files::iterator) {
        total += Files.size(file);
        Files.delete(file);
      }
    }
    return total;
  }

  /** The crawls without and with WARC side by side, and what archiving cost. */
  private void printSideBySide(PrintStream out, Runs plain, Runs archived) {
    out.printf(Locale.ROOT, "Without and with WARC (gzip level %d), %d alternating crawls each:%n",
        gzipLevel, runs);
    Table table = Table.of(out, -24, 14, 14, 8);
    table.row("", "without WARC", "with WARC", "ratio");
    table.row("pages/s (median)", Table.format("%.0f", plain.medianRate()),
        Table.format("%.0f", archived.medianRate()),
        Table.format("%.3f", archived.medianRate() / plain.medianRate()));
    double plainCpuPage = 1e6 * plain.cpu / plain.pages;
    double warcCpuPage = 1e6 * archived.cpu / archived.pages;
    table.row("crawler CPU µs/page", Table.format("%.0f", plainCpuPage),
        Table.format("%.0f", warcCpuPage), Table.format("%.3f", warcCpuPage / plainCpuPage));
    table.row("WARC bytes/page", "-", Table.format("%,.0f", (double) archived.warcBytes / archived.pages),
        Table.format("%.3f", (double) archived.warcBytes / archived.bytes));
    out.printf(Locale.ROOT, "Archiving costs %.1f%% of throughput; the WARC files are %.1f%% of the"
        + " body bytes fetched%n", 100 * (1 - archived.medianRate() / plain.medianRate()),
        100.0 * archived.warcBytes / archived.bytes);
  }

  /** CPU time of this JVM, all threads (JIT and GC included). */
  private static long processCpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean)
            java.lang.management.ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime();
  }

  /** Inclusive share of the crawler's execution samples per component. */
  private static void printProfile(PrintStream out, Path recording, Instant from) throws Exception {
    Map<String, Long> hits = new LinkedHashMap<>();
    COMPONENTS.keySet().forEach(name -> hits.put(name, 0L));
    Map<String, Long> sieveFrames = new java.util.HashMap<>();
    String[] sievePrefixes = COMPONENTS.get("Sieve + frontier").split("\\|");
    long total = 0;
    for (RecordedEvent event : RecordingFile.readAllEvents(recording)) {
      if (!event.getEventType().getName().equals("jdk.ExecutionSample") || event.getStackTrace() == null
          || event.getStartTime().isBefore(from)) {
        continue;
      }
      String thread = event.getThread("sampledThread") == null ? "" : event.getThread("sampledThread").getJavaName();
      if (thread == null || thread.startsWith("JFR")) {
        continue;
      }
      total++;
      List<RecordedFrame> frames = event.getStackTrace().getFrames();
      for (Map.Entry<String, String> component : COMPONENTS.entrySet()) {
        if (passesThrough(frames, component.getValue().split("\\|"))) {
          hits.merge(component.getKey(), 1L, Long::sum);
        }
      }
      if (passesThrough(frames, sievePrefixes) && !frames.isEmpty()) {
        RecordedFrame leaf = frames.get(0);
        sieveFrames.merge(leaf.getMethod().getType().getName() + "." + leaf.getMethod().getName(),
            1L, Long::sum);
      }
    }
    out.printf(Locale.ROOT, "CPU profile: %,d JFR execution samples (inclusive; a sample may count twice)%n", total);
    Table components = Table.of(out, -26, 8, 7);
    components.row("component", "samples", "share");
    for (Map.Entry<String, Long> hit : hits.entrySet()) {
      components.row(hit.getKey(), Table.format("%,d", hit.getValue()),
          Table.format("%.1f%%", total == 0 ? 0 : 100.0 * hit.getValue() / total));
    }
    out.printf(Locale.ROOT, "Where the Sieve + frontier samples were (leaf method):%n");
    Table leaves = Table.spaced(out, "  ", 6, 0);
    sieveFrames.entrySet().stream()
        .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
        .limit(8)
        .forEach(e -> leaves.row(Table.format("%,d", e.getValue()), e.getKey()));
  }

  private static boolean passesThrough(List<RecordedFrame> frames, String[] prefixes) {
    for (RecordedFrame frame : frames) {
      String type = frame.getMethod().getType().getName();
      for (String prefix : prefixes) {
        if (type.startsWith(prefix)) {
          return true;
        }
      }
    }
    return false;
  }
}
