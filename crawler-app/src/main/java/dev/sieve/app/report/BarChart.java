package dev.sieve.app.report;

import java.util.Locale;
import java.util.Map;

/**
 * An SVG chart of horizontal bars, one per label in the map's order, each a {@code <path>} with its
 * exact value written beside it and in a {@code data-value} attribute. Labels are escaped.
 */
final class BarChart {
  private static final int WIDTH = 760;
  private static final int LABEL = 260;
  private static final int ROW = 22;
  private static final int TOP = 30;

  private BarChart() {}

  /**
   * The chart of {@code values} titled {@code title}; each bar's group carries {@code
   * data-KEY="label"} so that a reader can find it.
   */
  static String svg(String title, String key, Map<String, Long> values, String color) {
    long max = values.values().stream().mapToLong(Long::longValue).max().orElse(0);
    int height = TOP + Math.max(1, values.size()) * ROW + 8;
    StringBuilder svg = new StringBuilder(512);
    svg.append(String.format(Locale.ROOT, "<svg class=\"chart bars\" viewBox=\"0 0 %d %d\" role=\"img\""
        + " aria-label=\"%s\" xmlns=\"http://www.w3.org/2000/svg\">", WIDTH, height, Html.escape(title)));
    svg.append("<text class=\"title\" x=\"4\" y=\"18\">").append(Html.escape(title)).append("</text>");
    if (values.isEmpty()) {
      svg.append("<text class=\"empty\" x=\"").append(LABEL).append("\" y=\"").append(TOP + 15)
          .append("\">none</text>");
    }
    int row = 0;
    double span = WIDTH - LABEL - 90;
    for (Map.Entry<String, Long> entry : values.entrySet()) {
      String label = Html.escape(entry.getKey());
      long value = entry.getValue();
      double y = TOP + row * ROW;
      double width = max == 0 ? 0 : Math.max(1, value * span / max);
      svg.append(String.format(Locale.ROOT, "<g data-%s=\"%s\" data-value=\"%d\">"
              + "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>"
              + "<path fill=\"%s\" d=\"M%d %.1fh%.1fv16h%.1fz\"><title>%s: %,d</title></path>"
              + "<text x=\"%.1f\" y=\"%.1f\">%,d</text></g>",
          key, label, value, LABEL - 8, y + 13, shorten(label), color, LABEL, y, width, -width,
          label, value, LABEL + width + 6, y + 13, value));
      row++;
    }
    return svg.append("</svg>").toString();
  }

  /** An escaped label cut to about 40 characters (the full one is in the bar's title). */
  private static String shorten(String escaped) {
    if (escaped.length() <= 40) {
      return escaped;
    }
    int cut = 38;
    int amp = escaped.lastIndexOf('&', cut);
    if (amp >= 0 && escaped.indexOf(';', amp) >= cut) {
      cut = amp; // do not cut inside a character reference
    }
    return escaped.substring(0, cut) + "…";
  }
}
