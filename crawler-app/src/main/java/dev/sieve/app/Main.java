package dev.sieve.app;

import dev.sieve.crawl.CrawlListener;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.lang.reflect.InvocationTargetException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * Entry point of {@code crawler.jar}, the command {@code sieve}. Exit codes: 0 when the command ran (page errors are data),
 * 2 for a usage or configuration error or a refused run, 74 when a file cannot be read or written
 * (disk full, permission denied), 1 for an internal failure; 130 and 143 after SIGINT and SIGTERM
 * (the JVM's own, once the shutdown hook has printed the summary). {@code bench} is there when
 * crawler-bench.jar is beside crawler.jar (crawler.jar's Class-Path names it); the command line
 * never imports it, and without it {@code sieve bench} says so in a line and exits 2.
 */
@Command(
    name = "sieve",
    mixinStandardHelpOptions = true,
    versionProvider = Main.Version.class,
    description = "Sieve: a polite web crawler whose URL frontier is built on Bloom filters.",
    subcommands = {CrawlCommand.class, DemoCommand.class, SizeCommand.class})
public final class Main implements Runnable {
  /** The bench commands' class, in crawler-bench.jar (module crawler-bench). */
  static final String BENCH = "dev.sieve.bench.BenchCommand";

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  public static void main(String[] args) {
    System.exit(run(args));
  }

  /** Runs the command line and returns its exit code, without exiting. */
  public static int run(String... args) {
    Logging.configure();
    CommandLine cli = commandLine();
    cli.setParameterExceptionHandler(Main::usageError);
    cli.setExecutionStrategy(Main::execute);
    if (args.length > 0 && args[0].equals("bench") && !cli.getSubcommands().containsKey("bench")) {
      System.err.println("sieve bench: the benchmarks are not installed (no crawler-bench.jar"
          + " beside crawler.jar)");
      return CommandLine.ExitCode.USAGE;
    }
    if (args.length > 0 && args[0].equals("crawl")) {
      int error = applyConfig(cli.getSubcommands().get("crawl"), args);
      if (error != 0) {
        return error;
      }
    }
    return cli.execute(args);
  }

  /**
   * The command line {@code sieve} runs, before its handlers are set: crawl, demo, size, bench
   * (when its jar is on the class path), serve and help, each printing this version.
   */
  public static CommandLine commandLine() {
    CommandLine cli = new CommandLine(new Main());
    Object bench = bench();
    if (bench != null) {
      cli.addSubcommand(bench);
    }
    cli.addSubcommand(new ServeCommand());
    cli.addSubcommand(new CommandLine.HelpCommand());
    withVersion(cli, new Version());
    return cli;
  }

  /**
   * The {@code bench} command, given the crawl's record output ({@link JsonlOutput}), or null when
   * its class is not on the class path.
   */
  private static Object bench() {
    Function<Path, CrawlListener> records = file -> {
      try {
        return JsonlOutput.overwriting(file);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    };
    try {
      return Class.forName(BENCH).getConstructor(Function.class).newInstance(records);
    } catch (ClassNotFoundException e) {
      return null;
    } catch (ReflectiveOperationException e) {
      Throwable cause = e instanceof InvocationTargetException ? e.getCause() : e;
      throw new IllegalStateException("cannot create " + BENCH + ": " + cause, cause);
    }
  }

  /** Gives every command without a version provider this one, so that each --version prints it. */
  private static void withVersion(CommandLine command, CommandLine.IVersionProvider version) {
    if (command.getCommandSpec().versionProvider() == null) {
      command.getCommandSpec().versionProvider(version);
    }
    command.getSubcommands().values().forEach(sub -> withVersion(sub, version));
  }

  /**
   * Runs the last subcommand ({@link CommandLine.RunLast}); a benchmark through {@code bench}'s
   * own strategy, which prints the machine it measured on below its figures.
   */
  private static int execute(CommandLine.ParseResult parseResult) {
    if (parseResult.hasSubcommand()
        && parseResult.subcommand().commandSpec().userObject()
            instanceof CommandLine.IExecutionStrategy bench) {
      return bench.execute(parseResult);
    }
    return new CommandLine.RunLast().execute(parseResult);
  }

  /** Runs {@code crawl} with {@code args} as the command line does; returns its exit code. */
  static int runCrawl(CrawlCommand command, String... args) {
    CommandLine crawl = new CommandLine(command);
    crawl.setParameterExceptionHandler(Main::usageError);
    int error = applyConfig(crawl, args);
    return error != 0 ? error : crawl.execute(args);
  }

  /** Gives {@code crawl} its defaults from the config file, if any; 0, or 2 when it is bad. */
  static int applyConfig(CommandLine crawl, String[] args) {
    Path config = CrawlCommand.configFile(optionValue(args, "--config"));
    if (config != null) {
      try {
        crawl.setDefaultValueProvider(ConfigDefaults.load(config, crawl.getCommandSpec()));
      } catch (IOException | IllegalArgumentException e) {
        System.err.println("Configuration error: " + describe(e, config));
        return CommandLine.ExitCode.USAGE;
      }
    }
    return 0;
  }

  /** Prints the message and a pointer to --help, not the whole usage, and exits 2. */
  private static int usageError(CommandLine.ParameterException e, String[] args) {
    CommandLine command = e.getCommandLine();
    PrintWriter err = command.getErr();
    err.println(e.getMessage());
    if (!CommandLine.UnmatchedArgumentException.printSuggestions(e, err)) {
      err.println("Run '" + command.getCommandSpec().qualifiedName() + " --help' for usage.");
    }
    err.flush();
    return CommandLine.ExitCode.USAGE;
  }

  /** The value of {@code --name VALUE} or {@code --name=VALUE}, or null. */
  private static Path optionValue(String[] args, String name) {
    for (int i = 0; i < args.length; i++) {
      if (args[i].equals(name) && i + 1 < args.length) {
        return Path.of(args[i + 1]);
      }
      if (args[i].startsWith(name + "=")) {
        return Path.of(args[i].substring(name.length() + 1));
      }
    }
    return null;
  }

  private static String describe(Exception e, Path config) {
    if (e instanceof NoSuchFileException) {
      return "config file not found: " + config;
    }
    return e.getMessage();
  }

  @Override
  public void run() {
    List<String> commands = new ArrayList<>(spec.subcommands().keySet());
    commands.remove("help");
    throw new CommandLine.ParameterException(spec.commandLine(),
        "Missing command: one of " + String.join(", ", commands) + " (or help)");
  }

  /** {@code Sieve VERSION (commit COMMIT)}, from what the build wrote ({@link BuildInfo}). */
  public static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      return new String[] {"Sieve " + BuildInfo.version() + " (commit " + BuildInfo.commit() + ")"};
    }
  }

  /** The crawler as a WARC warcinfo names it: {@code Sieve/VERSION}. */
  static String software() {
    return "Sieve/" + BuildInfo.version();
  }
}
