package dev.sieve.frontier.durable;

import dev.sieve.files.DirectoryLock;
import dev.sieve.files.Fsync;
import dev.sieve.frontier.queue.Crawls;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The state directory of {@code serve --state DIR}: every change is journaled before it is
 * answered (see {@link ChangeJournal}), a checkpoint of every crawl ({@link Checkpoint}) is
 * written periodically and ends the journal before it, and a restart restores the newest
 * checkpoint and replays the journals after it.
 *
 * <pre>
 *   DIR/lock              held while a serve uses DIR (a second one is refused)
 *   DIR/checkpoint-N.bin  every crawl, as of the start of journal N
 *   DIR/journal-N.log     the changes after checkpoint N
 * </pre>
 *
 * A checkpoint is written to {@code checkpoint-N.tmp}, forced to disk and renamed; only then are
 * the older checkpoint and journals deleted. Changes take a shared lock, a checkpoint the
 * exclusive one, so a checkpoint holds exactly the changes of the journals before it.
 */
final class DurableState implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(DurableState.class);
  private static final Pattern CHECKPOINT = Pattern.compile("checkpoint-(\\d+)\\.bin");
  private static final Pattern JOURNAL = Pattern.compile("journal-(\\d+)\\.log");

  private final Path dir;
  private final Crawls crawls;
  private final DirectoryLock lock;
  private final ReadWriteLock changes = new ReentrantReadWriteLock();
  private final Object order = new Object();
  private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread thread = new Thread(r, "serve-checkpoint");
    thread.setDaemon(true);
    return thread;
  });
  private ChangeJournal journal;
  /** Journals a record that an answer further on waits for. */
  private final Consumer<Change> journalRecord =
      change -> journal.append(change.type(), change.payload(), DurableState::nothing);
  /** The index of the journal being written. */
  private long index;

  private DurableState(Path dir, Crawls crawls, DirectoryLock lock) {
    this.dir = dir;
    this.crawls = crawls;
    this.lock = lock;
  }

  /**
   * Locks {@code dir} (created if needed), restores its crawls into {@code crawls} (which is
   * empty), writes a fresh checkpoint and starts checkpointing every {@code intervalSeconds}.
   *
   * @throws DurableStateException when DIR is in use by another serve, or cannot be read or written
   */
  static DurableState open(Path dir, Crawls crawls, long intervalSeconds) {
    try {
      Files.createDirectories(dir);
      DirectoryLock held = DirectoryLock.tryLock(dir);
      if (held == null) {
        throw new DurableStateException("state directory " + dir + " is in use by another serve");
      }
      DurableState state = new DurableState(dir, crawls, held);
      try {
        state.restore();
        state.journal = ChangeJournal.open(dir.resolve(journalName(state.index)));
        state.checkpoint();
      } catch (IOException | RuntimeException e) {
        state.release();
        throw e;
      }
      state.timer.scheduleWithFixedDelay(state::checkpointQuietly, intervalSeconds,
          intervalSeconds, TimeUnit.SECONDS);
      return state;
    } catch (IOException e) {
      throw new DurableStateException("cannot use state directory " + dir + ": " + e.getMessage(), e);
    } catch (DurableStateException e) {
      throw e;
    } catch (RuntimeException e) {
      throw new DurableStateException("cannot use state directory " + dir + ": " + e, e);
    }
  }

  /** Loads the newest checkpoint, replays the journals from it; leaves {@link #index} after. */
  private void restore() throws IOException {
    List<Long> checkpoints = indexes(CHECKPOINT);
    List<Long> journals = indexes(JOURNAL);
    long from = checkpoints.isEmpty() ? 0 : checkpoints.get(checkpoints.size() - 1);
    if (!checkpoints.isEmpty()) {
      Checkpoint.read(dir.resolve(checkpointName(from)), crawls);
    }
    long replayed = 0;
    long last = from;
    for (long journalIndex : journals) {
      if (journalIndex >= from) {
        replayed += ChangeJournal.replay(dir.resolve(journalName(journalIndex)),
            (type, payload) -> Change.replay(type, payload, crawls));
        last = journalIndex;
      }
    }
    index = last + 1;
    if (!checkpoints.isEmpty() || replayed > 0) {
      log.info("Restored {} crawl(s) from {}: checkpoint {}, {} journaled change(s)",
          crawls.all().size(), dir, from, replayed);
    }
  }

  /**
   * Runs {@code step}, which changes the crawls and hands the records of what it changed to the
   * consumer it is given, and journals those records as one step with it: the journal holds
   * changes in the order they were applied, so two calls changing one URL replay to the state
   * they left. Returns what {@code step} returned.
   *
   * @throws IllegalStateException when the journal can no longer be written (what {@code step}
   *     changed is then in memory only)
   */
  <T> T apply(Function<Consumer<Change>, T> step) {
    changes.readLock().lock();
    try {
      synchronized (order) {
        return step.apply(journalRecord);
      }
    } finally {
      changes.readLock().unlock();
    }
  }

  /**
   * Runs {@code answer} on the journal's writer once every change applied before this call is
   * written, after the answers registered before it.
   *
   * @throws IllegalStateException when the journal can no longer be written
   */
  void afterDurable(Runnable answer) {
    changes.readLock().lock();
    try {
      synchronized (order) {
        journal.append((byte) 0, null, answer);
      }
    } finally {
      changes.readLock().unlock();
    }
  }

  /**
   * Writes a checkpoint of every crawl: holds changes back, lets the journal write what it has,
   * starts the next journal, writes the crawls; then makes the checkpoint durable and deletes what
   * it replaces.
   */
  public synchronized void checkpoint() throws IOException {
    long next = index + 1;
    Path tmp = dir.resolve("checkpoint-" + next + ".tmp");
    changes.writeLock().lock();
    try {
      journal.rotate(dir.resolve(journalName(next)));
      index = next;
      Checkpoint.write(crawls, tmp);
    } finally {
      changes.writeLock().unlock();
    }
    Fsync.file(tmp);
    Files.move(tmp, dir.resolve(checkpointName(next)), StandardCopyOption.ATOMIC_MOVE);
    Fsync.directory(dir);
    for (long old : indexes(CHECKPOINT)) {
      if (old < next) {
        Files.deleteIfExists(dir.resolve(checkpointName(old)));
      }
    }
    for (long old : indexes(JOURNAL)) {
      if (old < next) {
        Files.deleteIfExists(dir.resolve(journalName(old)));
      }
    }
  }

  private void checkpointQuietly() {
    try {
      checkpoint();
    } catch (IOException | RuntimeException e) {
      log.error("Checkpoint failed in {}: {}; the journal still holds every change", dir,
          e.getMessage());
    }
  }

  private List<Long> indexes(Pattern pattern) throws IOException {
    List<Long> found = new ArrayList<>();
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
      for (Path entry : entries) {
        Matcher m = pattern.matcher(entry.getFileName().toString());
        if (m.matches()) {
          found.add(Long.parseLong(m.group(1)));
        }
      }
    }
    found.sort(null);
    return found;
  }

  private static void nothing() {}

  private static String checkpointName(long n) {
    return "checkpoint-" + n + ".bin";
  }

  private static String journalName(long n) {
    return "journal-" + n + ".log";
  }

  /** Stops the timer, writes a final checkpoint and releases DIR. */
  @Override
  public void close() {
    timer.shutdownNow();
    try {
      checkpoint();
    } catch (IOException | RuntimeException e) {
      log.error("Final checkpoint failed in {}: {}; the journal still holds every change", dir,
          e.getMessage());
    }
    release();
  }

  private void release() {
    timer.shutdownNow();
    try {
      if (journal != null) {
        journal.close();
      }
      lock.close();
    } catch (IOException e) {
      log.warn("Cannot release {}: {}", dir, e.getMessage());
    }
  }
}
