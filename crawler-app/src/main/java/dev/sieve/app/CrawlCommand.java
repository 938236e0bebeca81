package dev.sieve.app;

import dev.sieve.app.report.CrawlReport;
import dev.sieve.crawl.CrawlConfig;
import dev.sieve.crawl.CrawlListener;
import dev.sieve.crawl.CrawlProgress;
import dev.sieve.crawl.Crawler;
import dev.sieve.fetch.Fetcher;
import dev.sieve.frontier.FrontierListener;
import dev.sieve.frontier.FrontierSettings;
import dev.sieve.frontier.FrontierStoreException;
import dev.sieve.frontier.Frontiers;
import dev.sieve.frontier.OpenFrontier;
import dev.sieve.frontier.state.CrawlStateException;
import dev.sieve.scope.ScopeSettings;
import dev.sieve.url.Scope;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.Callable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/** {@code crawl}: crawls from a seed file, writing one JSON line per fetched URL. */
@Command(
    name = "crawl",
    mixinStandardHelpOptions = true,
    versionProvider = Main.Version.class,
    sortOptions = false,
    description = "Crawl from the seeds in a file, politely, writing one JSON line per URL.")
final class CrawlCommand implements Callable<Integer> {
  static final Path DEFAULT_CONFIG = Path.of("config", "crawler.properties");
  private static final Logger log = LoggerFactory.getLogger("dev.sieve.crawl");

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Option(names = "--seeds", paramLabel = "FILE",
      description = "One URL per line; blank lines and # comments ignored (required, except with --status).")
  Path seeds;

  @Mixin FrontierOptions where;

  @Setting("threads")
  @Option(names = "--threads", paramLabel = "N",
      description = "Threads for the work after each fetch (parse, Sieve, output) at once; fetches do not wait for them (default: number of cores).")
  Integer threads;

  @Setting("maxInFlight")
  @Option(names = "--max-in-flight", defaultValue = "" + CrawlConfig.DEFAULT_MAX_IN_FLIGHT, paramLabel = "N",
      description = "Most fetches in flight at once over all hosts: they grow with the hosts ready to be fetched, each at most --per-host (default ${DEFAULT-VALUE}).")
  int maxInFlight;

  @Setting("maxPages")
  @Option(names = "--max-pages", paramLabel = "N", description = "Stop after N pages fetched (default: no limit).")
  Long maxPages;

  @Setting("maxDepth")
  @Option(names = "--max-depth", paramLabel = "N", description = "Seeds are depth 0 (default: no limit).")
  Integer maxDepth;

  @Mixin SieveOptions sieve;

  @Option(names = "--scope", defaultValue = ScopeSettings.DEFAULT_SCOPE, paramLabel = "host|domain|any",
      converter = OptionConverters.ScopeConverter.class,
      description = "Follow links on the seeds' origins (host), registrable domains (domain), or anywhere (any). Default ${DEFAULT-VALUE}.")
  Scope scope;

  @Option(names = "--output", defaultValue = OutputSettings.DEFAULT_FILE, paramLabel = "FILE",
      description = "JSON Lines, one record per fetched URL (default ${DEFAULT-VALUE}).")
  Path output;

  @Setting("userAgent")
  @Option(names = "--user-agent", defaultValue = Fetcher.DEFAULT_USER_AGENT, paramLabel = "UA",
      description = "Sent on every request; its product token is the robots.txt agent (default ${DEFAULT-VALUE}).")
  String userAgent;

  @Mixin PolitenessOptions politeness;

  @Mixin FetchOptions fetch;

  @Mixin TransportOptions transport;

  @Mixin LinkOptions links;

  @Mixin SessionOptions session;

  @Mixin UrlRuleOptions urlRules;

  @Mixin SitemapOptions sitemaps;

  @Mixin WarcOptions warc;

  @Option(names = "--state", paramLabel = "DIR",
      description = "Keep the crawl's state (checkpoints and journal) in DIR; a DIR holding state is resumed, the output appended.")
  Path stateDir;

  @Option(names = "--fresh",
      description = "With --state: start over, deleting the saved state (refused without it when DIR holds a crawl with other settings).")
  boolean fresh;

  @Option(names = "--overwrite",
      description = "Replace an output file that already holds records (refused without it, except when resuming, which appends).")
  boolean overwrite;

  @Option(names = "--add-seeds",
      description = "With --state: resume with a seed file that differs from the saved crawl's, adding its new seeds (saved seeds are kept).")
  boolean addSeeds;

  @Setting("pendingMemoryBytes")
  @Option(names = "--pending-memory", defaultValue = "" + FrontierSettings.DEFAULT_PENDING_MEMORY_BYTES, paramLabel = "BYTES",
      description = "Memory for pending URLs; beyond it they spill to checksummed files in the --state DIR or a temporary one (default ${DEFAULT-VALUE}, 256 MiB).")
  long pendingMemory;

  @Setting("checkpointInterval")
  @Option(names = "--checkpoint-interval", defaultValue = "" + FrontierSettings.DEFAULT_CHECKPOINT_SECONDS, paramLabel = "SECONDS",
      description = "Seconds between checkpoints with --state; one is also written on stop (default ${DEFAULT-VALUE}).")
  long checkpointSeconds;

  @Setting("progressInterval")
  @Option(names = "--progress-interval", defaultValue = "" + OutputSettings.DEFAULT_PROGRESS_SECONDS, paramLabel = "SECONDS",
      description = "Seconds between progress lines (default ${DEFAULT-VALUE}).")
  long progressSeconds;

  @Mixin MetricsOptions metricsOptions;

  @Mixin ReportOptions reportOptions;

  @Option(names = "--config", paramLabel = "FILE",
      description = "Properties file with defaults for any option (default config/crawler.properties when present); command-line options win.")
  Path config;

  /** The final counters of the last crawl this command ran, for the demo; null before. */
  volatile CrawlProgress finalProgress;
  /** The report the last crawl wrote, for the demo; null before or when none was written. */
  volatile Path finalReport;

  /** Exit code of a run stopped by an I/O failure (EX_IOERR). */
  static final int EXIT_IO = 74;
  /** Exit code of a run stopped because its proxy is dead (EX_UNAVAILABLE). */
  static final int EXIT_PROXY = 69;

  @Override
  public Integer call() throws Exception {
    try {
      return crawl();
    } catch (CrawlStop stop) {
      System.err.println(stop.getMessage());
      return stop.code;
    }
  }

  private int crawl() throws IOException, InterruptedException {
    String misuse = where.misuse() != null ? where.misuse() : metricsOptions.misuse();
    if (misuse == null) {
      misuse = reportOptions.misuse(spec.commandLine().getParseResult());
    }
    if (misuse != null) {
      throw usage(misuse);
    }
    if (where.status) {
      return SharedStatus.print(where.frontier, where.crawlId, System.out, System.err);
    }
    if (seeds == null) {
      throw usage("Missing required option: '--seeds=FILE'");
    }
    SeedFile seedFile = readSeeds();
    if (where.shared() && stateDir != null) {
      throw usage("--state keeps a local frontier's state; a "
          + (where.urlFrontier() ? "URL Frontier service" : "Redis frontier") + " keeps its own: drop --state");
    }
    if (where.recrawlAfter != null && stateDir == null) {
      throw usage("--recrawl-after needs --state DIR: a recrawl runs until stopped and resumes"
          + " its schedule from there");
    }
    CrawlConfig crawlConfig;
    OutputSettings output;
    try {
      crawlConfig = crawlConfig(seedFile);
      output = outputSettings();
    } catch (IllegalArgumentException e) {
      throw invalid(e);
    }
    // Every check before the output changes: the state (read only), the output's lock and
    // contents, then the state's lock and settings as the frontier opens it.
    CrawlFiles files = CrawlFiles.check(output, stateDir, fresh);
    if (files.resuming() && output.overwrite()) {
      throw usage("--overwrite cannot replace the output of the crawl resumed from " + stateDir
          + ": its records are part of it; add --fresh to start over");
    }
    CrawlMetrics metrics = metricsOptions.enabled() ? new CrawlMetrics() : null;
    try (MetricsEndpoint endpoint = startMetrics(metrics)) {
      return crawl(seedFile, crawlConfig, output, files, metrics);
    }
  }

  private int crawl(SeedFile seedFile, CrawlConfig crawlConfig, OutputSettings output,
      CrawlFiles files, CrawlMetrics metrics) throws IOException, InterruptedException {
    // A shared frontier is joined before the output is touched; a local one is opened after, as
    // resuming it reads the output's records.
    OpenFrontier opened = where.shared() ? openFrontier(crawlConfig, FrontierListener.NONE) : null;
    try (JsonlOutput jsonl = files.openOutput();
        ReportRun report = report(output, crawlConfig)) {
      CrawlRun run = new CrawlRun(jsonl, output, report);
      CrawlListener listener = metrics == null ? run.listener() : metrics.tee(run.listener());
      if (opened == null) {
        opened = openFrontier(crawlConfig, Crawler.frontierListener(listener));
      } else {
        log.info("Joined crawl '{}' in {}", where.crawlId == null ? "(default)" : where.crawlId, where.frontier);
      }
      Crawler crawler;
      try {
        crawler = new Crawler(crawlConfig, opened, listener);
      } catch (UncheckedIOException e) { // the WARC archive
        throw CrawlStop.of(e);
      }
      files.begin(jsonl);
      if (metrics != null) {
        metrics.watch(crawler::progress);
      }
      if (report != null) {
        // A shared frontier's counters cost calls to Redis or the service: sampled as seldom as
        // the progress lines; a local frontier's every second.
        report.watch(crawler::progress, where.shared() ? output.progressInterval() : Duration.ofSeconds(1));
      }
      CrawlRun.Result result = run.run(crawler, seedFile, crawlConfig);
      finalProgress = result.summary();
      finalReport = result.report();
      return result.exitCode();
    } finally {
      if (opened != null) {
        opened.disconnect();
      }
    }
  }

  /** The run's report, or null with --no-report (or an output that is no regular file). */
  private ReportRun report(OutputSettings output, CrawlConfig crawlConfig) {
    Path file = reportOptions.file(output.file(), spec.commandLine().getParseResult());
    if (file == null) {
      return null;
    }
    long seeds = crawlConfig.seeds().stream().distinct().count();
    return new ReportRun(new CrawlReport(ReportOptions.settings(spec), seeds, crawlConfig.frontierSettings().expectedUrls),
        file, Clock.systemUTC());
  }

  /** The metrics endpoint, or null without --metrics-port; a port in use stops the run (exit 2). */
  private MetricsEndpoint startMetrics(CrawlMetrics metrics) {
    if (metrics == null) {
      return null;
    }
    try {
      MetricsEndpoint endpoint = metricsOptions.start(metrics.registry());
      log.info("Serving metrics on http://{}:{}/metrics", metricsOptions.host, endpoint.port());
      return endpoint;
    } catch (UncheckedIOException e) {
      throw CrawlStop.refused(e.getMessage());
    }
  }

  /**
   * The crawl's one frontier, where its settings say it lives ({@code --frontier}, {@code
   * --state}); refused when unusable. A URL Frontier service is asked once for its counters, so
   * one that is down stops the run before the output is touched.
   */
  private OpenFrontier openFrontier(CrawlConfig crawlConfig, FrontierListener listener) {
    OpenFrontier opened;
    try {
      opened = Frontiers.open(crawlConfig.frontierSettings(), listener);
    } catch (CrawlStateException e) {
      throw CrawlStop.of(e);
    } catch (FrontierStoreException e) {
      throw CrawlStop.refused("Redis frontier: " + e.getMessage());
    } catch (IllegalArgumentException e) {
      throw invalid(e);
    } catch (UncheckedIOException e) {
      throw CrawlStop.of(e);
    }
    if (where.urlFrontier()) {
      try {
        opened.frontier().isFinished(); // one GetStats: the service answers before the output is touched
      } catch (UncheckedIOException e) {
        opened.disconnect();
        throw CrawlStop.refused(e.getMessage());
      }
    }
    return opened;
  }

  private CommandLine.ParameterException usage(String message) {
    return new CommandLine.ParameterException(spec.commandLine(), message);
  }

  /** A settings builder's message, naming the option instead of the setting. */
  private CommandLine.ParameterException invalid(IllegalArgumentException e) {
    return usage("Invalid setting: " + OptionNames.of(spec, e.getMessage()));
  }

  private SeedFile readSeeds() {
    SeedFile seedFile;
    try {
      seedFile = SeedFile.read(seeds);
    } catch (NoSuchFileException e) {
      throw new CommandLine.ParameterException(spec.commandLine(), "Seed file not found: " + seeds);
    } catch (IOException e) {
      throw new CommandLine.ParameterException(
          spec.commandLine(), "Cannot read seed file " + seeds + ": " + e.getMessage());
    }
    if (seedFile.seeds().isEmpty()) {
      throw new CommandLine.ParameterException(
          spec.commandLine(),
          "No valid seed in " + seeds + " (" + seedFile.skippedLines()
              + " line(s) skipped): give one absolute http(s) URL per line");
    }
    return seedFile;
  }

  private CrawlConfig crawlConfig(SeedFile seedFile) {
    int workThreads = threads != null ? threads : CrawlConfig.DEFAULT_THREADS;
    CrawlConfig.Builder builder = CrawlConfig.builder()
        .seeds(seedFile.seeds())
        .threads(workThreads)
        .maxInFlight(maxInFlight)
        .pendingMemoryBytes(pendingMemory)
        // Redis connections: the threads after each fetch, the lease loop, and fetch threads
        // giving a lease back.
        .frontier(frontier -> where.applyTo(frontier, Math.max(12, workThreads + 4)));
    politeness.applyTo(builder);
    sieve.applyTo(builder);
    fetch.applyTo(builder, userAgent, session.settings()).scope(this::scopeSettings);
    builder.fetch(settings -> transport.applyTo(settings, System.getenv()));
    sitemaps.applyTo(builder);
    if (maxPages != null) {
      builder.maxPages(maxPages);
    }
    builder.warc(warc.settings(Main.software()));
    if (stateDir != null) {
      builder.stateDir(stateDir).freshState(fresh).addSeeds(addSeeds)
          .checkpointInterval(Duration.ofSeconds(checkpointSeconds));
    } else if (fresh) {
      throw new IllegalArgumentException("--fresh (set) needs --state DIR");
    }
    if (stateDir != null && checkpointSeconds < 1) {
      throw new IllegalArgumentException("--checkpoint-interval (" + checkpointSeconds + ") must be >= 1");
    }
    if (addSeeds && stateDir == null) {
      throw new IllegalArgumentException("--add-seeds (set) needs --state DIR");
    }
    return builder.build();
  }

  private void scopeSettings(ScopeSettings.Builder scopeSettings) {
    links.applyTo(scopeSettings.scope(scope));
    urlRules.applyTo(scopeSettings);
    if (maxDepth != null) {
      scopeSettings.maxDepth(maxDepth);
    }
  }

  private OutputSettings outputSettings() {
    return OutputSettings.builder()
        .file(output)
        .overwrite(overwrite)
        .progressInterval(Duration.ofSeconds(progressSeconds))
        .build();
  }

  /** Whether a config file should be applied: the named one, or the default when present. */
  static Path configFile(Path named) {
    if (named != null) {
      return named;
    }
    return Files.isReadable(DEFAULT_CONFIG) ? DEFAULT_CONFIG : null;
  }
}
