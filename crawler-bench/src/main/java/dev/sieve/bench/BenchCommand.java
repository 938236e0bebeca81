package dev.sieve.bench;

import dev.sieve.crawl.CrawlListener;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Function;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.ParseResult;

/**
 * {@code bench}: the parent of the benchmarks; each is a subcommand. The command line adds it to
 * {@code sieve} when this jar is on its class path, and gives it what the benchmarks take from the
 * command line without importing it: the crawl's record output and its version ({@code --version}).
 */
@Command(
    name = "bench",
    mixinStandardHelpOptions = true,
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
public final class BenchCommand implements Runnable, CommandLine.IExecutionStrategy {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  private final Function<Path, CrawlListener> records;

  /**
   * {@code records} opens on a file the output that {@code crawl --output FILE} writes, so that
   * {@code bench crawl} crawls as the command does; a listener that is {@link AutoCloseable} is
   * closed after the crawl.
   */
  public BenchCommand(Function<Path, CrawlListener> records) {
    this.records = records;
  }

  /** The crawl's record output on {@code file}, as {@code crawl --output} writes it. */
  CrawlListener records(Path file) {
    return records.apply(file);
  }

  /**
   * Runs the command line's last subcommand ({@link CommandLine.RunLast}); after a benchmark that
   * measures in this JVM, prints the machine line ({@link Machine#here}) below its figures, so a
   * figure is never shown without where it was measured. {@code vs-wget} prints its own, and a
   * child JVM that {@code bench sieve} starts leaves it to its parent (the same machine and Java).
   */
  @Override
  public int execute(ParseResult parseResult) {
    int code = new CommandLine.RunLast().execute(parseResult);
    List<CommandLine> chain = parseResult.asCommandLineList();
    CommandLine last = chain.get(chain.size() - 1);
    int at = chain.indexOf(spec.commandLine());
    boolean bench = at >= 0 && at < chain.size() - 1;
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
