package dev.sieve.frontier.state;

import dev.sieve.frontier.FrontierLifecycle;
import dev.sieve.frontier.FrontierListener;
import dev.sieve.frontier.FrontierSettings;
import dev.sieve.frontier.OpenFrontier;
import dev.sieve.frontier.local.LocalFrontier;
import dev.sieve.url.Url;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The lifecycle of a local frontier kept in a state directory: journaled and checkpointed by a
 * {@link Checkpointer} from {@link #start()} to {@link #end()}, its seeds and counters restored on
 * resume. The frontier itself is the {@link LocalFrontier} the checkpointer made.
 */
public final class KeptState implements FrontierLifecycle {
  private final Checkpointer checkpointer;

  private KeptState(Checkpointer checkpointer) {
    this.checkpointer = checkpointer;
  }

  /**
   * Opens the state directory of {@code settings}: resumes the crawl saved there (checkpoint, then
   * journals; the URLs in flight at a crash fetched again unless {@code listener} recorded them),
   * or starts one there.
   *
   * @throws CrawlStateException if the state directory cannot be used (the message says why)
   */
  public static OpenFrontier open(FrontierSettings settings, FrontierListener listener) {
    Checkpointer checkpointer = Checkpointer.open(settings, settings.seeds, listener);
    return OpenFrontier.kept(checkpointer.frontier(), new KeptState(checkpointer));
  }

  @Override
  public void start() {
    checkpointer.start();
  }

  @Override
  public void beforeCheckpoint(Runnable task) {
    checkpointer.beforeCheckpoint(task);
  }

  @Override
  public boolean storageLow() {
    return checkpointer.diskLow();
  }

  @Override
  public void flushLog() {
    checkpointer.frontier().flushLog();
  }

  @Override
  public Optional<String> end() {
    checkpointer.close();
    return Optional.ofNullable(checkpointer.failure());
  }

  @Override
  public Optional<List<Url>> savedSeeds() {
    return Optional.of(checkpointer.seeds());
  }

  @Override
  public Map<String, Long> restoredCounts() {
    return checkpointer.restoredCounts();
  }
}
