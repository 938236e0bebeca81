package dev.sieve.app.report;

import java.util.Locale;

/**
 * A chart axis from 0 to a round maximum with 4 to 10 round ticks (1, 2 or 5 times a power of
 * ten), and how its values are written: counts ({@code 12k}, {@code 3.5M}) or durations.
 */
record Axis(double max, double step, boolean seconds) {
  /** An axis reaching at least {@code highest} (an empty or zero range gets 0 to 1). */
  static Axis upTo(double highest, boolean seconds) {
    if (!(highest > 0) || Double.isInfinite(highest)) {
      return new Axis(1, 0.25, seconds);
    }
    double rough = highest / 5;
    double power = Math.pow(10, Math.floor(Math.log10(rough)));
    double step = power;
    for (double factor : new double[] {1, 2, 5, 10}) {
      step = factor * power;
      if (step >= rough) {
        break;
      }
    }
    return new Axis(Math.ceil(highest / step - 1e-9) * step, step, seconds);
  }

  /** The ticks' values, 0 and max included. */
  double[] ticks() {
    int n = (int) Math.round(max / step);
    double[] ticks = new double[n + 1];
    for (int i = 0; i <= n; i++) {
      ticks[i] = i * step;
    }
    return ticks;
  }

  /** A tick's label. */
  String label(double value) {
    return seconds ? duration(value) : count(value);
  }

  /** {@code 950}, {@code 1.5k}, {@code 12k}, {@code 3.5M}; fractions below 10 keep 2 digits. */
  static String count(double value) {
    double abs = Math.abs(value);
    if (abs >= 1e9) {
      return trim(value / 1e9) + "G";
    }
    if (abs >= 1e6) {
      return trim(value / 1e6) + "M";
    }
    if (abs >= 1e3) {
      return trim(value / 1e3) + "k";
    }
    return trim(value);
  }

  /** {@code 45 s}, {@code 2.5 min}, {@code 3 h}. */
  static String duration(double seconds) {
    if (seconds >= 7200) {
      return trim(seconds / 3600) + " h";
    }
    if (seconds >= 120) {
      return trim(seconds / 60) + " min";
    }
    return trim(seconds) + " s";
  }

  private static String trim(double value) {
    String text = String.format(Locale.ROOT, Math.abs(value) >= 10 ? "%.1f" : "%.2f", value);
    return text.contains(".") ? text.replaceAll("0+$", "").replaceAll("\\.$", "") : text;
  }
}
