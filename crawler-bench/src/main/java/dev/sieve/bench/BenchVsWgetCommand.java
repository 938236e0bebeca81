package dev.sieve.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.regex.Pattern;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code bench vs-wget}: serves a directory with a local nginx, then crawls it alternately with
 * GNU Wget ({@code wget -r}, robots on, one connection) and a fresh {@code java -jar crawler.jar
 * crawl} (no politeness delay) from the same seed, and compares the HTML pages each fetched (read
 * from nginx's access log, so both are counted the same way), their pages/s and CPU per page.
 */
@Command(
    name = "vs-wget",
    mixinStandardHelpOptions = true,
    description = "Crawl a directory served by a local nginx with wget -r and with a fresh crawl,"
        + " alternately; compare the HTML pages found, pages/s and CPU per page.",
    exitCodeListHeading = "Exit codes:%n",
    exitCodeList = {"0:every run found the same HTML pages", "1:the page sets differ, a run failed, or nginx did not start",
        "2:a usage error", "69:nginx, wget or the crawler's jar is missing"})
final class BenchVsWgetCommand implements Callable<Integer> {
  /** Exit code when a program the bench runs is missing (sysexits' EX_UNAVAILABLE). */
  static final int MISSING_PROGRAM = 69;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Option(names = "--corpus", required = true, paramLabel = "DIR", description = "The directory to serve.")
  Path corpus;

  @Option(names = "--seed", defaultValue = "index.html", paramLabel = "PATH",
      description = "The start page, relative to --corpus (default ${DEFAULT-VALUE}); like wget -np,"
          + " the crawl then follows only URLs under its directory.")
  String seed;

  @Option(names = "--runs", defaultValue = "5", description = "Runs of each tool, alternating which goes first (default ${DEFAULT-VALUE}).")
  int runs;

  @Option(names = "--nginx", defaultValue = "/usr/sbin/nginx", paramLabel = "FILE", description = "nginx (default ${DEFAULT-VALUE}).")
  Path nginx;

  @Option(names = "--wget", defaultValue = "/usr/bin/wget", paramLabel = "FILE", description = "GNU Wget (default ${DEFAULT-VALUE}).")
  Path wget;

  @Option(names = "--crawler", paramLabel = "FILE",
      description = "Run the crawl with this launcher (e.g. crawler-app/target/sieve) instead of"
          + " `java -jar` on crawler.jar.")
  Path launcher;

  @Option(names = "--jvm-option", paramLabel = "OPTION",
      description = "A JVM option for the crawl (repeatable); given to a --crawler launcher in JAVA_OPTS.")
  List<String> jvmOptions = new ArrayList<>();

  @Option(names = "--crawl-option", paramLabel = "OPTION", description = "An extra option for the crawl (repeatable).")
  List<String> crawlOptions = new ArrayList<>();

  @Override
  public Integer call() throws Exception {
    PrintStream out = System.out;
    Path jar = SiteProcess.crawlerJar(spec);
    if (runs < 1) {
      throw new CommandLine.ParameterException(spec.commandLine(), "--runs (" + runs + ") must be at least 1");
    }
    if (!Files.isRegularFile(corpus.resolve(seed))) {
      throw new CommandLine.ParameterException(spec.commandLine(),
          "--seed (" + seed + ") is not a file under --corpus (" + corpus + ")");
    }
    for (Path program : launcher == null ? List.of(nginx, wget, jar) : List.of(nginx, wget, launcher)) {
      if (!Files.isExecutable(program) && !(program == jar && Files.isRegularFile(jar))) {
        System.err.println("bench vs-wget: " + program + " not found (apt-get install -y nginx wget;"
            + " the jar: mvn -B -q package -DskipTests)");
        return MISSING_PROGRAM;
      }
    }
    NginxServer started;
    try {
      started = NginxServer.start(nginx, corpus);
    } catch (IOException e) {
      System.err.println("bench vs-wget: " + e.getMessage());
      return 1;
    }
    // Killed (SIGTERM, or SIGINT from outside the terminal's process group), the bench would
    // leave nginx and the running tool behind: they are its children, and only they are.
    Thread stopChildren = new Thread(() -> ProcessHandle.current().descendants().forEach(ProcessHandle::destroy));
    Runtime.getRuntime().addShutdownHook(stopChildren);
    Path work = Files.createTempDirectory("sieve-vs-wget");
    try (NginxServer server = started) {
      String seedUrl = server.base() + "/" + seed;
      String scope = seedUrl.substring(0, seedUrl.lastIndexOf('/') + 1);
      Files.writeString(work.resolve("seeds.txt"), seedUrl + "\n");
      out.printf(Locale.ROOT, "Corpus %s served by nginx (pid %d); seed %s%n", corpus, server.pid(), seedUrl);
      // The java the crawl runs: the bench's own, or the one the launcher picks (JAVA, else the PATH's).
      out.println(launcher == null ? Machine.describe(SiteProcess.java()) : Machine.describeLauncher(launcher.toString()));
      List<String> wgetCommand = List.of(wget.toString(), "-r", "-l", "inf", "-np", "-nv", "-e", "robots=on",
          "-P", work.resolve("wget").toString(), "-o", work.resolve("wget.log").toString(), seedUrl);
      List<String> crawlCommand = crawlCommand(jar, scope.equals(server.base() + "/") ? null : scope);
      out.println("wget:  " + String.join(" ", wgetCommand));
      // The launcher takes JVM options from JAVA_OPTS.
      Map<String, String> environment = launcher == null || jvmOptions.isEmpty() ? Map.of()
          : Map.of("JAVA_OPTS", String.join(" ", jvmOptions));
      out.println("sieve: " + (environment.isEmpty() ? "" : "JAVA_OPTS='" + environment.get("JAVA_OPTS") + "' ")
          + String.join(" ", crawlCommand) + "   (in " + work + ")");
      // wget exits 8 when the server answered any request with an error: a 404 for robots.txt or a
      // broken link is part of a normal run.
      Tool wgetRuns = new Tool("wget", wgetCommand, Map.of(), Set.of(0, 8));
      Tool sieveRuns = new Tool("sieve", crawlCommand, environment, Set.of(0));
      for (int i = 1; i <= runs; i++) {
        for (Tool tool : i % 2 == 1 ? List.of(wgetRuns, sieveRuns) : List.of(sieveRuns, wgetRuns)) {
          Tool.Run run = tool.run(server, work);
          out.printf(Locale.ROOT, "Run %d %-5s %,d HTML pages (%,d requests) in %.2f s: %,.0f pages/s,"
                  + " CPU %.2f s (%.3f CPU-s per 1,000 pages)%s%n", i, tool.name, run.pages().size(),
              run.requests(), run.seconds(), run.pagesPerSecond(), run.cpuSeconds(), run.cpuPerThousand(),
              run.failure() == null ? "" : " FAILED: " + run.failure());
          NginxServer.deleteTree(work.resolve("wget"));
        }
      }
      boolean same = Comparison.print(out, wgetRuns, sieveRuns);
      out.printf(Locale.ROOT, "Load average after: %.2f (%s, %d cores)%n", Machine.loadAverage(), Machine.cpuModel(),
          Machine.cores());
      return same ? 0 : 1;
    } finally {
      NginxServer.deleteTree(work);
      Runtime.getRuntime().removeShutdownHook(stopChildren);
    }
  }

  /** The crawl's command line; {@code scope}, a URL prefix it must stay under, or null. */
  private List<String> crawlCommand(Path jar, String scope) {
    List<String> command = new ArrayList<>();
    if (launcher != null) {
      command.add(launcher.toAbsolutePath().toString());
    } else {
      command.add(SiteProcess.java());
      command.addAll(jvmOptions);
      command.add("-jar");
      command.add(jar.toString());
    }
    command.addAll(List.of("crawl", "--seeds", "seeds.txt", "--output", "sieve.jsonl", "--overwrite",
        "--delay-ms", "0"));
    if (scope != null) { // wget -np's rule: nothing above the seed's directory
      command.addAll(List.of("--include", "^" + Pattern.quote(scope)));
    }
    command.addAll(crawlOptions);
    return command;
  }

  /** Reads a file for a failure message: its last line, or nothing. */
  static String lastLine(Path file) {
    try {
      List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
      return lines.isEmpty() ? "" : lines.get(lines.size() - 1);
    } catch (IOException e) {
      return "";
    }
  }

  /** The HTML pages of a run, by nginx's {@code $uri} (decoded, {@code /} as {@code /index.html}). */
  static Set<String> htmlPages(List<NginxServer.Request> requests) {
    Set<String> pages = new TreeSet<>();
    for (NginxServer.Request request : requests) {
      if (request.isHtmlPage()) {
        pages.add(request.uri());
      }
    }
    return pages;
  }
}
