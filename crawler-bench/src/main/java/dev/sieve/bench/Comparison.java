package dev.sieve.bench;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.ToDoubleFunction;

/**
 * What {@code bench vs-wget} concludes from the runs of both tools: whether every run found the
 * HTML pages of wget's first run (and which not, if not), and pages/s, CPU per page and wall time
 * with the ratio sieve/wget of each pair of runs, as median (min–max).
 */
final class Comparison {
  private static final int SHOWN = 10;

  private Comparison() {}

  /** Prints the comparison; true when every run of both found the same pages. */
  static boolean print(PrintStream out, Tool wget, Tool sieve) {
    Set<String> reference = wget.runs.get(0).pages();
    boolean same = true;
    for (Tool tool : List.of(wget, sieve)) {
      for (int i = 0; i < tool.runs.size(); i++) {
        Tool.Run run = tool.runs.get(i);
        same &= run.failure() == null && printDifference(out, tool.name + " run " + (i + 1), reference, run.pages());
      }
    }
    if (same) {
      out.printf("URL sets: every run of both found the same %,d HTML pages%n", reference.size());
    }
    out.printf("%d runs each; median (min-max); ratio = sieve/wget of each pair of runs:%n", wget.runs.size());
    Table table = Table.of(out, -22, 24, 24, 22);
    table.row("", "wget", "sieve", "sieve/wget");
    row(table, "pages/s", "%,.0f", "%.2fx", wget, sieve, Tool.Run::pagesPerSecond);
    row(table, "CPU-s / 1,000 pages", "%.3f", "%.2fx", wget, sieve, Tool.Run::cpuPerThousand);
    row(table, "wall s", "%.2f", "%.2fx", wget, sieve, Tool.Run::seconds);
    return same;
  }

  private static void row(Table table, String name, String format, String ratioFormat, Tool wget, Tool sieve,
      ToDoubleFunction<Tool.Run> measure) {
    List<Double> ratios = new ArrayList<>();
    int pairs = Math.min(wget.runs.size(), sieve.runs.size());
    for (int i = 0; i < pairs; i++) {
      ratios.add(measure.applyAsDouble(sieve.runs.get(i)) / measure.applyAsDouble(wget.runs.get(i)));
    }
    table.row(name, summary(format, values(wget, measure)), summary(format, values(sieve, measure)),
        summary(ratioFormat, ratios));
  }

  private static List<Double> values(Tool tool, ToDoubleFunction<Tool.Run> measure) {
    List<Double> values = new ArrayList<>();
    tool.runs.forEach(run -> values.add(measure.applyAsDouble(run)));
    return values;
  }

  /** {@code median (min-max)}; the median of an even count is the mean of the middle two. */
  static String summary(String format, List<Double> values) {
    List<Double> sorted = new ArrayList<>(values);
    Collections.sort(sorted);
    int n = sorted.size();
    double median = n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    return Table.format(format + " (" + format + "-" + format + ")", median, sorted.get(0), sorted.get(n - 1));
  }

  /** Prints the pages only one side found; true when there are none. */
  private static boolean printDifference(PrintStream out, String name, Set<String> reference, Set<String> found) {
    Set<String> missing = new TreeSet<>(reference);
    missing.removeAll(found);
    Set<String> extra = new TreeSet<>(found);
    extra.removeAll(reference);
    if (missing.isEmpty() && extra.isEmpty()) {
      return true;
    }
    out.printf("%s: %,d of wget run 1's pages missing, %,d pages it did not fetch%n", name, missing.size(), extra.size());
    missing.stream().limit(SHOWN).forEach(page -> out.println("  - " + page));
    extra.stream().limit(SHOWN).forEach(page -> out.println("  + " + page));
    return false;
  }
}
