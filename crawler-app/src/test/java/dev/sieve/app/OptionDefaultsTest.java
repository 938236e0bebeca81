package dev.sieve.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sieve.crawl.CrawlConfig;
import dev.sieve.url.Scope;
import dev.sieve.url.Url;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The defaults of {@code crawl}'s options, which come from the settings types' constants, are the
 * ones config/crawler.properties, {@code crawl --help} and docs/crawl.md's option table show, and
 * the ones the settings builders use: none of them can drift. Every option of every other command
 * has a row in its docs page's table too, with the default its --help shows.
 */
class OptionDefaultsTest {
  private static final Path ROOT = DocPages.ROOT;
  /** Options that decide one run; config files refuse them (see {@link ConfigDefaults}). */
  private static final Set<String> ONE_RUN = Set.of("fresh", "overwrite", "add-seeds", "status", "config");
  /** What the docs and --help say for an option without a default value. */
  private static final Set<String> NO_VALUE = Set.of("none", "(required)", "(required with Redis)", "no limit");
  private static final Pattern HELP_DEFAULT = Pattern.compile("\\([Dd]efault:? ([^)]*)\\)");

  private final CommandLine crawl = Main.commandLine().getSubcommands().get("crawl");

  @Test
  void configFile_holdsEveryCrawlSettingWithItsDefault() throws IOException {
    Properties properties = new Properties();
    try (Reader reader = Files.newBufferedReader(ROOT.resolve("config/crawler.properties"), StandardCharsets.UTF_8)) {
      properties.load(reader);
    }
    SoftAssertions softly = new SoftAssertions();
    for (OptionSpec option : settings()) {
      String key = key(option);
      if (ONE_RUN.contains(key)) {
        softly.assertThat(properties).as(key).doesNotContainKey(key);
        continue;
      }
      softly.assertThat(properties).as("config/crawler.properties lacks " + key).containsKey(key);
      String value = properties.getProperty(key, "").strip();
      String expected = defaultOf(option);
      softly.assertThat(value).as("config/crawler.properties: " + key)
          .isEqualTo(expected == null ? "" : expected);
    }
    softly.assertAll();
  }

  @Test
  void help_showsEachDefault() {
    Map<String, String> help = helpSections(crawl.getUsageMessage(CommandLine.Help.Ansi.OFF));
    SoftAssertions softly = new SoftAssertions();
    for (OptionSpec option : settings()) {
      String section = help.get(option.longestName());
      softly.assertThat(section).as("--help lists " + option.longestName()).isNotNull();
      String expected = defaultOf(option);
      if (section == null || isFlag(option)) {
        continue;
      }
      if (expected != null) {
        softly.assertThat(section.replaceAll("\\s", "")).as("--help of " + option.longestName())
            .containsIgnoringCase(("default" + expected).replaceAll("\\s", ""));
      } else {
        softly.assertThat(section).as("--help of " + option.longestName() + " shows no value")
            .doesNotContainPattern("[Dd]efault:? \\d");
      }
    }
    softly.assertAll();
  }

  @Test
  void docs_showEveryOptionOfEveryCommandWithItsDefault() {
    SoftAssertions softly = new SoftAssertions();
    List<CommandLine> commands = DistFiles.commands(Main.commandLine());
    // crawler-bench is on the test class path (a runtime dependency): its commands are checked too.
    softly.assertThat(commands).extracting(c -> c.getCommandSpec().qualifiedName(" "))
        .contains("sieve bench", "sieve bench sieve", "sieve bench vs-wget");
    for (CommandLine command : commands) {
      List<OptionSpec> options = settings(command);
      if (options.isEmpty()) {
        continue;
      }
      String name = command.getCommandSpec().qualifiedName(" ");
      List<DocPages.OptionRow> rows = new ArrayList<>();
      for (String[] where : docSections(name)) {
        String page = DocPages.read(DocPages.ROOT.resolve(where[0]));
        rows.addAll(DocPages.optionRows(DocPages.section(page, where[1])));
      }
      Map<String, String> help = helpSections(command.getUsageMessage(CommandLine.Help.Ansi.OFF));
      for (OptionSpec option : options) {
        List<String> cells = rows.stream().filter(row -> row.name().equals(option.longestName()))
            .map(DocPages.OptionRow::defaultCell).toList();
        softly.assertThat(cells).as("%s: %s has a row in %s", name, option.longestName(),
            docSections(name)[0][0]).isNotEmpty();
        for (String cell : cells) {
          checkDefault(softly, name, option, cell, help.getOrDefault(option.longestName(), ""));
        }
      }
      softly.assertThat(rows).as("%s: rows for options it does not have", name)
          .allMatch(row -> command.getCommandSpec().findOption(row.name()) != null);
    }
    softly.assertAll();
  }

  /**
   * Where a command's options are documented: the page, and the start of the heading over its
   * option table; {@code crawl}'s options of a shared frontier also in the distributed page.
   */
  private static String[][] docSections(String command) {
    String heading = "`" + command + "`";
    String[] words = command.split(" ");
    String topic = words.length < 2 ? "" : words[1];
    String page = switch (topic) {
      case "crawl", "demo" -> "docs/crawl.md";
      case "size" -> "docs/filters.md";
      case "serve" -> "docs/serve.md";
      case "bench" -> "docs/benchmarks.md";
      default -> "README.md";
    };
    if (topic.equals("crawl")) {
      return new String[][] {{page, heading}, {"docs/distributed.md", "Distributed crawling"}};
    }
    return new String[][] {{page, heading}};
  }

  /** The text as {@link DocPages#optionRows} reads a cell: "10000", not "10,000"; null stays null. */
  private static String withoutThousands(String text) {
    return text == null ? null : text.replaceAll("(?<=\\d),(?=\\d{3})", "");
  }

  /** The default cell of a docs table row against the option's default and its --help. */
  private static void checkDefault(SoftAssertions softly, String command, OptionSpec option, String cell,
      String helpSection) {
    String name = command + " " + option.longestName();
    String expected = withoutThousands(defaultOf(option));
    if (isFlag(option)) {
      softly.assertThat(cell).as("docs default of flag " + name).isEqualTo("off");
    } else if (expected != null) {
      softly.assertThat(cell).as("docs default of " + name).satisfiesAnyOf(
          c -> assertThat(c).isEqualTo(expected), c -> assertThat(c).startsWith(expected + " ("));
    } else {
      String shown = withoutThousands(helpDefault(helpSection));
      if (shown != null) {
        softly.assertThat(cell).as("docs default of " + name + " (as --help says)").isEqualTo(shown);
      } else {
        softly.assertThat(cell).as("docs default of " + name).isIn(NO_VALUE);
      }
    }
  }

  @Test
  void builders_useTheOptionDefaults() {
    CrawlConfig config = CrawlConfig.builder()
        .seeds(List.of(Url.parse("http://127.0.0.1:9/").orElseThrow())).build();
    OutputSettings output = OutputSettings.builder().build();

    assertThat(config.threads()).as("no --threads: one per core")
        .isEqualTo(Runtime.getRuntime().availableProcessors());
    assertThat(config.maxInFlight()).isEqualTo(Integer.parseInt(defaultOf("--max-in-flight")));
    assertThat(config.fetch().maxIdleConnections())
        .isEqualTo(Integer.parseInt(defaultOf("--max-idle-connections")));
    assertThat(config.frontierSettings().expectedUrls).isEqualTo(Long.parseLong(defaultOf("--expected-urls")));
    assertThat(config.frontierSettings().falsePositiveRate).isEqualTo(Double.parseDouble(defaultOf("--fpp")));
    assertThat(config.fetch().userAgent()).isEqualTo(defaultOf("--user-agent"));
    assertThat(config.fetch().retries()).isEqualTo(Integer.parseInt(defaultOf("--retries")));
    assertThat(config.fetch().hostFailureLimit())
        .isEqualTo(Integer.parseInt(defaultOf("--host-failure-limit")));
    assertThat(config.fetch().maxRetryAfter().toSeconds())
        .isEqualTo(Long.parseLong(defaultOf("--max-retry-after")));
    assertThat(config.fetch().maxBodyBytes()).isEqualTo(Long.parseLong(defaultOf("--max-body-bytes")));
    assertThat(config.robots().maxCrawlDelay().toSeconds())
        .isEqualTo(Long.parseLong(defaultOf("--max-crawl-delay")));
    assertThat(config.scope().scope()).isEqualTo(Scope.fromString(defaultOf("--scope")).orElseThrow());
    assertThat(config.scope().maxDepth()).as("no --max-depth: unlimited").isEqualTo(Integer.MAX_VALUE);
    assertThat(config.scope().maxUrlLength()).isEqualTo(Integer.parseInt(defaultOf("--max-url-length")));
    assertThat(config.scope().maxOutlinks()).isEqualTo(Integer.parseInt(defaultOf("--max-outlinks")));
    assertThat(config.scope().maxQueryVariants())
        .isEqualTo(Integer.parseInt(defaultOf("--max-query-variants")));
    assertThat(config.scope().maxPathDepth()).isEqualTo(Integer.parseInt(defaultOf("--max-path-depth")));
    assertThat(config.scope().maxRepeatedSegments())
        .isEqualTo(Integer.parseInt(defaultOf("--max-repeated-segments")));
    assertThat(config.scope().followNofollow()).isFalse();
    assertThat(config.scope().allowPrivate()).isFalse();
    assertThat(output.file()).isEqualTo(Path.of(defaultOf("--output")));
    assertThat(output.progressInterval().toSeconds())
        .isEqualTo(Long.parseLong(defaultOf("--progress-interval")));
  }

  /** Every option of crawl but help and version. */
  private List<OptionSpec> settings() {
    return settings(crawl);
  }

  /** Every option of a command but help and version. */
  private static List<OptionSpec> settings(CommandLine command) {
    List<OptionSpec> options = new ArrayList<>();
    for (OptionSpec option : command.getCommandSpec().options()) {
      if (!option.usageHelp() && !option.versionHelp()) {
        options.add(option);
      }
    }
    return options;
  }

  private String defaultOf(String name) {
    return defaultOf(crawl.getCommandSpec().findOption(name));
  }

  /** The option's default as text; false for a flag; null when it has none. */
  private static String defaultOf(OptionSpec option) {
    if (isFlag(option)) {
      return "false";
    }
    return option.defaultValue();
  }

  private static boolean isFlag(OptionSpec option) {
    return option.arity().max() == 0;
  }

  private static String key(OptionSpec option) {
    return option.longestName().replaceFirst("^-+", "");
  }

  /** Option name to its help text (the option line and the description under it), one line. */
  private static Map<String, String> helpSections(String usage) {
    Map<String, String> sections = new LinkedHashMap<>();
    Pattern optionLine = Pattern.compile("^  (?:-\\w, |    )(--[\\w-]+)(.*)$");
    String name = null;
    StringBuilder text = new StringBuilder();
    for (String line : usage.split("\\R")) {
      Matcher m = optionLine.matcher(line);
      if (m.matches()) {
        if (name != null) {
          sections.put(name, text.toString().strip().replaceAll("\\s+", " "));
        }
        name = m.group(1);
        text.setLength(0);
        text.append(m.group(2));
      } else if (name != null) {
        text.append(' ').append(line.strip());
      }
    }
    if (name != null) {
      sections.put(name, text.toString().strip().replaceAll("\\s+", " "));
    }
    return sections;
  }

  /** What a help text without a default value says in its place: "(default: no limit)". */
  private static String helpDefault(String section) {
    Matcher m = HELP_DEFAULT.matcher(section);
    return m.find() ? m.group(1).strip() : null;
  }
}
