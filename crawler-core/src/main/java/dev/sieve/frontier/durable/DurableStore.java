package dev.sieve.frontier.durable;

import dev.sieve.frontier.FrontierTime;
import dev.sieve.frontier.queue.Crawls;
import dev.sieve.frontier.queue.ForwardingFrontierStore;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The in-process store ({@link Crawls}) kept in a state directory ({@link DurableState}): every
 * change a call makes is journaled, in the order the changes were applied, before {@link
 * #afterDurable} runs the answers of the calls that made it. Reads go to the crawls as they are.
 * The faces above it ({@code serve}) build no journal records: they change the store and answer
 * once it says the change is durable. Thread-safe.
 */
public final class DurableStore extends ForwardingFrontierStore {
  private final Crawls crawls;
  private final DurableState state;

  private DurableStore(Crawls crawls, DurableState state) {
    super(crawls);
    this.crawls = crawls;
    this.state = state;
  }

  /**
   * Locks {@code dir}, restores its crawls into {@code crawls} (which is empty) and checkpoints
   * them every {@code intervalSeconds}, as {@link DurableState#open} does.
   *
   * @throws DurableStateException when DIR is in use by another process, or cannot be read or
   *     written
   */
  public static DurableStore open(Path dir, Crawls crawls, long intervalSeconds) {
    return new DurableStore(crawls, DurableState.open(dir, crawls, intervalSeconds));
  }

  @Override
  public DurableCrawl getOrCreate(String crawlId) {
    return new DurableCrawl(crawls.getOrCreate(crawlId), state);
  }

  @Override
  public Optional<DurableCrawl> local(String crawlId) {
    return get(crawlId);
  }

  @Override
  public Optional<DurableCrawl> get(String crawlId) {
    return crawls.get(crawlId).map(crawl -> new DurableCrawl(crawl, state));
  }

  @Override
  public List<DurableCrawl> all() {
    return crawls.all().stream().map(crawl -> new DurableCrawl(crawl, state)).toList();
  }

  /** Deletes the crawl, journaled when there was one. */
  @Override
  public long delete(String crawlId) {
    return state.apply(journal -> {
      long removed = crawls.delete(crawlId);
      if (removed >= 0) {
        journal.accept(Change.deleteCrawl(crawlId));
      }
      return removed;
    });
  }

  @Override
  public void active(boolean on) {
    service(Change.ACTIVE, on ? 1 : 0, () -> crawls.active(on));
  }

  @Override
  public void defaultDelay(Duration delay) {
    service(Change.DEFAULT_DELAY, FrontierTime.millis(delay), () -> crawls.defaultDelay(delay));
  }

  /** Applies and journals a service switch. */
  private void service(byte op, long value, Runnable change) {
    state.apply(journal -> {
      change.run();
      journal.accept(Change.service(op, value));
      return null;
    });
  }

  /** Runs {@code answer} on the journal's writer once every change applied before is written. */
  @Override
  public void afterDurable(Runnable answer) {
    state.afterDurable(answer);
  }

  @Override
  public void checkpoint() throws IOException {
    state.checkpoint();
  }

  /**
   * Writes a last checkpoint and releases the state directory; changes are refused from then on
   * (an {@link IllegalStateException} naming the closed journal).
   */
  public void end() {
    state.close();
  }
}
