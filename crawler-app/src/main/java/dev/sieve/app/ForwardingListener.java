package dev.sieve.app;

import dev.sieve.crawl.CrawlListener;
import dev.sieve.crawl.PageRecord;
import dev.sieve.frontier.CapacityWarning;
import java.util.Map;
import java.util.Set;

/**
 * A crawl listener passing everything to another: a subclass overrides what it also wants to see,
 * calling {@code super} first, so that listeners chain (the output, metrics, the report).
 */
class ForwardingListener implements CrawlListener {
  private final CrawlListener next;

  ForwardingListener(CrawlListener next) {
    this.next = next;
  }

  @Override
  public void onPage(PageRecord record) {
    next.onPage(record);
  }

  @Override
  public void onCapacityWarning(CapacityWarning warning) {
    next.onCapacityWarning(warning);
  }

  @Override
  public Map<String, PageRecord> recordedBefore(Set<String> urls) {
    return next.recordedBefore(urls);
  }

  @Override
  public void onHostSkipped(String host, String reason) {
    next.onHostSkipped(host, reason);
  }

  @Override
  public void onCheckpoint() {
    next.onCheckpoint();
  }
}
