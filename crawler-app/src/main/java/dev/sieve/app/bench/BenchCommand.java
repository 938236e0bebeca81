package dev.sieve.app.bench;

import dev.sieve.app.Main;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.ParseResult;

/** {@code bench}: the parent of the benchmarks; each is a subcommand. */
@Command(
    name = "bench",
    mixinStandardHelpOptions = true,
    versionProvider = Main.Version.class,
    description = "Measure parts of the crawler on synthetic data, a loopback site, and Redis.",
    subcommands = {
      BenchSieveCommand.class,
      BenchFrontierCommand.class,
      BenchLinksCommand.class,
      BenchCrawlCommand.class,
      BenchRedisCommand.class,
      BenchWebCommand.class,
      BenchServeCommand.class,
      BenchVsWgetCommand.class
    })
public final class BenchCommand implements Runnable {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  /**
   * Runs the command line's last subcommand ({@link CommandLine.RunLast}); after a benchmark that
   * measures in this JVM, prints the machine line ({@link Machine#here}) below its figures, so a
   * figure is never shown without where it was measured. {@code vs-wget} prints its own, and a
   * child JVM that {@code bench sieve} starts leaves it to its parent (the same machine and Java).
   */
  public static int execute(ParseResult parseResult) {
    int code = new CommandLine.RunLast().execute(parseResult);
    List<CommandLine> chain = parseResult.asCommandLineList();
    CommandLine last = chain.get(chain.size() - 1);
    boolean bench = chain.size() > 2 && chain.get(1).getCommand() instanceof BenchCommand;
    if (bench && !(last.getCommand() instanceof BenchVsWgetCommand)
        && System.getProperty(BenchSieveCommand.CHILD) == null
        && !last.getParseResult().isUsageHelpRequested()
        && !last.getParseResult().isVersionHelpRequested()) {
      System.out.println(Machine.here());
    }
    return code;
  }

  @Override
  public void run() {
    throw new CommandLine.ParameterException(
        spec.commandLine(), "Missing benchmark: sieve, frontier, crawl, redis or web");
  }
}
