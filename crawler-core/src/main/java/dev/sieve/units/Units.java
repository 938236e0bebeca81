package dev.sieve.units;

import java.util.Locale;

/** Human-readable sizes. */
public final class Units {
  private static final String[] BINARY = {"B", "KiB", "MiB", "GiB", "TiB"};
  private static final String[] DECIMAL = {"B", "kB", "MB", "GB", "TB"};

  private Units() {}

  /** Binary units, as memory is allocated: {@code 1.71 MiB}, {@code 2.23 GiB}, {@code 512 B}. */
  public static String bytes(double bytes) {
    return scaled(bytes, 1024, BINARY);
  }

  /** Decimal units, as disks are sold: {@code 2.40 GB}. */
  public static String decimalBytes(double bytes) {
    return scaled(bytes, 1000, DECIMAL);
  }

  private static String scaled(double value, int base, String[] units) {
    int unit = 0;
    while (value >= base && unit < units.length - 1) {
      value /= base;
      unit++;
    }
    return unit == 0
        ? String.format(Locale.ROOT, "%.0f B", value)
        : String.format(Locale.ROOT, "%.2f %s", value, units[unit]);
  }
}
