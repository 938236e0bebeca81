package dev.sieve.app;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.text.Normalizer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/** README.md and the pages under docs/ as the tests of the documentation read them. */
final class DocPages {
  static final Path ROOT = Path.of("..");
  private static final Pattern HEADING = Pattern.compile("^(#{1,6}) (.*)$");

  private DocPages() {}

  /** README.md and every docs/*.md, whatever pages there are. */
  static List<Path> all() {
    List<Path> pages = new ArrayList<>();
    pages.add(ROOT.resolve("README.md"));
    try (Stream<Path> docs = Files.list(ROOT.resolve("docs"))) {
      docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return pages;
  }

  static String read(Path page) {
    try {
      return Files.readString(page);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The page's lines outside code blocks (a fenced block's lines become empty). */
  static List<String> prose(String page) {
    List<String> lines = new ArrayList<>();
    boolean fenced = false;
    for (String line : page.split("\\R", -1)) {
      if (line.startsWith("```")) {
        fenced = !fenced;
        lines.add("");
      } else {
        lines.add(fenced ? "" : line);
      }
    }
    return lines;
  }

  /** The anchors GitHub makes for the page's headings, "-1", "-2" after repeats. */
  static Set<String> anchors(String page) {
    Set<String> anchors = new LinkedHashSet<>();
    Map<String, Integer> seen = new LinkedHashMap<>();
    for (String line : prose(page)) {
      Matcher m = HEADING.matcher(line);
      if (m.matches()) {
        String slug = slug(m.group(2));
        int repeat = seen.merge(slug, 1, Integer::sum) - 1;
        anchors.add(repeat == 0 ? slug : slug + "-" + repeat);
      }
    }
    return anchors;
  }

  /** GitHub's heading anchor: lower case, punctuation dropped, spaces as hyphens. */
  static String slug(String heading) {
    String text = heading.strip().replaceAll("\\[([^]]*)]\\([^)]*\\)", "$1");
    text = Normalizer.normalize(text, Normalizer.Form.NFC).toLowerCase(Locale.ROOT);
    return text.replaceAll("[^\\p{L}\\p{N}\\p{M} _-]", "").replace(' ', '-');
  }

  /**
   * The text under the first heading that starts with {@code headingStart} (with "`sieve
   * bench`", "## `sieve bench`: …" and not "### `sieve bench crawl`"), up to the next heading of
   * any level; fails when the page has no such heading.
   */
  static String section(String page, String headingStart) {
    List<String> lines = prose(page);
    int start = -1;
    for (int i = 0; i < lines.size() && start < 0; i++) {
      Matcher m = HEADING.matcher(lines.get(i));
      if (m.matches() && m.group(2).startsWith(headingStart)) {
        start = i;
      }
    }
    if (start < 0) {
      throw new AssertionError("no heading starting with " + headingStart);
    }
    StringBuilder text = new StringBuilder();
    for (int i = start + 1; i < lines.size() && !HEADING.matcher(lines.get(i)).matches(); i++) {
      text.append(lines.get(i)).append('\n');
    }
    return text.toString();
  }

  /** One row of an option table: the option's name and its default cell. */
  record OptionRow(String name, String defaultCell) {}

  /**
   * The rows of the option tables in a text: the first cell names the option ({@code `--x N`}),
   * the second is its default, backticks and thousands separators removed.
   */
  static List<OptionRow> optionRows(String text) {
    List<OptionRow> rows = new ArrayList<>();
    for (String line : text.split("\\R")) {
      String[] cells = line.split("(?<!\\\\)\\|");
      if (cells.length < 4 || !cells[1].strip().startsWith("`--")) {
        continue;
      }
      String name = cells[1].strip().replace("`", "").split(" ")[0];
      String cell = cells[2].strip().replace("`", "").replaceAll("(?<=\\d),(?=\\d{3})", "");
      rows.add(new OptionRow(name.toLowerCase(Locale.ROOT), cell));
    }
    return rows;
  }
}
