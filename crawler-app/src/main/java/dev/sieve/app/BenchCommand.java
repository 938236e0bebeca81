package dev.sieve.app;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code bench}: measurements for users and for planning scale. */
@Command(
    name = "bench",
    mixinStandardHelpOptions = true,
    versionProvider = Main.Version.class,
    description = "Benchmarks: the crawl loop against a loopback site.",
    subcommands = {BenchCrawlCommand.class})
final class BenchCommand implements Runnable {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    throw new CommandLine.ParameterException(spec.commandLine(), "Missing benchmark: crawl");
  }
}
