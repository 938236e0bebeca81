package dev.sieve.app;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParseResult;

/** {@code --report FILE} and {@code --no-report}: where {@code crawl} writes its HTML report. */
final class ReportOptions {
  /** The report's name beside the output when no --report is given. */
  static final String DEFAULT_NAME = "REPORT.html";
  /** Options whose values are never shown in a report: they may hold a secret. */
  private static final Pattern SECRET_NAME =
      Pattern.compile("(?i).*(pass|token|secret|cookie|header|auth|credential).*");
  /** The user info of a URI in a value ({@code redis://user:password@host}). */
  private static final Pattern USER_INFO = Pattern.compile("(?<=://)[^/@\\s]*@");

  @Option(names = "--report", paramLabel = "FILE",
      description = "Write the crawl report, one self-contained HTML page with charts, to FILE when the crawl ends and at each checkpoint (default: REPORT.html beside the output).")
  Path report;

  @Option(names = "--no-report", description = "Write no crawl report.")
  boolean noReport;

  /** Null, or the message when both options are on the command line. */
  String misuse(ParseResult given) {
    return given != null && given.hasMatchedOption("--report") && given.hasMatchedOption("--no-report")
        ? "--report FILE and --no-report contradict each other: give one" : null;
  }

  /**
   * The report's file, or null for none: the command line's choice first, then the config's; by
   * default REPORT.html beside {@code output}, unless the output is not a regular file (a device
   * such as /dev/full has no directory of its own to write beside).
   */
  Path file(Path output, ParseResult given) {
    if (given != null && given.hasMatchedOption("--report")) {
      return report;
    }
    if (noReport) {
      return null;
    }
    if (report != null) {
      return report;
    }
    return Files.exists(output) && !Files.isRegularFile(output) ? null : output.resolveSibling(DEFAULT_NAME);
  }

  /**
   * The run's settings as the report shows them: each option of {@code spec} but help and version,
   * by its long name, with its value; values of options that may hold a secret are hidden, and the
   * user info of any URI in a value is masked.
   */
  static Map<String, String> settings(CommandSpec spec) {
    Map<String, String> settings = new LinkedHashMap<>();
    for (OptionSpec option : spec.options()) {
      if (option.usageHelp() || option.versionHelp()) {
        continue;
      }
      String name = option.longestName();
      Object value = option.getValue();
      String shown = value == null ? "(none)" : String.valueOf(value);
      if (SECRET_NAME.matcher(name).matches() && value != null) {
        shown = "(hidden)";
      }
      settings.put(name, USER_INFO.matcher(shown).replaceAll("***@"));
    }
    return settings;
  }
}
