package dev.sieve.app;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The JDKs installed on the build's machine, as {@link AotCache} looks for a Java 24 or later:
 * the homes beside the build's own (the entries of its parent directory, e.g. {@code
 * /usr/lib/jvm/*}) and {@code JAVA_HOME}, each known by the {@code JAVA_VERSION} of its {@code
 * release} file. A home without a readable release file or a {@code bin/java} does not count.
 */
final class JdkHomes {
  private JdkHomes() {}

  /**
   * The directories beside {@code ownHome} and {@code ownHome} itself, then {@code javaHome} when
   * not blank, each once by its real path; those that cannot be read are left out.
   */
  static List<Path> candidates(Path ownHome, String javaHome) {
    Set<Path> homes = new LinkedHashSet<>();
    Path parent = ownHome.toAbsolutePath().getParent();
    if (parent != null) {
      try (Stream<Path> entries = Files.list(parent)) {
        entries.sorted().forEach(entry -> addReal(homes, entry));
      } catch (IOException e) {
        // an unreadable parent: only the named homes
      }
    }
    addReal(homes, ownHome);
    if (javaHome != null && !javaHome.isBlank()) {
      addReal(homes, Path.of(javaHome.trim()));
    }
    return new ArrayList<>(homes);
  }

  /** The home of the newest release at least {@code atLeast} among {@code homes}, or null. */
  static Path newest(List<Path> homes, int atLeast) {
    Path best = null;
    Runtime.Version bestVersion = null;
    for (Path home : homes) {
      Runtime.Version version = version(home);
      if (version != null && version.feature() >= atLeast && Files.isExecutable(home.resolve("bin").resolve("java"))
          && (bestVersion == null || version.compareToIgnoreOptional(bestVersion) > 0)) {
        best = home;
        bestVersion = version;
      }
    }
    return best;
  }

  /** The {@code JAVA_VERSION} of the home's {@code release} file, or null without a valid one. */
  static Runtime.Version version(Path home) {
    Path release = home.resolve("release");
    if (!Files.isRegularFile(release)) {
      return null;
    }
    try (Stream<String> lines = Files.lines(release)) {
      return lines.filter(line -> line.startsWith("JAVA_VERSION="))
          .map(line -> line.substring("JAVA_VERSION=".length()).replace("\"", "").trim())
          .findFirst().map(JdkHomes::parse).orElse(null);
    } catch (IOException | UncheckedIOException e) {
      return null;
    }
  }

  private static Runtime.Version parse(String text) {
    try {
      return Runtime.Version.parse(text);
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  private static void addReal(Set<Path> homes, Path home) {
    try {
      if (Files.isDirectory(home)) {
        homes.add(home.toRealPath());
      }
    } catch (IOException e) {
      // a dangling link or an unreadable entry is no home
    }
  }
}
