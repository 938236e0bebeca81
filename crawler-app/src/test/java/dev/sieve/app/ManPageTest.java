package dev.sieve.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

class ManPageTest {
  @Command(name = "tool", description = "A tool.", subcommands = Sub.class)
  static final class Tool implements Runnable {
    @Override
    public void run() {}
  }

  @Command(name = "sub", description = {"Does one thing.", ".starts with a dot, has a \\ backslash"},
      exitCodeListHeading = "Exit codes:%n", exitCodeList = {"0:done", "2:bad usage"})
  static final class Sub implements Callable<Integer> {
    @Option(names = "--count", defaultValue = "5", paramLabel = "N", description = "How many (default ${DEFAULT-VALUE}).")
    int count;

    @Option(names = "--dry-run", description = "Change nothing.")
    boolean dryRun;

    @Override
    public Integer call() {
      return 0;
    }
  }

  private final CommandLine tool = new CommandLine(new Tool());

  @Test
  void subcommandPage_namesItselfAndShowsEachOptionWithItsDefault() {
    ManPage page = new ManPage(tool.getSubcommands().get("sub").getCommandSpec(), "1.2.3");

    assertThat(page.fileName()).isEqualTo("tool-sub.1");
    assertThat(page.render())
        .startsWith(".TH \"TOOL-SUB\" 1 \"\" \"Sieve 1.2.3\" \"Sieve Manual\"\n")
        .contains(".SH NAME\ntool\\-sub \\- Does one thing.\n")
        .contains("tool sub [\\-\\-dry\\-run] [\\-\\-count=N]")
        .contains(".TP\n\\fB\\-\\-count\\fR \\fIN\\fR\nHow many (default 5).\n")
        .contains(".TP\n\\fB\\-\\-dry\\-run\\fR\nChange nothing.\n")
        .contains(".SH EXIT STATUS\n.TP\n0\ndone\n.TP\n2\nbad usage\n")
        .contains("\\fBtool\\fR(1)");
  }

  @Test
  void rootPage_listsTheSubcommandsWithTheirPages() {
    String page = new ManPage(tool.getCommandSpec(), "1.2.3").render();

    assertThat(page).contains(".SH COMMANDS\n.TP\n\\fBsub\\fR\nDoes one thing. See \\fBtool\\-sub\\fR(1).\n");
  }

  @Test
  void escape_keepsTroffFromReadingTextAsRequests() {
    assertThat(ManPage.escape(".starts with a dot, has a \\ backslash"))
        .isEqualTo("\\&.starts with a dot, has a \\e backslash");
    assertThat(ManPage.escape("'quoted%nsecond line, 50%% done")).isEqualTo("\\&'quoted\nsecond line, 50% done");
  }
}
