package dev.sieve.app.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * An SVG line chart over time: lines (one {@code <path>} each), an optional dashed level (such as
 * a capacity) and vertical markers (such as warnings), with round axes from 0. Labels are escaped;
 * coordinates are written with one decimal, so its size is about 12 bytes per point.
 */
final class LineChart {
  static final int WIDTH = 760;
  static final int HEIGHT = 260;
  private static final int LEFT = 64;
  private static final int RIGHT = 16;
  private static final int TOP = 30;
  private static final int BOTTOM = 34;

  private final String title;
  private final List<Line> lines = new ArrayList<>();
  private final List<Marker> markers = new ArrayList<>();
  private String levelLabel;
  private double level = Double.NaN;

  /** One line: its name in the legend, its colour, and its points (x in seconds). */
  record Line(String name, String color, double[] xs, double[] ys) {}

  /** A vertical marker at {@code x} seconds, with a label shown on hover. */
  record Marker(double x, String label) {}

  LineChart(String title) {
    this.title = title;
  }

  LineChart line(String name, String color, double[] xs, double[] ys) {
    lines.add(new Line(name, color, xs, ys));
    return this;
  }

  /** A dashed horizontal line at {@code y}, named {@code label}. */
  LineChart level(String label, double y) {
    this.levelLabel = label;
    this.level = y;
    return this;
  }

  LineChart marker(double x, String label) {
    markers.add(new Marker(x, label));
    return this;
  }

  String svg() {
    double maxX = 0;
    double maxY = Double.isNaN(level) ? 0 : level;
    for (Line line : lines) {
      for (double x : line.xs) {
        maxX = Math.max(maxX, x);
      }
      for (double y : line.ys) {
        maxY = Math.max(maxY, y);
      }
    }
    for (Marker marker : markers) {
      maxX = Math.max(maxX, marker.x);
    }
    Axis xAxis = Axis.upTo(maxX, true);
    Axis yAxis = Axis.upTo(maxY, false);
    StringBuilder svg = new StringBuilder(1024);
    svg.append(String.format(Locale.ROOT, "<svg class=\"chart\" viewBox=\"0 0 %d %d\" role=\"img\""
        + " aria-label=\"%s\" xmlns=\"http://www.w3.org/2000/svg\">", WIDTH, HEIGHT, Html.escape(title)));
    svg.append("<text class=\"title\" x=\"").append(LEFT).append("\" y=\"18\">")
        .append(Html.escape(title)).append("</text>");
    grid(svg, xAxis, yAxis);
    if (!Double.isNaN(level)) {
      double y = y(level, yAxis);
      svg.append(String.format(Locale.ROOT, "<path class=\"level\" d=\"M%.1f %.1fH%.1f\"><title>%s</title></path>",
          (double) LEFT, y, (double) WIDTH - RIGHT, Html.escape(levelLabel + ": " + Axis.count(level))));
    }
    for (Marker marker : markers) {
      double x = x(marker.x, xAxis);
      svg.append(String.format(Locale.ROOT, "<path class=\"marker\" d=\"M%.1f %dV%d\"><title>%s</title></path>",
          x, TOP, HEIGHT - BOTTOM, Html.escape(marker.label)));
    }
    for (int n = 0; n < lines.size(); n++) {
      Line line = lines.get(n);
      // The first line drawn widest, so that a later one lying on it leaves it visible.
      svg.append(String.format(Locale.ROOT, "<path class=\"line\" stroke=\"%s\" stroke-width=\"%.1f\" d=\"",
          line.color, 2 + 2.5 * (lines.size() - 1 - n)));
      for (int i = 0; i < line.xs.length; i++) {
        svg.append(String.format(Locale.ROOT, "%s%.1f %.1f", i == 0 ? "M" : "L",
            x(line.xs[i], xAxis), y(line.ys[i], yAxis)));
      }
      svg.append("\"><title>").append(Html.escape(line.name)).append("</title></path>");
    }
    legend(svg);
    if (lines.stream().allMatch(line -> line.xs.length == 0)) {
      svg.append("<text class=\"empty\" x=\"").append(WIDTH / 2).append("\" y=\"").append(HEIGHT / 2)
          .append("\">no samples yet</text>");
    }
    return svg.append("</svg>").toString();
  }

  private void grid(StringBuilder svg, Axis xAxis, Axis yAxis) {
    svg.append("<g class=\"axis\">");
    for (double tick : yAxis.ticks()) {
      double y = y(tick, yAxis);
      svg.append(String.format(Locale.ROOT, "<path d=\"M%d %.1fH%d\"/><text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>",
          LEFT, y, WIDTH - RIGHT, LEFT - 6, y + 4, yAxis.label(tick)));
    }
    for (double tick : xAxis.ticks()) {
      double x = x(tick, xAxis);
      svg.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>",
          x, HEIGHT - BOTTOM + 16, xAxis.label(tick)));
    }
    svg.append("</g>");
  }

  private void legend(StringBuilder svg) {
    int x = WIDTH - RIGHT;
    List<String> names = new ArrayList<>();
    List<String> colors = new ArrayList<>();
    lines.forEach(line -> {
      names.add(line.name);
      colors.add(line.color);
    });
    if (!Double.isNaN(level)) {
      names.add(levelLabel);
      colors.add("#888");
    }
    if (!markers.isEmpty()) {
      names.add("capacity WARN");
      colors.add("#d62728");
    }
    for (int i = names.size() - 1; i >= 0; i--) {
      String name = Html.escape(names.get(i));
      svg.append(String.format(Locale.ROOT, "<text class=\"legend\" x=\"%d\" y=\"18\" text-anchor=\"end\""
          + " style=\"fill:%s\">%s</text>", x, colors.get(i), name));
      x -= 14 + 7 * names.get(i).length();
    }
  }

  private static double x(double seconds, Axis axis) {
    return LEFT + seconds / axis.max() * (WIDTH - LEFT - RIGHT);
  }

  private static double y(double value, Axis axis) {
    return HEIGHT - BOTTOM - value / axis.max() * (HEIGHT - TOP - BOTTOM);
  }
}
