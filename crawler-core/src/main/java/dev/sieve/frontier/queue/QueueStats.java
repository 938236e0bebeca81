package dev.sieve.frontier.queue;

/**
 * Totals over some queues of a crawl: URLs pending (in flight included), in flight, queues, queues
 * with anything pending or in flight, and URLs completed.
 */
public record QueueStats(long size, long inFlight, long queues, long activeQueues, long completed) {
  public static final QueueStats NONE = new QueueStats(0, 0, 0, 0, 0);

  QueueStats plus(WorkQueue queue, long now) {
    long pending = queue.size();
    int flying = queue.inFlight(now);
    return new QueueStats(size + pending, inFlight + flying, queues + 1,
        activeQueues + (pending > 0 ? 1 : 0), completed + queue.completed());
  }
}
