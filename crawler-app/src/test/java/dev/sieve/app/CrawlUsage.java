package dev.sieve.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;

/** Runs {@code crawl} in-process for tests of its usage errors. */
final class CrawlUsage {
  private CrawlUsage() {}

  /**
   * What {@code crawl ARGS}, with seeds and output in {@code dir}, prints when it exits 2 (asserted,
   * as is that no output was written).
   */
  static String error(Path dir, String... args) throws IOException {
    Path seeds = Files.writeString(dir.resolve("seeds.txt"), "http://127.0.0.1:1/\n");
    List<String> command = new ArrayList<>(List.of("crawl", "--seeds", seeds.toString(),
        "--output", dir.resolve("out.jsonl").toString()));
    command.addAll(List.of(args));
    CommandLine cli = Main.commandLine();
    StringWriter err = new StringWriter();
    cli.setErr(new PrintWriter(err, true));
    assertThat(cli.execute(command.toArray(String[]::new))).as(err.toString())
        .isEqualTo(CommandLine.ExitCode.USAGE);
    assertThat(dir.resolve("out.jsonl")).as("no output written").doesNotExist();
    return err.toString();
  }
}
