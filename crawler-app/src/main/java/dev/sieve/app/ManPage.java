package dev.sieve.app;

import java.util.List;
import java.util.Locale;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/**
 * One command's man page in troff (man(7) macros), rendered from its picocli model: the name line,
 * the synopsis, the description, each option with its default as {@code --help} shows it, the
 * subcommands, and the exit codes. {@link DistFiles} writes one per command at build time.
 */
final class ManPage {
  private final CommandSpec spec;
  private final String version;

  ManPage(CommandSpec spec, String version) {
    this.spec = spec;
    this.version = version;
  }

  /** The page's file name: {@code sieve-crawl.1} for {@code sieve crawl}. */
  String fileName() {
    return pageName() + ".1";
  }

  private String pageName() {
    return spec.qualifiedName("-");
  }

  /** The whole page. */
  String render() {
    StringBuilder page = new StringBuilder();
    page.append(".TH \"").append(pageName().toUpperCase(Locale.ROOT)).append("\" 1 \"\" \"Sieve ")
        .append(escape(version)).append("\" \"Sieve Manual\"\n");
    page.append(".SH NAME\n").append(escape(pageName())).append(" \\- ")
        .append(escape(firstLine(spec.usageMessage().description()))).append('\n');
    page.append(".SH SYNOPSIS\n.nf\n")
        .append(escape(new CommandLine.Help(spec, CommandLine.Help.defaultColorScheme(
            CommandLine.Help.Ansi.OFF)).synopsis(0).strip())).append("\n.fi\n");
    page.append(".SH DESCRIPTION\n");
    for (String line : spec.usageMessage().description()) {
      page.append(escape(line)).append("\n.PP\n");
    }
    options(page);
    commands(page);
    exitCodes(page);
    page.append(".SH SEE ALSO\n");
    if (spec.parent() != null) {
      page.append("\\fB").append(escape(spec.root().name())).append("\\fR(1), ");
    }
    page.append("the pages under docs/ in the distribution.\n");
    return page.toString();
  }

  private void options(StringBuilder page) {
    List<PositionalParamSpec> positionals = spec.positionalParameters();
    if (spec.options().isEmpty() && positionals.isEmpty()) {
      return;
    }
    page.append(".SH OPTIONS\n");
    for (PositionalParamSpec positional : positionals) {
      page.append(".TP\n\\fI").append(escape(positional.paramLabel())).append("\\fR\n")
          .append(escape(String.join(" ", positional.description()))).append('\n');
    }
    for (OptionSpec option : spec.options()) {
      if (option.hidden()) {
        continue;
      }
      page.append(".TP\n\\fB").append(escape(String.join(", ", option.names()))).append("\\fR");
      if (option.arity().max() > 0) {
        page.append(" \\fI").append(escape(option.paramLabel())).append("\\fR");
      }
      page.append('\n').append(escape(String.join(" ", option.description()))).append('\n');
    }
  }

  private void commands(StringBuilder page) {
    if (spec.subcommands().isEmpty()) {
      return;
    }
    page.append(".SH COMMANDS\n");
    spec.subcommands().forEach((name, sub) -> {
      CommandSpec child = sub.getCommandSpec();
      page.append(".TP\n\\fB").append(escape(name)).append("\\fR\n")
          .append(escape(firstLine(child.usageMessage().description())));
      if (!"help".equals(name)) {
        page.append(" See \\fB").append(escape(child.qualifiedName("-"))).append("\\fR(1).");
      }
      page.append('\n');
    });
  }

  private void exitCodes(StringBuilder page) {
    var codes = spec.usageMessage().exitCodeList();
    if (codes.isEmpty()) {
      return;
    }
    page.append(".SH EXIT STATUS\n");
    codes.forEach((code, meaning) -> page.append(".TP\n").append(escape(code.strip()))
        .append('\n').append(escape(meaning.strip())).append('\n'));
  }

  private static String firstLine(String[] description) {
    return description.length == 0 ? "" : description[0];
  }

  /**
   * Description text (a picocli format string: %n a line break, %% a percent sign) made safe in
   * troff: backslashes escaped, hyphens as minus signs, no line read as a request.
   */
  static String escape(String text) {
    String plain = text.replace("%n", "\n").replace("%%", "%").strip();
    String escaped = plain.replace("\\", "\\e").replace("-", "\\-");
    StringBuilder out = new StringBuilder();
    String[] lines = escaped.split("\n", -1);
    for (int i = 0; i < lines.length; i++) {
      String line = lines[i];
      if (i > 0) {
        out.append('\n');
      }
      if (line.startsWith(".") || line.startsWith("'")) {
        out.append("\\&");
      }
      out.append(line);
    }
    return out.toString();
  }
}
