package dev.sieve.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code crawl --frontier urlfrontier://…}: the options that do not go with a URL Frontier service
 * are usage errors naming them, before any output is written or the service is called.
 */
class UrlFrontierOptionsTest {
  @TempDir Path dir;

  @Test
  void status_isForRedisOnly() throws IOException {
    assertThat(usageError("--frontier", "urlfrontier://127.0.0.1:1", "--status"))
        .contains("--status needs --frontier redis://HOST:PORT");
  }

  @Test
  void hostBudget_isRefused() throws IOException {
    assertThat(usageError("--frontier", "urlfrontier://127.0.0.1:1", "--max-pages-per-host", "5"))
        .contains("Invalid setting: --max-pages-per-host (5) is not enforced by a URL Frontier service");
  }

  @Test
  void state_isRefused() throws IOException {
    assertThat(usageError("--frontier", "urlfrontier://127.0.0.1:1", "--state",
        dir.resolve("state").toString()))
        .contains("--state keeps a local frontier's state; a URL Frontier service keeps its own");
  }

  @Test
  void malformedServiceUri_namesTheOption() throws IOException {
    assertThat(usageError("--frontier", "urlfrontier://no-port"))
        .contains("--frontier (urlfrontier://no-port) must be urlfrontier://HOST:PORT");
  }

  /** What {@code crawl ARGS} (with seeds and output in the temp dir) prints when it exits 2. */
  private String usageError(String... args) throws IOException {
    Path seeds = Files.writeString(dir.resolve("seeds.txt"), "http://127.0.0.1:1/\n");
    List<String> command = new ArrayList<>(List.of("crawl", "--seeds", seeds.toString(),
        "--output", dir.resolve("out.jsonl").toString()));
    command.addAll(List.of(args));
    CommandLine cli = new CommandLine(new Main());
    StringWriter err = new StringWriter();
    cli.setErr(new PrintWriter(err, true));
    assertThat(cli.execute(command.toArray(String[]::new))).as(err.toString())
        .isEqualTo(CommandLine.ExitCode.USAGE);
    assertThat(dir.resolve("out.jsonl")).as("no output written").doesNotExist();
    return err.toString();
  }
}
