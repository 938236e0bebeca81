package dev.sieve;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The rules of {@code package-rules.txt} over the main sources: which package may not import
 * which, so that dependencies keep pointing one way.
 */
class PackageDependenciesTest {
  private static final Path MAIN = Path.of("src/main/java/dev/sieve");

  static List<String[]> rules() throws IOException {
    try (InputStream in = PackageDependenciesTest.class.getResourceAsStream("package-rules.txt")) {
      List<String[]> rules = new ArrayList<>();
      for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
        if (!line.isBlank() && !line.startsWith("#")) {
          rules.add(line.trim().split("\\s+"));
        }
      }
      return rules;
    }
  }

  @ParameterizedTest(name = "{0} does not import {1}")
  @MethodSource("rules")
  void mainSources_followEachRule(String from, String forbidden) throws IOException {
    Path dir = MAIN.resolve(from.replace('.', '/'));
    assertThat(dir).as("package dev.sieve.%s", from).isDirectory();
    String prefix = "dev.sieve." + forbidden + ".";
    List<String> offending = new ArrayList<>();
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
          String imported = line.replaceFirst("^import\\s+(static\\s+)?", "");
          if (!imported.equals(line) && imported.startsWith(prefix)) {
            offending.add(MAIN.relativize(file) + ": " + line);
          }
        }
      }
    }
    assertThat(offending).as("imports of dev.sieve.%s in dev.sieve.%s", forbidden, from).isEmpty();
  }
}
