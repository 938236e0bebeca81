package dev.sieve.frontier.state;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The seeds a saved crawl began with ({@code DIR/seeds.txt}, one URL a line): a resume with other
 * seeds is refused with the difference, unless the new ones are to be added.
 */
final class SavedSeeds {
  private static final Logger log = LoggerFactory.getLogger(CrawlState.class);
  static final String FILE = "seeds.txt";

  private SavedSeeds() {}

  /** Saves {@code seeds} as the crawl's, replacing the file atomically. */
  static void write(Path dir, List<String> seeds) throws IOException {
    Path tmp = dir.resolve(FILE + ".tmp");
    Files.write(tmp, seeds, StandardCharsets.UTF_8);
    Files.move(tmp, dir.resolve(FILE), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }

  /**
   * The seeds the resumed crawl goes on with: the saved ones, and, with {@code add}, the new ones
   * after them (saved again). A state from before seeds were saved takes {@code given}.
   *
   * @throws CrawlStateException if the seeds differ and {@code add} is false; the message counts
   *     the seeds added and removed and names the first of each
   */
  static List<String> reconcile(Path dir, List<String> given, boolean add) throws IOException {
    Path file = dir.resolve(FILE);
    if (!Files.exists(file)) {
      write(dir, given);
      return given;
    }
    Set<String> saved = new LinkedHashSet<>();
    for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
      if (!line.isBlank()) {
        saved.add(line.strip());
      }
    }
    List<String> added = new ArrayList<>();
    for (String seed : new LinkedHashSet<>(given)) {
      if (!saved.contains(seed)) {
        added.add(seed);
      }
    }
    Set<String> givenSet = Set.copyOf(given);
    List<String> removed = saved.stream().filter(seed -> !givenSet.contains(seed)).toList();
    if (added.isEmpty() && removed.isEmpty()) {
      return List.copyOf(saved);
    }
    if (!add) {
      throw new CrawlStateException("cannot resume the crawl in " + dir + ": the seed file differs"
          + " from the saved crawl's: " + describe(added, removed)
          + ". Use the seeds the crawl began with, --add-seeds to add the new ones, or --fresh to start over.");
    }
    List<String> all = new ArrayList<>(saved);
    all.addAll(added);
    if (!added.isEmpty()) {
      write(dir, all);
      log.info("Adding {} seed(s) to the crawl in {}", added.size(), dir);
    }
    if (!removed.isEmpty()) {
      log.info("{} saved seed(s) not in the seed file stay in the crawl (first: {})", removed.size(), removed.get(0));
    }
    return all;
  }

  /** "3 seeds added, 2 removed (first added: …; first removed: …)". */
  static String describe(List<String> added, List<String> removed) {
    StringBuilder out = new StringBuilder()
        .append(added.size()).append(added.size() == 1 ? " seed" : " seeds").append(" added, ")
        .append(removed.size()).append(" removed (");
    if (!added.isEmpty()) {
      out.append("first added: ").append(added.get(0));
    }
    if (!removed.isEmpty()) {
      out.append(added.isEmpty() ? "" : "; ").append("first removed: ").append(removed.get(0));
    }
    return out.append(')').toString();
  }
}
