package dev.sieve.app;

import java.util.Locale;

/** Human-readable sizes: binary units (KiB, MiB, GiB) as memory is allocated in them. */
final class Units {
  private Units() {}

  /** E.g. {@code 1.71 MiB}, {@code 2.23 GiB}, {@code 512 B}. */
  static String bytes(double bytes) {
    String[] units = {"B", "KiB", "MiB", "GiB", "TiB"};
    int unit = 0;
    while (bytes >= 1024 && unit < units.length - 1) {
      bytes /= 1024;
      unit++;
    }
    return unit == 0
        ? String.format(Locale.ROOT, "%.0f B", bytes)
        : String.format(Locale.ROOT, "%.2f %s", bytes, units[unit]);
  }

  /** E.g. {@code 2.40 GB}: decimal units, for comparison with disk and marketing figures. */
  static String decimalBytes(double bytes) {
    String[] units = {"B", "kB", "MB", "GB", "TB"};
    int unit = 0;
    while (bytes >= 1000 && unit < units.length - 1) {
      bytes /= 1000;
      unit++;
    }
    return unit == 0
        ? String.format(Locale.ROOT, "%.0f B", bytes)
        : String.format(Locale.ROOT, "%.2f %s", bytes, units[unit]);
  }
}
