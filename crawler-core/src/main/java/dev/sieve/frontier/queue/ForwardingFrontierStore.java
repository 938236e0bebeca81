package dev.sieve.frontier.queue;

import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * A {@link FrontierStore} that hands every call to another, for a store that changes a few calls
 * of one it wraps: it overrides those (and, to wrap its crawls too, the calls that return them:
 * {@link #getOrCreate}, {@link #get}, {@link #local}, {@link #all}) and inherits the rest.
 * Thread-safe as the store it wraps.
 */
public abstract class ForwardingFrontierStore extends FrontierStore {
  private final FrontierStore delegate;

  protected ForwardingFrontierStore(FrontierStore delegate) {
    this.delegate = delegate;
  }

  /** The store every call goes to. */
  protected final FrontierStore delegate() {
    return delegate;
  }

  @Override
  public boolean batchesPuts() {
    return delegate.batchesPuts();
  }

  @Override
  public CrawlStore getOrCreate(String crawlId) {
    return delegate.getOrCreate(crawlId);
  }

  @Override
  public int crawlCount() {
    return delegate.crawlCount();
  }

  @Override
  public Optional<? extends CrawlStore> local(String crawlId) {
    return delegate.local(crawlId);
  }

  @Override
  public Optional<? extends CrawlStore> get(String crawlId) {
    return delegate.get(crawlId);
  }

  @Override
  public long delete(String crawlId) {
    return delegate.delete(crawlId);
  }

  @Override
  public List<? extends CrawlStore> all() {
    return delegate.all();
  }

  @Override
  public void served(List<? extends CrawlStore> produced) {
    delegate.served(produced);
  }

  @Override
  public List<String> ids() {
    return delegate.ids();
  }

  @Override
  public boolean active() {
    return delegate.active();
  }

  @Override
  public void active(boolean state) {
    delegate.active(state);
  }

  @Override
  public Duration defaultDelay() {
    return delegate.defaultDelay();
  }

  @Override
  public void defaultDelay(Duration delay) {
    delegate.defaultDelay(delay);
  }

  @Override
  public long spilledBytes() {
    return delegate.spilledBytes();
  }

  @Override
  public Nodes join(String address, Clock clock, long ttlMillis) {
    return delegate.join(address, clock, ttlMillis);
  }

  @Override
  public void afterDurable(Runnable answer) {
    delegate.afterDurable(answer);
  }

  @Override
  public void checkpoint() throws IOException {
    delegate.checkpoint();
  }

  @Override
  public void close() {
    delegate.close();
  }
}
