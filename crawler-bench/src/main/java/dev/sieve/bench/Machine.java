package dev.sieve.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * The machine a bench ran on, for the line printed beside its figures: CPU model, cores, load
 * average, and the Java a child process runs. A figure holds where it was measured; this says
 * where that was.
 */
final class Machine {
  private Machine() {}

  /** The CPU's model name from {@code /proc/cpuinfo}, or {@code unknown CPU}. */
  static String cpuModel() {
    return cpuModel(Path.of("/proc/cpuinfo"));
  }

  static String cpuModel(Path cpuinfo) {
    try {
      for (String line : Files.readAllLines(cpuinfo, StandardCharsets.UTF_8)) {
        if (line.startsWith("model name") && line.indexOf(':') > 0) {
          return line.substring(line.indexOf(':') + 1).strip();
        }
      }
    } catch (IOException e) {
      // not Linux, or no /proc: the model stays unknown
    }
    return "unknown CPU";
  }

  /** Cores this JVM may use. */
  static int cores() {
    return Runtime.getRuntime().availableProcessors();
  }

  /** The system's load average over the last minute, or a negative number where there is none. */
  static double loadAverage() {
    return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
  }

  /**
   * The first line {@code java -version} prints ({@code openjdk version "17.0.15" 2025-04-15}),
   * or {@code unknown} when it cannot be run within 30 s.
   */
  static String javaVersion(String java) {
    return versionLine(new ProcessBuilder(java, "-version"));
  }

  /**
   * The same for the java a launcher such as {@code sieve} runs, which it picks itself: the
   * launcher run with {@code JAVA_OPTS=-version} (a java given {@code -version} before {@code
   * -jar} prints it and exits; its jar must be a jar).
   */
  static String launcherJavaVersion(String launcher) {
    ProcessBuilder builder = new ProcessBuilder(launcher);
    builder.environment().put("JAVA_OPTS", "-version");
    return versionLine(builder);
  }

  private static String versionLine(ProcessBuilder command) {
    try {
      Process process = command.redirectErrorStream(true).start();
      byte[] output = process.getInputStream().readAllBytes();
      if (!process.waitFor(30, TimeUnit.SECONDS) || process.exitValue() != 0) {
        process.destroy();
        return "unknown";
      }
      // The version line, not a warning the JVM printed first (a launcher's AOT cache, say).
      List<String> lines = new String(output, StandardCharsets.UTF_8).lines().map(String::strip).toList();
      return lines.stream().filter(line -> line.contains(" version \"")).findFirst()
          .orElse(lines.isEmpty() ? "unknown" : lines.get(0));
    } catch (IOException e) {
      return "unknown";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "unknown";
    }
  }

  /** {@code Machine: MODEL, N cores, load average L; crawler's Java: VERSION (JAVA)}. */
  static String describe(String java) {
    return describe(javaVersion(java), java);
  }

  /** The same for a crawl run by {@code launcher}: {@code ...; crawler's Java: VERSION (through LAUNCHER)}. */
  static String describeLauncher(String launcher) {
    return describe(launcherJavaVersion(launcher), "through " + launcher);
  }

  /**
   * {@code Machine: MODEL, N cores, load average L; Java: VERSION (VENDOR), max heap H MiB}, for a
   * bench whose figures this JVM measured itself: printed after every bench but {@code vs-wget}
   * (which names the crawler's Java, a process of its own).
   */
  static String here() {
    return String.format(Locale.ROOT, "%s; Java: %s (%s), max heap %,d MiB", machine(),
        System.getProperty("java.version"), System.getProperty("java.vendor"),
        Runtime.getRuntime().maxMemory() >> 20);
  }

  private static String describe(String version, String how) {
    return String.format(Locale.ROOT, "%s; crawler's Java: %s (%s)", machine(), version, how);
  }

  /** {@code Machine: MODEL, N cores, load average L}: what every machine line starts with. */
  private static String machine() {
    return String.format(Locale.ROOT, "Machine: %s, %d cores, load average %.2f", cpuModel(), cores(),
        loadAverage());
  }
}
