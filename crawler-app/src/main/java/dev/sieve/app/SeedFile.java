package dev.sieve.app;

import dev.sieve.url.Url;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A seed file: one absolute http(s) URL per line; blank lines and lines starting with {@code #}
 * are ignored; a UTF-8 byte order mark is skipped. A line that is not a URL is reported once as a WARN with its line number and
 * skipped.
 *
 * @param seeds the valid seeds, in file order
 * @param skippedLines how many lines were not valid URLs
 */
record SeedFile(List<Url> seeds, int skippedLines) {
  private static final Logger log = LoggerFactory.getLogger(SeedFile.class);

  /** Reads a seed file. */
  static SeedFile read(Path file) throws IOException {
    List<Url> seeds = new ArrayList<>();
    int skipped = 0;
    int lineNumber = 0;
    try (BufferedReader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      for (String line = reader.readLine(); line != null; line = reader.readLine()) {
        lineNumber++;
        if (lineNumber == 1 && line.startsWith("\uFEFF")) {
          line = line.substring(1); // a UTF-8 byte order mark, as some editors write
        }
        String trimmed = line.strip();
        if (trimmed.isEmpty() || trimmed.startsWith("#")) {
          continue;
        }
        Optional<Url> seed = Url.parse(trimmed);
        if (seed.isPresent()) {
          seeds.add(seed.get());
        } else {
          skipped++;
          log.warn("{}:{}: not an absolute http(s) URL, skipped: {}", file, lineNumber, abbreviate(trimmed));
        }
      }
    }
    return new SeedFile(List.copyOf(seeds), skipped);
  }

  private static String abbreviate(String line) {
    return line.length() <= 200 ? line : line.substring(0, 200) + "…";
  }
}
