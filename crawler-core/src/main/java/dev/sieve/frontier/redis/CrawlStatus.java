package dev.sieve.frontier.redis;

/**
 * The shared state of a crawl in Redis, for {@code crawl --status} ({@link
 * dev.sieve.frontier.Frontiers#status}).
 *
 * @param expiredLeases leases re-queued because they expired (a process died or was too slow)
 * @param capacity the first layer's capacity ({@code --expected-urls})
 * @param filterBits bits of all the filter's layers
 * @param hashes the first layer's k
 * @param setBits bits set in the seen filter (X)
 * @param grows whether the filter adds layers past capacity
 * @param layers the filter's layers (1 unless it grew)
 * @param recoveredUrls URLs queued by the recovery of pushes interrupted between their filter and
 *     queue steps (Redis Cluster): lost otherwise, or duplicates if their process had queued them
 * @param lateUrls URLs whose push reached its queue step after their intent was recovered (so
 *     queued them no second time)
 */
public record CrawlStatus(String crawlId, long pending, long leased, int hosts, long seenEstimate,
    double seenFpp, long capacity, double targetFpp, long droppedByHostBudget,
    long droppedBySkippedHost, long expiredLeases, long filterBits, int hashes, int segments,
    long setBits, boolean grows, int layers, long recoveredUrls, long lateUrls) {}
