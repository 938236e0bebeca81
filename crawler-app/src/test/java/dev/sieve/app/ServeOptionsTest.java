package dev.sieve.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/** Every option of {@code serve} has a row in docs/serve.md's table showing its --help default. */
class ServeOptionsTest {
  private final CommandLine serve = Main.commandLine().getSubcommands().get("serve");

  @Test
  void docsServeTable_showsEachOptionWithItsDefault() throws IOException {
    String readme = Files.readString(Path.of("..", "docs", "serve.md"));
    int start = readme.indexOf("# `sieve serve`");
    assertThat(start).as("docs/serve.md has a serve section").isNotNegative();
    int next = readme.indexOf("\n#", start + 1);
    int end = next < 0 ? readme.length() : next;
    Map<String, String> rows = new LinkedHashMap<>();
    for (String line : readme.substring(start, end).split("\\R")) {
      String[] cells = line.split("\\|");
      if (cells.length >= 4 && cells[1].strip().startsWith("`--")) {
        rows.put(cells[1].strip().replace("`", "").split(" ")[0],
            cells[2].strip().replaceAll("(?<=\\d),(?=\\d{3})", ""));
      }
    }
    SoftAssertions softly = new SoftAssertions();
    for (OptionSpec option : serve.getCommandSpec().options()) {
      if (option.usageHelp() || option.versionHelp()) {
        continue;
      }
      softly.assertThat(rows.get(option.longestName())).as("docs/serve.md row of " + option.longestName())
          .isEqualTo(option.defaultValue() == null ? "none" : option.defaultValue());
    }
    softly.assertThat(rows.keySet()).as("docs/serve.md rows for options serve does not have")
        .allMatch(name -> serve.getCommandSpec().findOption(name) != null);
    softly.assertAll();
  }

  @Test
  void version_namesTheUrlFrontierApiVersionServed() {
    StringWriter out = new StringWriter();
    CommandLine main = Main.commandLine();
    main.setOut(new PrintWriter(out));
    assertThat(main.execute("serve", "--version")).isZero();
    assertThat(out.toString()).startsWith("Sieve ").contains("\nURL Frontier API 2.6 ");
  }

  @Test
  void badOption_isAUsageErrorNamingIt() {
    assertThat(usageError("--fpp", "2")).contains("--fpp (2.0) must be in (0, 1)");
    assertThat(usageError("--port", "70000")).contains("--port (70000) must be between 0 and 65535");
    assertThat(usageError("--checkpoint-interval", "0"))
        .contains("--checkpoint-interval (0) must be");
    assertThat(usageError("--frontier", "http://127.0.0.1:6379"))
        .contains("--frontier (http://127.0.0.1:6379) must be redis://HOST:PORT[/DB]");
    assertThat(usageError("--frontier", "redis://127.0.0.1:6379", "--state", "x"))
        .contains("--frontier and --state cannot be used together");
  }

  @Test
  void frontierRedisUnreachable_exits2NamingIt() throws IOException {
    int closedPort;
    try (java.net.ServerSocket socket = new java.net.ServerSocket(0, 1,
        java.net.InetAddress.getLoopbackAddress())) {
      closedPort = socket.getLocalPort();
    }
    CommandLine cli = Main.commandLine();
    java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
    java.io.PrintStream stderr = System.err;
    System.setErr(new java.io.PrintStream(err, true, java.nio.charset.StandardCharsets.UTF_8));
    try {
      assertThat(cli.execute("serve", "--port", "0", "--frontier",
          "redis://127.0.0.1:" + closedPort)).isEqualTo(CommandLine.ExitCode.USAGE);
    } finally {
      System.setErr(stderr);
    }
    assertThat(err.toString(java.nio.charset.StandardCharsets.UTF_8))
        .startsWith("serve: cannot reach Redis at redis://127.0.0.1:" + closedPort);
  }

  /** What {@code serve ARGS} prints when it exits 2 without starting. */
  private static String usageError(String... args) {
    CommandLine cli = Main.commandLine();
    StringWriter err = new StringWriter();
    cli.setErr(new PrintWriter(err, true));
    String[] command = new String[args.length + 1];
    command[0] = "serve";
    System.arraycopy(args, 0, command, 1, args.length);
    assertThat(cli.execute(command)).isEqualTo(CommandLine.ExitCode.USAGE);
    return err.toString();
  }
}
