package dev.sieve.serve.limits;

import dev.sieve.frontier.queue.CrawlStore;
import dev.sieve.frontier.queue.FrontierStore;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.util.Optional;

/**
 * Whether a URL may go into a crawl and queue: a new crawl only while the node holds fewer than
 * {@link ServeLimits#maxCrawls}, a new queue only while its crawl holds fewer than {@link
 * ServeLimits#maxQueuesPerCrawl}. Checked before the put, so calls running at once may pass a
 * limit by one each (the transport's threads at most). A store that cannot count cheaply (Redis)
 * is not limited here: its own memory bounds it.
 */
public final class StoreLimits {
  private final ServeLimits limits;
  private final Rejections rejections;

  public StoreLimits(ServeLimits limits, Rejections rejections) {
    this.limits = limits;
    this.rejections = rejections;
  }

  /** Null if a URL may go into queue {@code key} of crawl {@code crawlId}; else the refusal. */
  public StatusRuntimeException check(FrontierStore crawls, String crawlId, String key) {
    Optional<? extends CrawlStore> crawl = crawls.local(crawlId);
    if (crawl.isEmpty()) {
      int count = crawls.crawlCount();
      return count >= limits.maxCrawls ? rejections.refuse(Status.RESOURCE_EXHAUSTED, "crawls",
          "PutURLs refused: crawl '" + crawlId + "' would be one more than the " + count
              + " crawls --max-crawls (" + limits.maxCrawls + ") allows") : null;
    }
    if (crawl.get().hasQueue(key)) {
      return null;
    }
    int count = crawl.get().queueCount();
    return count >= limits.maxQueuesPerCrawl ? rejections.refuse(Status.RESOURCE_EXHAUSTED,
        "queues_per_crawl", "PutURLs refused: queue '" + key + "' would be one more than the "
            + count + " queues of crawl '" + crawlId + "' --max-queues-per-crawl ("
            + limits.maxQueuesPerCrawl + ") allows") : null;
  }
}
