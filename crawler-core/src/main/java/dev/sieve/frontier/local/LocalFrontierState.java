package dev.sieve.frontier.local;

import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;

/**
 * What a {@link LocalFrontier} offers to keep it across a crash: snapshots of its schedule ({@link
 * #writeState}), the journal of every change after one ({@link #journalTo}), their replay ({@link
 * #replay}), and the crawl's counters as journaled with each URL done ({@link #counts}). Used by
 * the state directory ({@code dev.sieve.frontier.state}); thread-safe, under the frontier's lock.
 */
public final class LocalFrontierState {
  private final LocalFrontier frontier;

  LocalFrontierState(LocalFrontier frontier) {
    this.frontier = frontier;
  }

  /**
   * Saves the frontier to {@code out} ({@link Snapshot}), spilled URLs by reference into spill
   * files forced to disk first; they are kept until {@link #stateDurable()} is called after a
   * later state, so call it once the caller has made this state durable.
   */
  public void writeState(DataOutputStream out) throws IOException {
    frontier.lock.lock();
    try {
      Snapshot.write(frontier.schedule, out);
    } finally {
      frontier.lock.unlock();
    }
  }

  /**
   * Declares the state last written by {@link #writeState} durable (e.g. fsynced and renamed into
   * place): spill files that only earlier states refer to may now be deleted.
   */
  public void stateDurable() {
    frontier.run(() -> frontier.schedule.store.stateDurable());
  }

  /**
   * Runs {@code action} with the frontier paused: no URL is added, leased or given back until it
   * returns. Used to save a state consistent with the Sieve's filter and to switch journals.
   */
  public <T> T paused(Callable<T> action) throws Exception {
    frontier.lock.lock();
    try {
      return action.call();
    } finally {
      frontier.lock.unlock();
    }
  }

  /**
   * The counters changed by completed and retried leases since the crawl began (restored ones
   * included); consistent with a state written in the same {@link #paused} action.
   */
  public Map<String, Long> counts() {
    return frontier.locked(() -> new TreeMap<>(frontier.counts));
  }

  /** Adds counters saved with the state this frontier was restored from. */
  public void addCounts(Map<String, Long> saved) {
    frontier.run(() -> Counts.add(frontier.counts, saved));
  }

  /**
   * Journals every later change to {@code file} (appending), closing the previous journal: the
   * switch happens under the lock, so each change is in exactly one journal.
   */
  public void journalTo(Path file) throws IOException {
    swapLog(Journal.open(file));
  }

  /** Closes the journal, if any; later changes are not journaled. */
  public void closeJournal() throws IOException {
    swapLog(FrontierLog.NONE);
  }

  private void swapLog(FrontierLog next) throws IOException {
    FrontierLog previous = frontier.locked(() -> {
      FrontierLog was = frontier.log;
      frontier.log = next;
      return was;
    });
    if (previous instanceof Journal journal) {
      journal.close();
    }
  }

  /**
   * Replays journals written after the state this frontier was restored from (or, for a frontier
   * built empty, since the crawl began), in order, then queues the URLs that were leased when the
   * process stopped first in their hosts, to be fetched again ({@link JournalReplay}). Call once,
   * before any other use. The Sieve must be the one saved with the state: replayed URLs are put
   * into it.
   *
   * @throws IOException if a journal is corrupt (its file and offset named)
   */
  public void replay(List<Path> journals) throws IOException {
    frontier.lock.lock();
    try {
      new JournalReplay(frontier.sieve, frontier.schedule, frontier.counts, frontier.leasedOut)
          .run(journals, frontier.recordedElsewhere);
      frontier.leasedOut = List.of();
    } finally {
      frontier.lock.unlock();
    }
  }
}
