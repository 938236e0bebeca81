package dev.sieve.app;

import dev.sieve.crawl.CrawlProgress;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Unmatched;

/**
 * {@code demo}: serves a generated site ({@link DemoSite}) on loopback and crawls it with the
 * {@code crawl} command itself, given a seed file and generated options, then explains what the
 * Sieve did. Every option it does not know is passed to {@code crawl}, and wins over the
 * generated ones.
 */
@Command(
    name = "demo",
    mixinStandardHelpOptions = true,
    versionProvider = Main.Version.class,
    sortOptions = false,
    description = {
        "Crawl a generated 3-host site on 127.0.0.1 with the crawl command, so as to see the Sieve at work"
            + " without the web: relative, absolute and duplicate links, a robots.txt, a calendar trap,"
            + " 404s and a redirect chain, with the Sieve sized under the site on purpose."},
    footer = {"", "Any other option goes to crawl and wins over the demo's own (--threads, --filter, --fpp,"
        + " --delay-ms, --expected-urls, --max-query-variants, ...): see crawl --help."})
final class DemoCommand implements Callable<Integer> {
  /** Articles on the site by default: a crawl of 10-20 s on 2 cores, JVM start included. */
  static final int DEFAULT_PAGES = 9000;
  /** Politeness for loopback: milliseconds between two fetches of one host. */
  static final long DELAY_MS = 2;
  static final long PROGRESS_SECONDS = 2;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Option(names = "--pages", defaultValue = "" + DEFAULT_PAGES, paramLabel = "N",
      description = "Articles on the site, split over its 3 hosts; the crawl also fetches their home,"
          + " section, calendar, redirect and missing pages (default ${DEFAULT-VALUE}).")
  int pages;

  @Option(names = "--output", paramLabel = "DIR",
      description = "A new or empty directory for the seeds, crawl.jsonl, REPORT.html and crawl.log (default: a new"
          + " sieve-demo-YYYYMMDD-HHMMSS in the working directory).")
  Path output;

  @Unmatched List<String> crawlOptions = new ArrayList<>();

  Clock clock = Clock.systemDefaultZone();

  @Override
  public Integer call() throws Exception {
    if (pages < DemoSite.HOSTS) {
      throw new CommandLine.ParameterException(spec.commandLine(),
          "--pages (" + pages + ") must be at least " + DemoSite.HOSTS);
    }
    if (given("--seeds") || given("--status") || given("--frontier")) {
      throw new CommandLine.ParameterException(spec.commandLine(),
          "demo crawls its own site: for your seeds run crawl --seeds FILE");
    }
    CrawlCommand asGiven = new CrawlCommand();
    CommandLine givenLine = new CommandLine(asGiven);
    String[] options = crawlOptions.toArray(String[]::new);
    if (Main.applyConfig(givenLine, options) != 0) {
      return CommandLine.ExitCode.USAGE;
    }
    try {
      givenLine.parseArgs(options);
    } catch (CommandLine.ParameterException e) {
      // Before the site starts and the directory is made: a bad crawl option is a usage error.
      throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage(), e);
    }
    Path dir = outputDirectory();
    PrintStream out = System.out;
    DemoSite site = new DemoSite(pages);
    // crawl's own --max-query-variants (its default, the config's or the one given) ends the trap.
    int months = asGiven.links.maxQueryVariants;
    Set<String> admitted = site.admitted(months);
    try (DemoServer server = DemoServer.start(site)) {
      Path seeds = Files.writeString(dir.resolve("seeds.txt"), IntStream.range(0, DemoSite.HOSTS)
          .mapToObj(host -> server.origin(host) + "/\n").collect(Collectors.joining()));
      List<String> args = crawlArgs(seeds, dir.resolve("crawl.jsonl"), admitted.size() * 7L / 25);
      out.printf(Locale.ROOT, "Demo site: %,d URLs to crawl on %s, %s and %s%n", admitted.size(),
          server.origin(0), server.origin(1), server.origin(2));
      out.printf(Locale.ROOT, "Politeness scaled for loopback: %s ms between fetches of one host"
          + " (the web gets 1000); the Sieve sized for %s URLs, under a third of the site, on purpose.%n",
          value(args, "--delay-ms"), grouped(value(args, "--expected-urls")));
      out.printf(Locale.ROOT, "The calendar trap (/calendar?month=N links month N+1) ends at month %d on"
          + " each host: --max-query-variants %d refuses month=%d, counted query-trap, with a WARN.%n",
          months - 1, months, months);
      out.printf(Locale.ROOT, "Running: crawl %s%n%n", String.join(" ", args));
      out.flush();
      CrawlCommand crawl = new CrawlCommand();
      int exit;
      try (DemoLog log = DemoLog.to(dir.resolve("crawl.log"))) {
        exit = Main.runCrawl(crawl, args.toArray(String[]::new));
      }
      if (exit != 0 || crawl.finalProgress == null) {
        return exit;
      }
      new DemoReport(crawl.finalProgress, DemoSite.HOSTS, server, dir, crawl.finalReport)
          .print(out, jarCommand());
    }
    return 0;
  }

  /** The generated crawl options, except those the user gives, then the user's. */
  private List<String> crawlArgs(Path seeds, Path jsonl, long expectedUrls) {
    List<String> args = new ArrayList<>(List.of("--seeds", seeds.toString(), "--output", jsonl.toString()));
    addUnlessGiven(args, "--expected-urls", Long.toString(Math.max(1, expectedUrls)));
    addUnlessGiven(args, "--delay-ms", Long.toString(DELAY_MS));
    addUnlessGiven(args, "--progress-interval", Long.toString(PROGRESS_SECONDS));
    args.addAll(crawlOptions);
    return args;
  }

  private void addUnlessGiven(List<String> args, String name, String value) {
    if (!given(name)) {
      args.add(name);
      args.add(value);
    }
  }

  private boolean given(String name) {
    return crawlOptions.stream().anyMatch(arg -> arg.equals(name) || arg.startsWith(name + "="));
  }

  /** The value that follows {@code name} (or its {@code name=value}) last in {@code args}. */
  private static String value(List<String> args, String name) {
    String found = null;
    for (int i = 0; i < args.size(); i++) {
      if (args.get(i).equals(name) && i + 1 < args.size()) {
        found = args.get(i + 1);
      } else if (args.get(i).startsWith(name + "=")) {
        found = args.get(i).substring(name.length() + 1);
      }
    }
    return found;
  }

  /** {@code 2368} as {@code 2,368}; anything else as it is. */
  private static String grouped(String number) {
    try {
      return String.format(Locale.ROOT, "%,d", Long.parseLong(number));
    } catch (NumberFormatException e) {
      return number;
    }
  }

  /** The directory given, new or empty; by default a new one named for the time, never reused. */
  private Path outputDirectory() throws IOException {
    if (output != null) {
      if (Files.isDirectory(output)) {
        try (Stream<Path> entries = Files.list(output)) {
          if (entries.findAny().isPresent()) {
            throw new CommandLine.ParameterException(spec.commandLine(),
                "--output " + output + " is not empty: give a new or empty directory");
          }
        }
        return output;
      }
      return Files.createDirectories(output);
    }
    return newDirectory(Path.of(""), LocalDateTime.now(clock));
  }

  /** Makes {@code sieve-demo-YYYYMMDD-HHMMSS} in {@code base}, or {@code …-2}, {@code …-3} if taken. */
  static Path newDirectory(Path base, LocalDateTime now) throws IOException {
    String name = "sieve-demo-" + now.format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
    for (int n = 1; ; n++) {
      try {
        return Files.createDirectory(base.resolve(n == 1 ? name : name + "-" + n));
      } catch (FileAlreadyExistsException taken) {
        // Another demo started in the same second: take the next name.
      }
    }
  }

  /**
   * How to run this command from the working directory: the launcher beside the jar (a build's
   * target/sieve, a distribution's bin/sieve), else {@code java -jar} on the jar.
   */
  private static String jarCommand() {
    try {
      Path jar = Path.of(DemoCommand.class.getProtectionDomain().getCodeSource().getLocation().toURI());
      Path here = Path.of("").toAbsolutePath();
      for (Path launcher : List.of(jar.resolveSibling("sieve"), jar.getParent().resolveSibling("bin").resolve("sieve"))) {
        if (Files.isRegularFile(launcher) && Files.isExecutable(launcher)) {
          return shown(launcher.normalize(), here);
        }
      }
      return "java -jar " + shown(jar, here);
    } catch (Exception e) {
      return "java -jar crawler.jar";
    }
  }

  private static String shown(Path file, Path here) {
    return (file.startsWith(here) ? here.relativize(file) : file).toString();
  }
}
