package dev.sieve.app;

import dev.sieve.crawl.CrawlConfig;
import dev.sieve.crawl.CrawlListener;
import dev.sieve.crawl.CrawlProgress;
import dev.sieve.crawl.Crawler;
import dev.sieve.crawl.PageRecord;
import dev.sieve.fetch.FetchSettings;
import dev.sieve.fetch.Fetcher;
import dev.sieve.frontier.Frontier;
import dev.sieve.frontier.FrontierListener;
import dev.sieve.frontier.QueueKey;
import dev.sieve.frontier.SeenFilter;
import dev.sieve.robots.RobotsSettings;
import dev.sieve.scope.ScopeSettings;
import dev.sieve.settings.Check;
import dev.sieve.frontier.redis.RedisFrontierException;
import dev.sieve.frontier.state.CrawlState;
import dev.sieve.frontier.state.CrawlStateException;
import dev.sieve.frontier.state.Frontiers;
import dev.sieve.url.Scope;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

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
  /** How long Ctrl-C waits for fetches in flight and the summary: the stop timeout and some. */
  private static final long STOP_WAIT_SECONDS = 40;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Option(names = "--seeds", paramLabel = "FILE",
      description = "One URL per line; blank lines and # comments ignored (required, except with --status).")
  Path seeds;

  @Setting("frontier")
  @Option(names = "--frontier", defaultValue = "local", paramLabel = "local|redis://HOST:PORT[/DB]|redis-cluster://HOST:PORT,...",
      description = "Where the frontier lives: in this process (local), or in Redis, shared by every process given the same --crawl-id (default ${DEFAULT-VALUE}).")
  String frontier;

  @Option(names = "--crawl-id", paramLabel = "NAME",
      description = "With a Redis frontier: the crawl to create or join (letters, digits, . _ -).")
  String crawlId;

  @Option(names = "--lease-seconds", defaultValue = "120", paramLabel = "S",
      description = "With a Redis frontier: a URL taken by a process that has not given it back after S seconds (it died) is queued again (default ${DEFAULT-VALUE}).")
  long leaseSeconds;

  @Option(names = "--status",
      description = "With a Redis frontier: print the crawl's shared counters and exit.")
  boolean status;

  @Setting("threads")
  @Option(names = "--threads", defaultValue = "" + CrawlConfig.DEFAULT_THREADS, paramLabel = "N", description = "Worker threads (default ${DEFAULT-VALUE}).")
  int threads;

  @Setting("maxPages")
  @Option(names = "--max-pages", paramLabel = "N", description = "Stop after N pages fetched (default: no limit).")
  Long maxPages;

  @Setting("maxDepth")
  @Option(names = "--max-depth", paramLabel = "N", description = "Seeds are depth 0 (default: no limit).")
  Integer maxDepth;

  @Setting({"expectedUrls", "expectedInsertions"})
  @Option(names = "--expected-urls", defaultValue = "10000000", paramLabel = "N",
      description = "Sieve capacity in distinct URLs (default ${DEFAULT-VALUE}).")
  long expectedUrls;

  @Setting("falsePositiveRate")
  @Option(names = "--fpp", defaultValue = "1e-6", paramLabel = "P",
      description = "Sieve false-positive rate (default ${DEFAULT-VALUE}).")
  double fpp;

  @Setting("seenFilter")
  @Option(names = "--filter", defaultValue = "blocked", paramLabel = "blocked|classic|cuckoo",
      converter = SeenFilterConverter.class,
      description = "The Sieve's structure: cache-blocked Bloom (fastest), classic Bloom (least memory of the Bloom filters), cuckoo (fewer bits at tight rates, fixed size). Default ${DEFAULT-VALUE}.")
  SeenFilter filter;

  @Option(names = "--on-capacity", defaultValue = "grow", paramLabel = "warn|grow",
      description = "Past --expected-urls: grow (scalable layers keep the false-positive rate at --fpp) or warn (one fixed filter whose rate climbs). Both log capacity warnings. Default ${DEFAULT-VALUE}.")
  String onCapacity;

  @Option(names = "--scope", defaultValue = ScopeSettings.DEFAULT_SCOPE, paramLabel = "host|domain|any",
      converter = ScopeConverter.class,
      description = "Follow links on the seeds' origins (host), registrable domains (domain), or anywhere (any). Default ${DEFAULT-VALUE}.")
  Scope scope;

  @Option(names = "--output", defaultValue = OutputSettings.DEFAULT_FILE, paramLabel = "FILE",
      description = "JSON Lines, one record per fetched URL (default ${DEFAULT-VALUE}).")
  Path output;

  @Setting("userAgent")
  @Option(names = "--user-agent", defaultValue = Fetcher.DEFAULT_USER_AGENT, paramLabel = "UA",
      description = "Sent on every request; its product token is the robots.txt agent (default ${DEFAULT-VALUE}).")
  String userAgent;

  @Setting("politenessDelay")
  @Option(names = "--delay-ms", defaultValue = "1000", paramLabel = "MS",
      description = "Least time between fetches of one host, raised by robots.txt Crawl-delay (default ${DEFAULT-VALUE}).")
  long delayMs;

  @Setting("maxInFlightPerHost")
  @Option(names = "--per-host", defaultValue = "1", paramLabel = "N",
      description = "Fetches of one host in flight at once (default ${DEFAULT-VALUE}).")
  int perHost;

  @Setting({"maxPagesPerHost", "maxUrlsPerHost"})
  @Option(names = "--max-pages-per-host", paramLabel = "N", description = "Page budget per host (default: no limit).")
  Long maxPagesPerHost;

  @Option(names = "--queue-key", defaultValue = "host", paramLabel = "host|domain|ip",
      converter = QueueKeyConverter.class,
      description = "What politeness is counted per (default ${DEFAULT-VALUE}).")
  QueueKey queueKey;

  @Setting("retries")
  @Option(names = "--retries", defaultValue = "" + FetchSettings.DEFAULT_RETRIES, paramLabel = "N",
      description = "Retries of a 5xx or network failure, with backoff (default ${DEFAULT-VALUE}).")
  int retries;

  @Setting("hostFailureLimit")
  @Option(names = "--host-failure-limit", defaultValue = "" + FetchSettings.DEFAULT_HOST_FAILURE_LIMIT, paramLabel = "N",
      description = "Connection failures in a row (refused, timed out, reset; robots.txt included) after which a host (scheme, host, port) is unreachable: its URLs are recorded as host-unreachable without fetching (default ${DEFAULT-VALUE}).")
  int hostFailureLimit;

  @Option(names = "--timeout", paramLabel = "SECONDS",
      description = "Connect and read timeout of every request (default: connect "
          + FetchSettings.DEFAULT_CONNECT_TIMEOUT_SECONDS + ", read "
          + FetchSettings.DEFAULT_READ_TIMEOUT_SECONDS + ").")
  Long timeoutSeconds;

  @Setting("maxCrawlDelay")
  @Option(names = "--max-crawl-delay", defaultValue = "" + RobotsSettings.DEFAULT_MAX_CRAWL_DELAY_SECONDS, paramLabel = "SECONDS",
      description = "Hosts whose robots.txt asks for a longer Crawl-delay are skipped (default ${DEFAULT-VALUE}).")
  long maxCrawlDelaySeconds;

  @Setting("maxRetryAfter")
  @Option(names = "--max-retry-after", defaultValue = "" + FetchSettings.DEFAULT_MAX_RETRY_AFTER_SECONDS, paramLabel = "SECONDS",
      description = "A 429/503 whose Retry-After asks for a longer wait fails its URL at once as retry-after-too-long (default ${DEFAULT-VALUE}, at most 86400).")
  long maxRetryAfterSeconds;

  @Setting("maxBodyBytes")
  @Option(names = "--max-body-bytes", defaultValue = "" + FetchSettings.DEFAULT_MAX_BODY_BYTES, paramLabel = "BYTES",
      description = "Body cap after decompression; longer bodies are truncated (default ${DEFAULT-VALUE}).")
  long maxBodyBytes;

  @Setting("maxUrlLength")
  @Option(names = "--max-url-length", defaultValue = "" + ScopeSettings.DEFAULT_MAX_URL_LENGTH, paramLabel = "N",
      description = "Longer links are not followed (default ${DEFAULT-VALUE}).")
  int maxUrlLength;

  @Setting("maxOutlinks")
  @Option(names = "--max-outlinks", defaultValue = "" + ScopeSettings.DEFAULT_MAX_OUTLINKS, paramLabel = "N",
      description = "Distinct links taken from one page at most; the rest are counted"
          + " over-outlinks-cap, with a WARN (default ${DEFAULT-VALUE}).")
  int maxOutlinks;

  @Setting("maxQueryVariants")
  @Option(names = "--max-query-variants", defaultValue = "" + ScopeSettings.DEFAULT_MAX_QUERY_VARIANTS, paramLabel = "N",
      description = "Distinct query strings followed per (authority, path) at most; the rest are"
          + " counted query-trap, with one WARN per path (default ${DEFAULT-VALUE}).")
  int maxQueryVariants;

  @Setting("maxPathDepth")
  @Option(names = "--max-path-depth", defaultValue = "" + ScopeSettings.DEFAULT_MAX_PATH_DEPTH, paramLabel = "N",
      description = "Links with more path segments are not followed (default ${DEFAULT-VALUE}).")
  int maxPathDepth;

  @Setting("maxRepeatedSegments")
  @Option(names = "--max-repeated-segments", defaultValue = "" + ScopeSettings.DEFAULT_MAX_REPEATED_SEGMENTS, paramLabel = "N",
      description = "Links repeating one path segment more often are not followed: /a/a/a/a/… traps (default ${DEFAULT-VALUE}).")
  int maxRepeatedSegments;

  @Option(names = "--ignore-nofollow", description = "Follow rel=nofollow links and links of nofollow pages.")
  boolean ignoreNofollow;

  @Option(names = "--allow-private",
      description = "Follow links to loopback/private/link-local addresses other than the seeds' hosts.")
  boolean allowPrivate;

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
  @Option(names = "--pending-memory", defaultValue = "268435456", paramLabel = "BYTES",
      description = "Memory for pending URLs; beyond it they spill to checksummed files in the --state DIR or a temporary one (default ${DEFAULT-VALUE}, 256 MiB).")
  long pendingMemory;

  @Setting("checkpointInterval")
  @Option(names = "--checkpoint-interval", defaultValue = "60", paramLabel = "SECONDS",
      description = "Seconds between checkpoints with --state; one is also written on stop (default ${DEFAULT-VALUE}).")
  long checkpointSeconds;

  @Setting("progressInterval")
  @Option(names = "--progress-interval", defaultValue = "" + OutputSettings.DEFAULT_PROGRESS_SECONDS, paramLabel = "SECONDS",
      description = "Seconds between progress lines (default ${DEFAULT-VALUE}).")
  long progressSeconds;

  @Option(names = "--config", paramLabel = "FILE",
      description = "Properties file with defaults for any option (default config/crawler.properties when present); command-line options win.")
  Path config;

  /** The output settings of the run, validated with the crawl's. */
  private OutputSettings outSettings;

  /** The final counters of the last crawl this command ran, for the demo; null before. */
  volatile CrawlProgress finalProgress;

  @Override
  public Integer call() throws Exception {
    try {
      return crawl();
    } catch (Stop stop) {
      System.err.println(stop.getMessage());
      return stop.code;
    }
  }

  /** A run that cannot go on: one line on standard error and the exit code, no usage hint. */
  private static final class Stop extends RuntimeException {
    final int code;

    Stop(int code, String message) {
      super(message, null, false, false);
      this.code = code;
    }
  }

  /** Refused (exit 2): the output or state belongs to another crawl or would be lost. */
  private static Stop refused(String message) {
    return new Stop(CommandLine.ExitCode.USAGE, message);
  }

  /** A file could not be read or written (exit 74). */
  private static Stop ioFailure(String message) {
    return new Stop(EXIT_IO, message);
  }

  private int crawl() throws Exception {
    boolean redis = !frontier.strip().equalsIgnoreCase("local");
    if (redis && (crawlId == null || crawlId.isBlank())) {
      throw usage("--frontier " + frontier + " needs --crawl-id NAME: the crawl to create or join");
    }
    if (!redis && (status || crawlId != null)) {
      throw usage((status ? "--status" : "--crawl-id") + " needs --frontier redis://HOST:PORT");
    }
    if (status) {
      return RedisCrawl.printStatus(frontier, crawlId, System.out, System.err);
    }
    if (seeds == null) {
      throw usage("Missing required option: '--seeds=FILE'");
    }
    SeedFile seedFile = readSeeds();
    CrawlConfig crawlConfig;
    try {
      crawlConfig = crawlConfig(seedFile);
      outSettings = outputSettings();
    } catch (IllegalArgumentException e) {
      throw usage("Invalid setting: " + OptionNames.of(spec, e.getMessage()));
    }
    if (redis) {
      if (stateDir != null) {
        throw usage("--state keeps a local frontier's state; a Redis frontier keeps its own: drop --state");
      }
      return runShared(crawlConfig, seedFile);
    }
    // Every check before the output changes: the state (read only), the output's lock and
    // contents, then the state's lock and settings as the crawler opens it.
    boolean resuming;
    try {
      resuming = stateDir != null && !fresh && CrawlState.resumable(stateDir);
    } catch (CrawlStateException e) {
      throw refuse(e);
    }
    if (resuming && outSettings.overwrite()) {
      throw usage("--overwrite cannot replace the output of the crawl resumed from " + stateDir
          + ": its records are part of it; add --fresh to start over");
    }
    try (JsonlOutput jsonl = openOutput(resuming)) {
      Crawler crawler;
      try {
        CrawlListener listener = listener(jsonl);
        Frontier local = Frontiers.open(crawlConfig.frontierSettings(), crawlConfig.seeds(),
            Crawler.frontierListener(listener));
        crawler = new Crawler(crawlConfig, local, listener);
      } catch (CrawlStateException e) {
        throw refuse(e);
      } catch (IllegalArgumentException e) {
        throw usage("Invalid setting: " + OptionNames.of(spec, e.getMessage()));
      } catch (UncheckedIOException e) {
        throw ioFailure(e.getMessage());
      }
      try {
        if (resuming) {
          jsonl.append();
          log.info("Resuming the crawl saved in {}; appending to {}", stateDir, outSettings.file());
        } else {
          jsonl.replace();
        }
      } catch (IOException e) {
        throw ioFailure(jsonl.message(e));
      }
      return runCrawl(crawler, jsonl, seedFile);
    }
  }

  /** Exit code of a run stopped by an I/O failure (EX_IOERR). */
  static final int EXIT_IO = 74;

  private CommandLine.ParameterException usage(String message) {
    return new CommandLine.ParameterException(spec.commandLine(), message);
  }

  /** A state directory that cannot be used: exit 74 when the disk failed, else a usage error. */
  private static Stop refuse(CrawlStateException e) {
    return causedByIo(e) ? ioFailure(e.getMessage()) : refused(e.getMessage());
  }

  private static boolean causedByIo(Throwable e) {
    for (Throwable cause = e.getCause(); cause != null; cause = cause.getCause()) {
      if (cause instanceof IOException) {
        return true;
      }
    }
    return false;
  }

  /**
   * Opens and locks the output, refusing (exit 2) one in use by another crawl, or holding records
   * when not resuming and not told to --overwrite (exit 74 when it cannot be opened).
   */
  private JsonlOutput openOutput(boolean resuming) {
    JsonlOutput jsonl;
    try {
      jsonl = JsonlOutput.open(outSettings.file());
    } catch (JsonlOutput.InUseException e) {
      throw refused(e.getMessage() + "; wait for it to finish, or give another --output");
    } catch (IOException e) {
      throw ioFailure("cannot write " + outSettings.file() + ": " + IoMessages.cause(e));
    }
    try {
      long size = jsonl.size();
      if (!resuming && !outSettings.overwrite() && size > 0) {
        long lines = jsonl.lines();
        jsonl.close();
        throw refused("output " + outSettings.file() + " already holds " + String.format(Locale.ROOT, "%,d", lines)
            + " line(s) (" + Units.bytes(size) + "); refusing to replace it: give --overwrite to replace it,"
            + " --state DIR to resume the crawl that wrote it, or another --output");
      }
      if (resuming && size == 0) {
        log.warn("Resuming the crawl in {}, but {} is empty: earlier records are not in it", stateDir, outSettings.file());
      }
    } catch (IOException e) {
      closeQuietly(jsonl);
      throw ioFailure("cannot read " + outSettings.file() + ": " + IoMessages.cause(e));
    }
    return jsonl;
  }

  private static void closeQuietly(JsonlOutput jsonl) {
    try {
      jsonl.close();
    } catch (IOException ignored) {
      // Already failing with a message.
    }
  }

  /** A crawl over a frontier in Redis; Redis unreachable or refusing is one line and exit 2. */
  private int runShared(CrawlConfig crawlConfig, SeedFile seedFile) throws Exception {
    Frontier shared;
    try {
      shared = Frontiers.open(crawlConfig.frontierSettings().toBuilder()
          .redis(frontier, crawlId, Duration.ofSeconds(leaseSeconds), threads + 4).build(),
          crawlConfig.seeds(), FrontierListener.NONE);
    } catch (IllegalArgumentException e) {
      throw usage("Invalid setting: " + OptionNames.of(spec, e.getMessage()));
    } catch (RedisFrontierException e) {
      System.err.println("Redis frontier: " + e.getMessage());
      return CommandLine.ExitCode.USAGE;
    }
    try (JsonlOutput jsonl = openOutput(false)) {
      try {
        jsonl.replace();
      } catch (IOException e) {
        throw ioFailure(jsonl.message(e));
      }
      log.info("Joined crawl '{}' in {}", crawlId, frontier);
      return runCrawl(new Crawler(crawlConfig, shared, listener(jsonl)), jsonl, seedFile);
    } finally {
      shared.disconnect();
    }
  }

  private static CrawlListener listener(JsonlOutput jsonl) {
    return new CrawlListener() {
      @Override
      public void onPage(PageRecord record) {
        jsonl.onPage(record);
      }

      @Override
      public Map<String, PageRecord> recordedBefore(Set<String> urls) {
        return jsonl.recordedBefore(urls);
      }

      @Override
      public void onHostSkipped(String host, String reason) {
        log.debug("Skipping host {}: {}", host, reason);
      }
    };
  }

  /**
   * Runs the crawl and prints the summary, also when stopped by a signal (the shutdown hook waits
   * for it) or by an I/O failure (exit 74, after the one-line error the crawler logged).
   */
  private int runCrawl(Crawler crawler, JsonlOutput jsonl, SeedFile seedFile) throws Exception {
    PrintStream out = System.out;
    CountDownLatch done = new CountDownLatch(1);
    Thread hook = new Thread(() -> {
      log.info("Stopping: letting fetches in flight finish, then writing the summary");
      crawler.stop();
      try {
        done.await(STOP_WAIT_SECONDS, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }, "crawl-stop");
    Runtime.getRuntime().addShutdownHook(hook);
    try {
      log.info("Crawling {} seed(s) with {} threads into {}", seedFile.seeds().size(), threads, outSettings.file());
      CrawlProgress summary;
      try (ProgressReporter progress = new ProgressReporter(
          crawler::progress, outSettings.progressInterval(), System.console() != null)) {
        summary = crawler.run();
      }
      finalProgress = summary;
      String failure = crawler.failure().orElse(null);
      try {
        jsonl.close();
      } catch (IOException e) {
        if (failure == null) {
          failure = jsonl.message(e);
          log.error("Stopping the crawl: {}", failure);
        }
      }
      printSummary(out, summary, seedFile.skippedLines());
      return failure == null ? 0 : EXIT_IO;
    } finally {
      done.countDown();
      try {
        Runtime.getRuntime().removeShutdownHook(hook);
      } catch (IllegalStateException shuttingDown) {
        // The hook is running: it is waiting for done, which is counted down.
      }
    }
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
    CrawlConfig.Builder builder = CrawlConfig.builder()
        .seeds(seedFile.seeds())
        .threads(threads)
        .expectedUrls(expectedUrls)
        .falsePositiveRate(fpp)
        .politenessDelay(Duration.ofMillis(delayMs))
        .maxInFlightPerHost(perHost)
        .queueKey(queueKey)
        .pendingMemoryBytes(pendingMemory)
        .seenFilter(filter)
        .growOnCapacity(growOnCapacity())
        .fetch(this::fetchSettings)
        .robots(robots -> robots.maxCrawlDelay(Duration.ofSeconds(maxCrawlDelaySeconds)))
        .scope(this::scopeSettings);
    if (maxPages != null) {
      builder.maxPages(maxPages);
    }
    if (maxPagesPerHost != null) {
      builder.maxPagesPerHost(maxPagesPerHost);
    }
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

  private void fetchSettings(FetchSettings.Builder fetch) {
    fetch.userAgent(userAgent)
        .retries(retries)
        .hostFailureLimit(hostFailureLimit)
        .maxBodyBytes(maxBodyBytes);
    Check.between("--max-retry-after", maxRetryAfterSeconds, 0,
        FetchSettings.MAX_RETRY_AFTER_LIMIT.toSeconds());
    fetch.maxRetryAfter(Duration.ofSeconds(maxRetryAfterSeconds));
    if (timeoutSeconds != null) {
      Check.atLeast("--timeout", timeoutSeconds, 1);
      fetch.connectTimeout(Duration.ofSeconds(timeoutSeconds))
          .readTimeout(Duration.ofSeconds(timeoutSeconds));
    }
  }

  private void scopeSettings(ScopeSettings.Builder links) {
    links.scope(scope)
        .maxUrlLength(maxUrlLength)
        .maxOutlinks(maxOutlinks)
        .maxQueryVariants(maxQueryVariants)
        .maxPathDepth(maxPathDepth)
        .maxRepeatedSegments(maxRepeatedSegments)
        .followNofollow(ignoreNofollow)
        .allowPrivate(allowPrivate);
    if (maxDepth != null) {
      links.maxDepth(maxDepth);
    }
  }

  private OutputSettings outputSettings() {
    return OutputSettings.builder()
        .file(output)
        .overwrite(overwrite)
        .progressInterval(Duration.ofSeconds(progressSeconds))
        .build();
  }

  private void printSummary(PrintStream out, CrawlProgress p, int skippedSeeds) {
    double seconds = p.elapsed().toMillis() / 1000.0;
    out.printf(Locale.ROOT, "Crawl summary%n");
    out.printf(Locale.ROOT, "  pages:             %,d (%.1f pages/s over %.1f s)%n", p.pages(), p.pagesPerSecond(), seconds);
    out.printf(Locale.ROOT, "  errors:            %,d %s%n", p.errorTotal(), ProgressReporter.counts(p.errors()));
    out.printf(Locale.ROOT, "  bytes:             %s%n", Units.bytes(p.bytes()));
    out.printf(Locale.ROOT, "  links:             %s%n", ProgressReporter.counts(p.links()));
    out.printf(Locale.ROOT, "  skipped:           %s%n", ProgressReporter.counts(p.skipped()));
    out.printf(Locale.ROOT, "  retries:           %,d%n", p.retries());
    out.printf(Locale.ROOT, "  pending at end:    %,d%n", p.pending());
    out.printf(Locale.ROOT, "  skipped seeds:     %,d%n", skippedSeeds);
    out.printf(Locale.ROOT, "  sieve:             ~%,d URLs seen, fpp %.2g%n", p.sieveEstimate(), p.sieveFpp());
    out.printf(Locale.ROOT, "  capacity warnings: %,d%n", p.capacityWarnings());
    out.printf(Locale.ROOT, "  output:            %s%n", outSettings.file());
    out.flush();
  }

  /** Parses host|domain|any, case-insensitively. */
  static final class ScopeConverter implements CommandLine.ITypeConverter<Scope> {
    @Override
    public Scope convert(String value) {
      return Scope.fromString(value).orElseThrow(() -> new CommandLine.TypeConversionException(
          "'" + value + "' is not a scope: use host, domain or any"));
    }
  }

  private boolean growOnCapacity() {
    switch (onCapacity.strip().toLowerCase(Locale.ROOT)) {
      case "grow":
        return true;
      case "warn":
        return false;
      default:
        throw new IllegalArgumentException("--on-capacity (" + onCapacity + ") must be warn or grow");
    }
  }

  /** Parses blocked|classic|cuckoo, case-insensitively. */
  static final class SeenFilterConverter implements CommandLine.ITypeConverter<SeenFilter> {
    @Override
    public SeenFilter convert(String value) {
      return SeenFilter.fromString(value).orElseThrow(() -> new CommandLine.TypeConversionException(
          "'" + value + "' is not a filter: use blocked, classic or cuckoo"));
    }
  }

  /** Parses host|domain|ip, case-insensitively. */
  static final class QueueKeyConverter implements CommandLine.ITypeConverter<QueueKey> {
    @Override
    public QueueKey convert(String value) {
      try {
        return QueueKey.valueOf(value.strip().toUpperCase(Locale.ROOT));
      } catch (IllegalArgumentException e) {
        throw new CommandLine.TypeConversionException(
            "'" + value + "' is not a queue key: use host, domain or ip");
      }
    }
  }

  /** Whether a config file should be applied: the named one, or the default when present. */
  static Path configFile(Path named) {
    if (named != null) {
      return named;
    }
    return Files.isReadable(DEFAULT_CONFIG) ? DEFAULT_CONFIG : null;
  }
}
