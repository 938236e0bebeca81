package dev.sieve.frontier.state;

import dev.sieve.frontier.Frontier;
import dev.sieve.frontier.Lease;
import dev.sieve.frontier.local.LocalFrontier;
import dev.sieve.url.Url;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A local frontier kept in a state directory: the {@link LocalFrontier} it forwards to, journaled
 * and checkpointed by a {@link Checkpointer} from {@link #start()} to {@link #end()}.
 */
final class KeptFrontier implements Frontier {
  private final Checkpointer checkpointer;
  private final LocalFrontier frontier;

  KeptFrontier(Checkpointer checkpointer) {
    this.checkpointer = checkpointer;
    this.frontier = checkpointer.frontier();
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

  @Override
  public boolean push(Url url, int depth, String via, java.time.Instant lastmod) {
    return frontier.push(url, depth, via, lastmod);
  }

  @Override
  public int pushAll(List<Url> urls, int depth, String via) {
    return frontier.pushAll(urls, depth, via);
  }

  @Override
  public boolean pushRedirect(Url target, Lease from) {
    return frontier.pushRedirect(target, from);
  }

  @Override
  public Lease take() throws InterruptedException {
    return frontier.take();
  }

  @Override
  public Lease poll() {
    return frontier.poll();
  }

  @Override
  public void complete(Lease lease) {
    frontier.complete(lease);
  }

  @Override
  public void complete(Lease lease, Map<String, Long> counts) {
    frontier.complete(lease, counts);
  }

  @Override
  public void retry(Lease lease, Duration backoff) {
    frontier.retry(lease, backoff);
  }

  @Override
  public void retry(Lease lease, Duration backoff, Map<String, Long> counts) {
    frontier.retry(lease, backoff, counts);
  }

  @Override
  public void flushLog() {
    frontier.flushLog();
  }

  @Override
  public void putBack(Lease lease) {
    frontier.putBack(lease);
  }

  @Override
  public void delayHost(String hostKey, Duration wait) {
    frontier.delayHost(hostKey, wait);
  }

  @Override
  public void setHostDelay(String hostKey, Duration delay) {
    frontier.setHostDelay(hostKey, delay);
  }

  @Override
  public int skipHost(String hostKey) {
    return frontier.skipHost(hostKey);
  }

  @Override
  public List<Lease> takeAll(String hostKey, int max) {
    return frontier.takeAll(hostKey, max);
  }

  @Override
  public void close() {
    frontier.close();
  }

  @Override
  public boolean isFinished() {
    return frontier.isFinished();
  }

  @Override
  public long pending() {
    return frontier.pending();
  }

  @Override
  public long inFlight() {
    return frontier.inFlight();
  }

  @Override
  public int hosts() {
    return frontier.hosts();
  }

  @Override
  public long droppedByHostBudget() {
    return frontier.droppedByHostBudget();
  }

  @Override
  public long droppedBySkippedHost() {
    return frontier.droppedBySkippedHost();
  }

  @Override
  public int seenLayers() {
    return frontier.seenLayers();
  }

  @Override
  public long droppedByFullFilter() {
    return frontier.droppedByFullFilter();
  }

  @Override
  public String hostKey(Url url) {
    return frontier.hostKey(url);
  }

  @Override
  public long approximateSeen() {
    return frontier.approximateSeen();
  }

  @Override
  public double seenFpp() {
    return frontier.seenFpp();
  }

  @Override
  public int capacityWarnings() {
    return frontier.capacityWarnings();
  }
}
