package dev.sieve.app.bench;

import dev.sieve.app.Main;
import picocli.CommandLine;
import picocli.CommandLine.Command;

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

  @Override
  public void run() {
    throw new CommandLine.ParameterException(
        spec.commandLine(), "Missing benchmark: sieve, frontier, crawl, redis or web");
  }
}
