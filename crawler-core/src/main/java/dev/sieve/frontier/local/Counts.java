package dev.sieve.frontier.local;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.TreeMap;

/** Counter changes carried in journal records, as {@code name=value} lines in UTF-8. */
final class Counts {
  private Counts() {}

  static byte[] encode(Map<String, Long> counts) {
    StringBuilder out = new StringBuilder();
    counts.forEach((name, value) -> out.append(name).append('=').append(value).append('\n'));
    return out.toString().getBytes(StandardCharsets.UTF_8);
  }

  static Map<String, Long> decode(byte[] bytes) {
    Map<String, Long> counts = new TreeMap<>();
    for (String line : new String(bytes, StandardCharsets.UTF_8).split("\n")) {
      int eq = line.lastIndexOf('=');
      if (eq > 0) {
        counts.merge(line.substring(0, eq), Long.parseLong(line.substring(eq + 1)), Long::sum);
      }
    }
    return counts;
  }

  /** Adds {@code delta} into {@code into}. */
  static void add(Map<String, Long> into, Map<String, Long> delta) {
    delta.forEach((name, value) -> into.merge(name, value, Long::sum));
  }
}
