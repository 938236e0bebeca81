package dev.sieve.frontier;

/**
 * The shared state of one crawl ID in a store that outlives its processes (Redis), for {@code
 * crawl --status} ({@link Frontiers#status}); the same numbers {@code serve}'s GetStats gives.
 *
 * @param pending URLs waiting, not leased
 * @param leased URLs leased and not given back (nor expired)
 * @param hosts queues (politeness keys)
 * @param completed URLs done with
 * @param seenEstimate the Sieve's estimate of the distinct URLs it saw
 * @param seenFpp the Sieve's estimated false-positive rate now
 * @param targetFpp the rate it keeps under, growing layers past its capacity
 * @param filterBits bits of all its layers
 * @param layers its layers (1 unless it grew)
 * @param droppedByHostBudget new URLs refused because their host held its budget
 * @param droppedBySkippedHost URLs dropped because their host was skipped
 */
public record CrawlStatus(String crawlId, long pending, long leased, long hosts, long completed,
    long seenEstimate, double seenFpp, double targetFpp, long filterBits, int layers,
    long droppedByHostBudget, long droppedBySkippedHost) {}
