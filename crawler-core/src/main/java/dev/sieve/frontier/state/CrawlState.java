package dev.sieve.frontier.state;

import dev.sieve.bloom.MembershipFilter;
import dev.sieve.files.DirectoryLock;
import dev.sieve.files.Fsync;
import dev.sieve.frontier.FrontierListener;
import dev.sieve.frontier.FrontierSettings;
import dev.sieve.frontier.Sieve;
import dev.sieve.frontier.local.LocalFrontier;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A crawl's state directory: checkpoints of the Sieve's filter, the frontier's queues and the
 * counters, and the journals of what changed since each, so that a crawl stopped at any instant
 * (Ctrl-C, {@code kill -9}, a reboot) resumes without losing a discovered URL.
 *
 * <pre>
 *   DIR/lock                    held while a crawl uses DIR
 *   DIR/settings.properties     what must not change on resume
 *   DIR/seeds.txt               the seeds (a resume with others is refused unless they are added)
 *   DIR/checkpoint-N/           filter.bin, frontier.bin, counters.properties, MANIFEST
 *   DIR/journal-N.log           the frontier's changes after checkpoint N, each URL done with
 *                               the counters it changed
 * </pre>
 *
 * A checkpoint is written to {@code checkpoint-N.tmp}, every file fsynced, then renamed; its
 * MANIFEST (each file's size and CRC32C) is checked before it is used. The previous checkpoint and
 * its journals are kept until the next one is complete, so a damaged newest checkpoint falls back
 * to the one before; if none is usable the crawl stops with a message naming the file and the
 * problem.
 */
public final class CrawlState implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(CrawlState.class);
  private static final Pattern CHECKPOINT = Pattern.compile("checkpoint-(\\d+)");
  private static final Pattern JOURNAL = Pattern.compile("journal-(\\d+)\\.log");
  private static final String SETTINGS = SavedSettings.FILE;
  private static final String FILTER = "filter.bin";
  private static final String FRONTIER = "frontier.bin";
  private static final String COUNTERS = "counters.properties";
  /** Pending URLs beyond the memory budget, referred to by the checkpoints. */
  static final String SPILL = "spill";

  private final Path dir;
  private final DirectoryLock lock;
  private final boolean resumed;
  private List<String> seeds = List.of();
  /** The index of the journal being written; the next checkpoint takes the one after. */
  private long checkpoint = -1;

  private CrawlState(Path dir, DirectoryLock lock, boolean resumed) {
    this.dir = dir;
    this.lock = lock;
    this.resumed = resumed;
  }

  /** Settings every saved crawl has; a settings file without one of them is incomplete. */
  private static final List<String> REQUIRED =
      List.of("expected-urls", "filter", "fpp", "hash-id", "on-capacity", "queue-key");

  /**
   * Whether {@code dir} holds a crawl to resume: false when it does not exist or holds nothing (at
   * most the lock file of a crawl that never started); true when it holds a complete, readable
   * state. Reads only.
   *
   * @throws CrawlStateException when it is neither, naming what is wrong (not a directory, no or
   *     unreadable or incomplete settings, files that are not a crawl's): only a fresh start,
   *     which deletes the crawl's files, goes on from there
   */
  public static boolean resumable(Path dir) {
    if (!Files.exists(dir)) {
      return false;
    }
    String problem = "state directory " + dir + " is not a complete Sieve crawl state: ";
    if (!Files.isDirectory(dir)) {
      throw new CrawlStateException(problem + "it is not a directory");
    }
    List<String> names = new ArrayList<>();
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
      for (Path entry : entries) {
        String name = entry.getFileName().toString();
        if (!name.equals(DirectoryLock.FILE)) {
          names.add(name);
        }
      }
    } catch (IOException e) {
      throw new CrawlStateException("cannot read state directory " + dir + ": " + e.getMessage(), e);
    }
    if (names.isEmpty()) {
      return false;
    }
    names.sort(null);
    Path settings = dir.resolve(SETTINGS);
    if (!Files.exists(settings)) {
      boolean ours = names.stream().anyMatch(n -> n.startsWith("checkpoint-") || JOURNAL.matcher(n).matches()
          || n.equals(SPILL) || n.startsWith(SETTINGS) || n.startsWith(SavedSeeds.FILE));
      throw new CrawlStateException(problem + SETTINGS + " is missing (it holds "
          + String.join(", ", names.subList(0, Math.min(5, names.size())))
          + (names.size() > 5 ? ", …" : "") + ")"
          + (ours ? "; --fresh starts over, deleting the crawl's files"
              : "; give an empty or new directory, or --fresh to start over there"));
    }
    Properties saved = SavedSettings.readSettings(dir);
    List<String> missing = REQUIRED.stream().filter(key -> saved.getProperty(key) == null).toList();
    if (!missing.isEmpty()) {
      throw new CrawlStateException(problem + settings + " lacks " + String.join(", ", missing)
          + "; --fresh starts over, deleting the crawl's files");
    }
    return true;
  }



  /**
   * The seeds the crawl goes on with: on resume the saved ones (and the new ones, when they are
   * to be added); otherwise those given to {@link #open}.
   */
  public List<String> seeds() {
    return seeds;
  }

  /**
   * Opens {@code dir} for a crawl with {@code settings}: resumes the crawl it holds, or starts a new
   * one when it holds none or {@code fresh} is set (which deletes the old state).
   *
   * @throws CrawlStateException if another crawl uses the directory, the settings differ from the
   *     saved crawl's, or the state cannot be read or written; the message says which
   */
  public static CrawlState open(Path dir, Map<String, String> settings, boolean fresh) {
    return open(dir, settings, fresh, List.of(), false);
  }

  /**
   * {@link #open(Path, Map, boolean)}, checking on resume that {@code seeds} are the saved crawl's
   * (see {@link #seeds()}): other seeds are refused with the difference, unless {@code addSeeds}.
   */
  public static CrawlState open(
      Path dir, Map<String, String> settings, boolean fresh, List<String> seeds, boolean addSeeds) {
    boolean resume = !fresh && resumable(dir);
    try {
      Files.createDirectories(dir);
      DirectoryLock lock = DirectoryLock.tryLock(dir);
      if (lock == null) {
        throw new CrawlStateException("state directory " + dir + " is in use by another crawl");
      }
      CrawlState state = new CrawlState(dir, lock, resume);
      try {
        if (resume) {
          SavedSettings.checkSettings(dir, settings);
          state.seeds = seeds.isEmpty() ? seeds : SavedSeeds.reconcile(dir, seeds, addSeeds);
        } else {
          wipe(dir);
          SavedSettings.writeSettings(dir, settings);
          SavedSeeds.write(dir, seeds);
          state.seeds = seeds;
        }
      } catch (IOException | RuntimeException e) {
        state.close();
        throw e;
      }
      return state;
    } catch (IOException e) {
      throw new CrawlStateException("cannot use state directory " + dir + ": " + CrawlStateException.cause(e), e);
    }
  }

  /** Whether this crawl resumes a saved one. */
  public boolean resumed() {
    return resumed;
  }

  public Path dir() {
    return dir;
  }

  /** What a restore produced. */
  record Restored(Sieve sieve, LocalFrontier frontier, Map<String, Long> counters) {}

  /**
   * Restores the newest usable checkpoint and replays the journals after it into a frontier with
   * {@code config} around the returned Sieve, falling back to older checkpoints when one is
   * damaged.
   */
  Restored restore(FrontierSettings config, FrontierListener listener) {
    List<Long> checkpoints = completeCheckpoints(dir);
    List<String> problems = new ArrayList<>();
    for (long index : checkpoints) {
      Path cp = dir.resolve("checkpoint-" + index);
      try {
        StateFiles.verifyManifest(cp);
        MembershipFilter filter;
        try (InputStream in = new BufferedInputStream(Files.newInputStream(cp.resolve(FILTER)), 1 << 16)) {
          filter = MembershipFilter.readFrom(in);
        }
        Sieve sieve = Sieve.over(filter, config.falsePositiveRate, listener::onCapacityWarning);
        LocalFrontier frontier;
        try (DataInputStream in = new DataInputStream(
            new BufferedInputStream(Files.newInputStream(cp.resolve(FRONTIER)), 1 << 16))) {
          frontier = LocalFrontier.builder(sieve).settings(config, dir.resolve(SPILL), listener)
              .restore(in, journalsFrom(index));
        }
        log.info("Resumed from {} and {} journal(s)", cp, journalsFrom(index).size());
        return new Restored(sieve, frontier, StateFiles.readCounters(cp.resolve(COUNTERS)));
      } catch (IOException | RuntimeException e) {
        problems.add(cp + ": " + e.getMessage());
        log.warn("Checkpoint {} is unusable ({}); trying an older one", cp, e.getMessage());
      }
    }
    // No usable checkpoint: start from empty and replay every journal from the first.
    if (checkpoints.isEmpty() || journalIndexes(dir).contains(0L)) {
      try {
        Sieve sieve = config.newSieve(listener);
        LocalFrontier frontier = LocalFrontier.builder(sieve)
            .settings(config, dir.resolve(SPILL), listener).build();
        frontier.state().replay(journalsFrom(0));
        log.info("Resumed from the journals in {}", dir);
        return new Restored(sieve, frontier, Map.of());
      } catch (IOException | RuntimeException e) {
        problems.add(e.getMessage());
      }
    }
    throw new CrawlStateException("cannot resume the crawl in " + dir + ": " + String.join("; ", problems));
  }

  private List<Path> journalsFrom(long index) {
    List<Path> journals = new ArrayList<>();
    for (long i : journalIndexes(dir)) {
      if (i >= index) {
        journals.add(dir.resolve("journal-" + i + ".log"));
      }
    }
    return journals;
  }

  /**
   * Starts a journal numbered after every existing one, logging {@code frontier} to it; the next
   * checkpoint takes the number after it.
   */
  void startJournal(LocalFrontier frontier) throws IOException {
    long index = journalIndexes(dir).stream().max(Long::compare).orElse(-1L) + 1;
    index = Math.max(index, completeCheckpoints(dir).stream().max(Long::compare).orElse(-1L) + 1);
    checkpoint = index;
    frontier.state().journalTo(dir.resolve("journal-" + index + ".log"));
  }

  /**
   * Writes a checkpoint: the filter and the queues while the frontier is paused (they must agree),
   * a new journal from that instant, then fsync, manifest and rename outside the pause.
   */
  void checkpoint(LocalFrontier frontier, Sieve sieve) throws IOException {
    long index = checkpoint + 1;
    Path tmp = dir.resolve("checkpoint-" + index + ".tmp");
    StateFiles.deleteRecursively(tmp);
    Files.createDirectories(tmp);
    Map<String, Long> counters;
    try {
      // The counters of the URLs done so far, consistent with the queues saved with them.
      counters = frontier.state().paused(() -> {
        try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(tmp.resolve(FILTER)), 1 << 16)) {
          sieve.writeFilter(out);
        }
        try (DataOutputStream out = new DataOutputStream(
            new BufferedOutputStream(Files.newOutputStream(tmp.resolve(FRONTIER)), 1 << 16))) {
          frontier.state().writeState(out);
        }
        frontier.state().journalTo(dir.resolve("journal-" + index + ".log"));
        return frontier.state().counts();
      });
    } catch (IOException e) {
      throw e;
    } catch (Exception e) {
      throw new IOException(e.getMessage(), e);
    }
    StateFiles.writeCounters(tmp.resolve(COUNTERS), counters);
    StateFiles.writeManifest(tmp, List.of(FILTER, FRONTIER, COUNTERS));
    Fsync.directory(tmp);
    Path target = dir.resolve("checkpoint-" + index);
    try {
      Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE);
    } catch (AtomicMoveNotSupportedException e) {
      Files.move(tmp, target);
    }
    Fsync.directory(dir);
    frontier.state().stateDurable();
    checkpoint = index;
    // Keep this checkpoint and the one before it, with the journals the one before needs, so a
    // damaged newest checkpoint can fall back.
    long previous = completeCheckpoints(dir).stream().filter(i -> i < index).findFirst().orElse(-1L);
    if (previous >= 0) {
      for (long old : completeCheckpoints(dir)) {
        if (old < previous) {
          StateFiles.deleteRecursively(dir.resolve("checkpoint-" + old));
        }
      }
      for (long old : journalIndexes(dir)) {
        if (old < previous) {
          Files.deleteIfExists(dir.resolve("journal-" + old + ".log"));
        }
      }
    }
  }

  /** The usable space left on the state directory's disk. */
  long usableSpace() throws IOException {
    return Files.getFileStore(dir).getUsableSpace();
  }

  @Override
  public void close() throws IOException {
    lock.close();
  }

  // ---- files ----





  private static void wipe(Path dir) throws IOException {
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
      for (Path entry : entries) {
        String name = entry.getFileName().toString();
        if (name.equals(SETTINGS) || name.startsWith(SavedSeeds.FILE) || CHECKPOINT.matcher(name).matches() || name.startsWith("checkpoint-")
            || JOURNAL.matcher(name).matches() || name.equals(SPILL)) {
          StateFiles.deleteRecursively(entry);
        }
      }
    }
  }

  /** Complete checkpoints, newest first. */
  private static List<Long> completeCheckpoints(Path dir) {
    return indexes(dir, CHECKPOINT).stream().sorted(Comparator.reverseOrder()).toList();
  }

  /** Journal indexes, oldest first. */
  private static List<Long> journalIndexes(Path dir) {
    return indexes(dir, JOURNAL).stream().sorted().toList();
  }

  private static List<Long> indexes(Path dir, Pattern pattern) {
    List<Long> found = new ArrayList<>();
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
      for (Path entry : entries) {
        Matcher m = pattern.matcher(entry.getFileName().toString());
        if (m.matches()) {
          found.add(Long.parseLong(m.group(1)));
        }
      }
    } catch (IOException e) {
      throw new CrawlStateException("cannot list state directory " + dir + ": " + e.getMessage(), e);
    }
    return found;
  }
}
