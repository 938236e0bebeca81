package dev.sieve.serve.limits;

import dev.sieve.frontier.queue.CrawlStore;
import dev.sieve.frontier.queue.FrontierStore;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Whether a URL may go into a crawl and queue: a new crawl only while the node holds fewer than
 * {@link ServeLimits#maxCrawls}, a new queue only while its crawl holds fewer than {@link
 * ServeLimits#maxQueuesPerCrawl}. Checked before the put, so calls running at once may pass a
 * limit by one each (the transport's threads at most); the items of a batch applied together are
 * checked with a {@link Batch}, which counts the crawls and queues its earlier items add. A store
 * shared by several nodes (Redis) counts with a round trip, asked only for a crawl or queue this
 * node has not met yet (its queue count at most once per batch of puts), so nodes putting at once
 * may pass a limit by a batch each, and a crawl that exists there but is new to this node may
 * take one new queue past the limit.
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
    return check(crawls, crawlId, key, null);
  }

  /** A check of the items of one batch, applied together after every item was checked. */
  public Batch batch() {
    return new Batch();
  }

  private StatusRuntimeException check(FrontierStore crawls, String crawlId, String key,
      Batch batch) {
    Set<String> added = batch == null ? Set.of() : batch.queues.getOrDefault(crawlId, Set.of());
    if (added.contains(key)) {
      return null;
    }
    Optional<? extends CrawlStore> crawl = crawls.local(crawlId);
    int count;
    if (crawl.isPresent()) {
      if (crawl.get().metQueue(key)) {
        return null;
      }
      count = crawl.get().queueCount() + added.size();
      if (count >= limits.maxQueuesPerCrawl && crawl.get().hasQueue(key)) {
        return null; // a queue another node made, met now
      }
    } else if (batch != null && batch.queues.containsKey(crawlId)) {
      count = added.size(); // a crawl this batch creates
    } else {
      int crawlCount = crawls.crawlCount() + (batch == null ? 0 : batch.newCrawls);
      // local() may answer from what this node met only: the store has the last word
      if (crawlCount >= limits.maxCrawls && crawls.get(crawlId).isEmpty()) {
        return rejections.refuse(Status.RESOURCE_EXHAUSTED, "crawls",
            "PutURLs refused: crawl '" + crawlId + "' would be one more than the " + crawlCount
                + " crawls --max-crawls (" + limits.maxCrawls + ") allows");
      }
      if (batch == null) {
        return null;
      }
      batch.newCrawls++;
      count = 0;
    }
    if (count >= limits.maxQueuesPerCrawl) {
      return rejections.refuse(Status.RESOURCE_EXHAUSTED,
          "queues_per_crawl", "PutURLs refused: queue '" + key + "' would be one more than the "
              + count + " queues of crawl '" + crawlId + "' --max-queues-per-crawl ("
              + limits.maxQueuesPerCrawl + ") allows");
    }
    if (batch != null) {
      batch.queues.computeIfAbsent(crawlId, id -> new HashSet<>()).add(key);
    }
    return null;
  }

  /** The crawls and queues the earlier items of a batch add. Not thread-safe: one per batch. */
  public final class Batch {
    private final Map<String, Set<String>> queues = new HashMap<>();
    private int newCrawls;

    private Batch() {}

    /** As {@link StoreLimits#check}, counting what the batch's earlier items add. */
    public StatusRuntimeException check(FrontierStore crawls, String crawlId, String key) {
      return StoreLimits.this.check(crawls, crawlId, key, this);
    }
  }
}
