package dev.sieve.bench;

import java.io.PrintStream;
import java.util.Locale;

/**
 * How every bench prints its figures: rows of cells indented by two spaces, each cell padded to
 * its column's width (negative: left-aligned, as names are; positive: right-aligned, as numbers
 * are; 0: as it is, for the last column), with one gap between columns.
 */
final class Table {
  private final PrintStream out;
  private final String gap;
  private final int[] widths;

  private Table(PrintStream out, String gap, int[] widths) {
    this.out = out;
    this.gap = gap;
    this.widths = widths.clone();
  }

  /** A table whose columns are one space apart. */
  static Table of(PrintStream out, int... widths) {
    return new Table(out, " ", widths);
  }

  /** A table whose columns are {@code gap} apart. */
  static Table spaced(PrintStream out, String gap, int... widths) {
    return new Table(out, gap, widths);
  }

  /** Prints one row; a cell is anything with a {@code toString}, one per column. */
  void row(Object... cells) {
    if (cells.length != widths.length) {
      throw new IllegalArgumentException(cells.length + " cells for " + widths.length + " columns");
    }
    StringBuilder line = new StringBuilder("  ");
    for (int i = 0; i < cells.length; i++) {
      if (i > 0) {
        line.append(gap);
      }
      String cell = String.valueOf(cells[i]);
      int width = Math.abs(widths[i]);
      if (widths[i] < 0) {
        line.append(cell).append(" ".repeat(Math.max(0, width - cell.length())));
      } else {
        line.append(" ".repeat(Math.max(0, width - cell.length()))).append(cell);
      }
    }
    out.println(line);
  }

  /** {@code String.format} in the root locale, for a cell or a line. */
  static String format(String format, Object... args) {
    return String.format(Locale.ROOT, format, args);
  }

  /** A rate as the benches print it: {@code 2.31 M} from a million a second up, else {@code 358 k}. */
  static String rate(double perSecond) {
    return perSecond >= 1e6 ? format("%.2f M", perSecond / 1e6) : format("%.0f k", perSecond / 1e3);
  }
}
